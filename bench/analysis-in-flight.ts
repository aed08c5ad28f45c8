// How many images the analysis should keep in flight on this machine: analyzeImage (as the
// analysis worker calls it, without the ledger) over the same files at 2, 3, 4 in flight.
//   node dist/bench/analysis-in-flight.js LIST [N...]
// LIST holds one JPEG path a line; warm the page cache first (the analysis bench does).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeC2paReader } from '../src/analysis/c2pa/index.js';
import { analyzeImage } from '../src/analysis/image/image-analysis.service.js';

async function main(): Promise<void> {
  const [list, ...counts] = process.argv.slice(2);
  const files = (await readFile(list ?? '', 'utf8')).split('\n').filter((l) => l !== '');
  const work = await mkdtemp(join(tmpdir(), 'custody-in-flight-'));
  const deps = {
    readObject: (key: string) => readFile(files[Number(key)]!),
    previewPaths: (key: string) => ({
      plain: join(work, `${key}.webp`),
      blurred: join(work, `${key}.blurred.webp`),
    }),
  };
  try {
    for (const n of (counts.length > 0 ? counts : ['2', '3', '4']).map(Number)) {
      let next = 0;
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: n }, async () => {
          while (next < files.length) await analyzeImage(deps, String(next++), 'image/jpeg');
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      console.log(
        `${n} in flight: ${(files.length / seconds).toFixed(1)} images/s, ${(cpuSeconds / seconds).toFixed(2)} cores busy, ` +
          `${((1000 * cpuSeconds) / files.length).toFixed(1)} ms CPU/image, peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
      );
    }
  } finally {
    await closeC2paReader();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
