// Stopping the server with clients still connected (a browser tab left open). Node's
// server.close() ends only the connections that are idle at that moment, and waits for the rest:
//  - a keep-alive connection whose request was in flight becomes idle afterwards and held the
//    stop, and so the final checkpoint, for the keep-alive timeout (72 s);
//  - a connection that has not sent a request yet (Chromium opens spare ones ahead of need) is
//    not idle to Node either, and held the stop for good (a CI failure: a browser test's server
//    closed with Chromium still connected never finished closing).
// So, once stopping: every connection with no request in progress is ended (and any new one);
// a response finished while stopping says `Connection: close` and its connection is ended once it
// is sent (a streamed response begun before the stop keeps its keep-alive header, and is ended too).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function endConnectionsWhenStopping(app: FastifyInstance): void {
  let stopping = false;
  /** Open connections → responses in progress on each (more than one only when pipelined). */
  const connections = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    if (stopping) {
      socket.destroy();
      return;
    }
    connections.set(socket, 0);
    socket.once('close', () => connections.delete(socket));
  });
  // Counted on Node's own events, not Fastify hooks: a request answered by a failing hook (whose
  // later onRequest hooks never run) is counted like any other.
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const n = connections.get(socket);
    if (n === undefined) return;
    connections.set(socket, n + 1);
    response.once('close', () => {
      const before = connections.get(socket);
      if (before === undefined) return; // the connection is already gone
      connections.set(socket, before - 1);
      if (stopping && before === 1) socket.end();
    });
  });
  app.addHook('preClose', (done) => {
    stopping = true;
    for (const [socket, responses] of connections) if (responses === 0) socket.destroy();
    done();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (stopping) void reply.header('connection', 'close');
    return payload;
  });
}
