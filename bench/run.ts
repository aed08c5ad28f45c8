// `npm run bench`: every benchmark, each printing the peer tool's figure from the same run and
// the ratio (these machines are noisy: compare within a run, not across runs).
import { ensureJpegCorpus } from './corpus.js';
import { benchIngestVerify } from './ingest-verify.bench.js';

const count = Number(process.env.BENCH_FILES ?? '2000');

async function main(): Promise<void> {
  console.log(`Custody benchmarks (${new Date().toISOString()}, node ${process.version})`);
  const corpus = await ensureJpegCorpus(`jpeg-${count}`, count, [4, 12]);
  console.log('\n== archive foundation: intake and verification ==');
  for (const line of await benchIngestVerify(corpus)) console.log(line);
}

await main();
