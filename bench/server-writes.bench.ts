// Writer throughput of the team server (issue 12, "Performance" → writer throughput): 20
// concurrent clients, each posting one small entry per request (a decision, POST /api/decisions,
// as a team member records one), each answered only after a durable append (group commit: the
// drafts of concurrent requests share one batch intent and one fsync). Target: ≥ 1,000 entries/s
// in total with p99 ≤ 100 ms, on SQLite and on PostgreSQL (when BENCH_PG_URL names an empty
// database). The server is a real `custody serve` subprocess on loopback; the clients run here.
// SERVER_WRITES_SECONDS sets the measured time (default 10 s), SERVER_WRITES_CLIENTS the clients.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { timeCommand } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const PASSWORD = 'bench-password-0000';

async function run(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const r = await timeCommand('node', [CUSTODY, ...args], { env });
  if (r.code !== 0) throw new Error(`custody ${args.join(' ')} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

async function serve(env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number | undefined; stop(): Promise<number | null> }> {
  // SERVER_WRITES_NODE_OPTIONS: given to the server process only (for example --cpu-prof).
  const nodeArgs = (process.env.SERVER_WRITES_NODE_OPTIONS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn('node', [...nodeArgs, CUSTODY, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = await new Promise<string>((res, rej) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving .* at (http:\/\/[0-9.:]+)/.exec(out);
      if (m !== null) res(m[1]!);
    });
    void exited.then(() => rej(new Error(`custody serve exited: ${err}`)));
  });
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** POSTs a JSON body and reads the whole answer; resolves with the status. */
function post(agent: Agent, url: string, path: string, s: { cookie: string; csrf: string }, body: string): Promise<{ status: number }> {
  return new Promise((res, rej) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie: s.cookie, 'x-csrf-token': s.csrf },
      },
      (r) => {
        r.on('data', () => undefined);
        r.on('end', () => res({ status: r.statusCode ?? 0 }));
        r.on('error', rej);
      },
    );
    req.on('error', rej);
    req.end(body);
  });
}

async function signIn(url: string, name: string): Promise<{ cookie: string; csrf: string }> {
  const r = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: PASSWORD }),
  });
  if (r.status !== 200) throw new Error(`sign-in: ${r.status} ${await r.text()}`);
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, csrf: ((await r.json()) as { csrf_token: string }).csrf_token };
}

export async function benchServerWrites(): Promise<string[]> {
  const seconds = Number(process.env.SERVER_WRITES_SECONDS ?? '10');
  const clients = Number(process.env.SERVER_WRITES_CLIENTS ?? '20');
  const base = resolve('bench', '.work', 'server-writes');
  await rm(base, { recursive: true, force: true });
  await mkdir(join(base, 'files'), { recursive: true });
  await writeFile(join(base, 'files', 'a.bin'), 'bench object a\n');
  await writeFile(join(base, 'files', 'b.bin'), 'bench object b\n');
  await writeFile(join(base, 'pw'), `${PASSWORD}\n`, { mode: 0o600 });
  const out: string[] = [];
  const databases: [string, NodeJS.ProcessEnv][] = [['SQLite', { DATABASE_URL: '' }]];
  if (process.env.BENCH_PG_URL !== undefined) databases.push(['PostgreSQL', { DATABASE_URL: process.env.BENCH_PG_URL }]);
  for (const [name, extra] of databases) {
    const archive = join(base, `archive-${name}`);
    const env = { ...process.env, ...extra, CUSTODY_ARCHIVE: archive, CUSTODY_ACTOR: 'bench', CUSTODY_KEY_PASSPHRASE: '', CUSTODY_KEY_PASSPHRASE_FILE: '' };
    await run(env, ['init']);
    await run(env, ['user', 'add', 'Bench Investigator', '--role', 'investigator', '--password-file', join(base, 'pw')]);
    await run(env, ['ingest', join(base, 'files'), '--source', 'BENCH', '--new-source']);
    const items = JSON.parse(await run(env, ['items', '--json'])) as { sha256: string }[];
    const objects = [...new Set(items.map((i) => i.sha256))].sort().slice(0, 2);
    const server = await serve(env);
    try {
      // One kept-alive connection per client, through node:http: fetch (undici) spends about
      // three times the CPU per request, taken from the same two cores as the server's.
      const agent = new Agent({ keepAlive: true, maxSockets: clients });
      const sessions = [];
      for (let c = 0; c < clients; c++) sessions.push(await signIn(server.url, 'Bench Investigator'));
      const latencies: number[] = [];
      let errors = 0;
      let measuring = false;
      const warmupMs = 1000;
      const start = performance.now();
      let cpuAtWarm = 0;
      const clientCpuAtWarm = { v: process.cpuUsage() };
      setTimeout(() => {
        void cpuSeconds(server.pid).then((c) => (cpuAtWarm = c));
        clientCpuAtWarm.v = process.cpuUsage();
      }, warmupMs);
      const endAt = start + warmupMs + seconds * 1000;
      let measuredFrom = 0;
      let measuredTo = 0;
      let counted = 0;
      await Promise.all(
        sessions.map(async (s, c) => {
          let i = 0;
          while (performance.now() < endAt) {
            const t0 = performance.now();
            const r = await post(agent, server.url, '/api/decisions', s, JSON.stringify({ objects, decision: 'different', note: `client ${c} #${i++}` }));
            const t1 = performance.now();
            if (!measuring && t0 >= start + warmupMs) {
              measuring = true;
              measuredFrom = t0;
            }
            if (r.status !== 201) errors++;
            else if (t0 >= start + warmupMs) {
              latencies.push(t1 - t0);
              counted++;
              measuredTo = Math.max(measuredTo, t1);
            }
          }
        }),
      );
      agent.destroy();
      const serverCpu = (await cpuSeconds(server.pid)) - cpuAtWarm;
      const clientCpu = process.cpuUsage(clientCpuAtWarm.v);
      latencies.sort((a, b) => a - b);
      const rate = counted / ((measuredTo - measuredFrom) / 1000);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      out.push(
        `${name}: ${clients} clients, ${counted} decisions in ${((measuredTo - measuredFrom) / 1000).toFixed(1)} s: ${rate.toFixed(0)} entries/s (target ≥ 1,000); latency p50 ${p50.toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target ≤ 100 ms), max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms; errors ${errors}`,
        `${name}: CPU per entry: server ${((serverCpu / counted) * 1000).toFixed(2)} ms, clients ${(((clientCpu.user + clientCpu.system) / 1e6 / counted) * 1000).toFixed(2)} ms (load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${cpus().length} cores)`,
      );
    } finally {
      const code = await server.stop();
      if (code !== 0) out.push(`${name}: custody serve exited ${String(code)} at stop`);
    }
    const verify = await timeCommand('node', [CUSTODY, 'verify', '--json'], { env });
    out.push(`${name}: custody verify after the run: exit ${String(verify.code)} (${verify.seconds.toFixed(1)} s)`);
  }
  return out;
}
