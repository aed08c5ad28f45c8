// The part of autocannon's API the server load bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      setupRequest?: (req: Request) => Request;
    }
    interface Client {
      setHeaders(headers: Record<string, string>): void;
      /** Replaces this connection's request list (rebuilding its next request). */
      setRequests(requests: Request[]): void;
      /** One per answered request: its status, size and latency (one request in flight per connection). */
      on(event: 'response', listener: (status: number, bytes: number, ms: number) => void): this;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      setupClient?: (client: Client) => void;
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
    interface Instance extends EventEmitter {
      on(
        event: 'response',
        listener: (client: Client, status: number, bytes: number, ms: number) => void,
      ): this;
    }
  }
  function autocannon(
    opts: autocannon.Options,
    done: (err: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  export default autocannon;
}
