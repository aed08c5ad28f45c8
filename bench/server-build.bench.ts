// Building the team server (issue 12, suite time): buildServer over one archive, several times in
// one process, CPU per build (process.cpuUsage) and wall. The first build pays for compiling every
// route's validators and serializers; the next ones reuse what the process compiled
// (src/http/schema-compilers.ts). `custody serve` builds once; the tests build hundreds.
//   npm run build && node dist/bench/server-build.bench.js [builds=5]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initArchive, openArchive } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { buildServer } from '../src/http/server.js';

export async function benchServerBuild(builds: number): Promise<string[]> {
  const work = await mkdtemp(join(tmpdir(), 'custody-server-build-'));
  const config = loadConfig(
    { ...process.env, CUSTODY_ARCHIVE: join(work, 'archive'), CUSTODY_ACTOR: 'bench', CUSTODY_KEY_PASSPHRASE: '', CUSTODY_KEY_PASSPHRASE_FILE: '' },
    {},
  );
  await initArchive(config);
  const archive = await openArchive(config, 'write', 'serve');
  const out: string[] = [];
  try {
    for (let i = 0; i < builds; i++) {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const server = await buildServer({ archive });
      await server.ready();
      const used = process.cpuUsage(cpu);
      out.push(
        `build ${i + 1}: ${((used.user + used.system) / 1000).toFixed(0)} ms CPU, ${(performance.now() - t0).toFixed(0)} ms wall (${server.printRoutes({ commonPrefix: false }).split('\n').length} route lines)`,
      );
      await server.close();
    }
  } finally {
    await archive.close();
    await rm(work, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const builds = Number(process.argv[2] ?? 5);
  for (const line of await benchServerBuild(builds)) console.log(line);
}
