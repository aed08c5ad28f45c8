// `npm run bench`: every benchmark, each printing the peer tool's figure from the same run and
// the ratio (these machines are noisy: compare within a run, not across runs).
// BENCH_ONLY=ingest|analysis|findimagedupes|neardup|quality|export|catalogue|startup|server-writes|server|grid (comma-separated) runs only those sections;
// BENCH_FILES scales the JPEG corpora down for a quick run; QUALITY_BASES sets the number of
// base photos of the near-duplicate quality corpus (default 200).
import { loadavg } from 'node:os';
import { benchAnalysisPipeline } from './analysis-pipeline.bench.js';
import { benchCatalogue } from './catalogue.bench.js';
import { ensureJpegCorpus } from './corpus.js';
import { benchEvidenceGrid } from './evidence-grid.bench.js';
import { benchExport } from './export.bench.js';
import { benchFindimagedupes } from './findimagedupes.bench.js';
import { benchIngestVerify } from './ingest-verify.bench.js';
import { benchNearDuplicateQuality } from './near-duplicate-quality.bench.js';
import { benchNearDuplicates } from './near-duplicates.bench.js';
import { benchServerWrites } from './server-writes.bench.js';
import { benchServerLoad } from './server-load.bench.js';
import { benchStartup } from './startup.bench.js';

const count = Number(process.env.BENCH_FILES ?? '2000');
const only = new Set(
  (
    process.env.BENCH_ONLY ??
    'ingest,analysis,findimagedupes,neardup,quality,export,catalogue,startup,server-writes,server,grid'
  )
    .split(',')
    .map((s) => s.trim()),
);

async function main(): Promise<void> {
  console.log(
    `Custody benchmarks (${new Date().toISOString()}, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  if (only.has('startup')) {
    console.log('\n== start-up: a command against `node -e 0`, same machine, same run ==');
    for (const line of await benchStartup()) console.log(line);
  }
  if (only.has('ingest')) {
    const corpus = await ensureJpegCorpus(`jpeg-${count}`, count, [4, 12]);
    console.log('\n== archive foundation: intake and verification ==');
    for (const line of await benchIngestVerify(corpus)) console.log(line);
  }
  if (only.has('analysis')) {
    // The 6–12 MP corpus is generated for 2,000 files and cached; BENCH_FILES takes a prefix.
    const corpus = await ensureJpegCorpus('jpeg-6-12mp-2000', 2000, [6, 12]);
    console.log(
      '\n== ingest + analysis pipeline, against image-work-only and a conventional pipeline ==',
    );
    for (const line of await benchAnalysisPipeline(corpus, Math.min(count, corpus.files.length)))
      console.log(line);
  }
  if (only.has('findimagedupes')) {
    const corpus = await ensureJpegCorpus('jpeg-6-12mp-2000', 2000, [6, 12]);
    console.log(
      '\n== analysis + near-duplicate search against findimagedupes (Debian), same files, same run ==',
    );
    for (const line of await benchFindimagedupes(corpus, Math.min(count, corpus.files.length)))
      console.log(line);
  }
  if (only.has('export')) {
    const corpus = await ensureJpegCorpus(`jpeg-${count}`, count, [4, 12]);
    console.log(
      '\n== tribunal export: a whole archive as a BagIt bag, and its offline verification ==',
    );
    for (const line of await benchExport(corpus)) console.log(line);
  }
  if (only.has('catalogue')) {
    console.log('\n== catalogue bulk work: subjects linked by file name, the items table ==');
    for (const line of await benchCatalogue()) console.log(line);
  }
  if (only.has('server')) {
    console.log(
      '\n== team server under load: 20 sessions over 50,000 items (SERVER_LOAD_ITEMS, SERVER_LOAD_SECONDS) ==',
    );
    for (const line of await benchServerLoad()) console.log(line);
  }
  if (only.has('grid')) {
    console.log(
      '\n== evidence grid in Chromium (--disable-gpu) over the same 50,000 items: first screen, scrolling at 3,000 px/s ==',
    );
    for (const line of await benchEvidenceGrid()) console.log(line);
  }
  if (only.has('neardup')) {
    console.log(
      '\n== near-duplicate search: exact PDQ search against brute force (NEAR_DUP_SIZES) ==',
    );
    for (const line of await benchNearDuplicates()) console.log(line);
  }
  if (only.has('quality')) {
    console.log('\n== near-duplicate quality: planted variants, known groups ==');
    for (const line of await benchNearDuplicateQuality(Number(process.env.QUALITY_BASES ?? '200')))
      console.log(line);
  }
  if (only.has('server-writes')) {
    console.log(
      '\n== team server: writer throughput, 20 concurrent clients posting decisions (group commit) ==',
    );
    for (const line of await benchServerWrites()) console.log(line);
  }
}

await main();
