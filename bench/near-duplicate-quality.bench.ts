// Near-duplicate quality: the real per-object analysis (analyzeImage) on every file of a corpus
// with planted variants (bench/variants.ts), then findSimilarPairs at the default thresholds.
// Precision and recall over pairs against the known groups, overall and per variant kind; plain
// PDQ at 31 for comparison; and offline alternatives (crop thresholds, crop regions) measured on
// the same hashes, so a proposal comes with its figures.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeC2paReader } from '../src/analysis/c2pa/index.js';
import { ANALYZER, analyzeImage } from '../src/analysis/image/image-analysis.service.js';
import { findPairs } from '../src/analysis/near-duplicates/index.js';
import { DIHEDRAL_VARIANTS, hammingDistance } from '../src/analysis/pdq/index.js';
import {
  findSimilarPairs,
  findSimilarPairsParallel,
  type HashedObject,
} from '../src/analysis/similarity/similarity.service.js';
import { score, type Pair } from './pair-score.js';
import {
  cropPairs,
  EXTRA_REGIONS,
  hex,
  pdqPairs,
  regionCost,
  regionHashes,
  union,
  type Regions,
} from './region-hashes.js';
import { alignment } from './crop-alignment.js';
import { ensureQualityCorpus, QUALITY_SEED, VARIANT_KINDS, type QualityFile } from './variants.js';

/** QUALITY_OFFLINE=1 also measures the offline region-hash alternatives (one more decode per file). */
const OFFLINE = process.env.QUALITY_OFFLINE === '1';

export async function benchNearDuplicateQuality(bases: number): Promise<string[]> {
  const corpus = await ensureQualityCorpus(bases);
  const files = firstBases(corpus.files, Number(process.env.QUALITY_GROUPS ?? bases));
  const bursts = files.filter((f) => f.kind === 'burst').length;
  const out: string[] = [
    `corpus: ${files.length} JPEGs (~2 MP): ${Math.min(bases, Number(process.env.QUALITY_GROUPS ?? bases))} bases (of a corpus of ${bases}) × (1 + ${VARIANT_KINDS.length} variants) and ${bursts} burst frames; seed in bench/variants.ts`,
    'precision excludes burst frame ↔ own scene pairs (a 0–2 % pan is a near-duplicate to any perceptual hash); "strict" counts them false',
  ];
  const started = Date.now();
  const { objects, regions } = await cachedAnalyses(corpus.dir, files);
  out.push(
    `seed ${QUALITY_SEED}; ${files.filter((f) => f.kind === 'setting').length} same-setting/different-subject hard negatives`,
    `analysis: ${((Date.now() - started) / 1000).toFixed(1)} s for ${files.length} files (analyzeImage${OFFLINE ? ' + offline region hashes' : ''}, 2 in flight)`,
  );

  const evaluate = (label: string, search: () => Pair[], detail = false): number => {
    const t0 = performance.now();
    const pairs = search();
    const ms = performance.now() - t0;
    const m = score(files, pairs);
    out.push(
      `${label.padEnd(46)} ${ms.toFixed(0).padStart(5)} ms  P ${m.precision.toFixed(4)} (${m.fp} false) strict ${m.strict.toFixed(4)} (+${m.burst} burst), ` +
        `R ${m.recall.toFixed(4)} (${m.tp}/${m.truth}), vs base ${m.baseRecall.toFixed(4)}; clusters P ${m.clusterPrecision.toFixed(4)} R ${m.clusterRecall.toFixed(4)}`,
    );
    if (!detail) return m.baseRecall;
    out.push(
      `  false positives: ${m.fpSetting} with a same-setting/different-subject negative, ${m.fpSameDay} another scene from the same camera and day, ${m.fp - m.fpSameDay - m.fpSetting} another scene`,
      `  burst frames (reported apart, not in P): ${m.burst} burst ↔ own-scene pairs found`,
    );
    out.push('  recall per variant kind: pairs with the base | pairs with the other variants');
    for (const [kind, r] of m.perKind) {
      out.push(`    ${kind.padEnd(16)} ${frac(r.base)} | ${frac(r.other)}`);
    }
    const worst = [...m.kindPairs]
      .filter(([, v]) => v[0] < v[1])
      .sort((x, y) => y[1][1] - y[1][0] - (x[1][1] - x[1][0]));
    out.push(
      `  most missed kind pairs (missed/all): ${worst
        .slice(0, 8)
        .map(([k, v]) => `${k} ${v[1] - v[0]}/${v[1]}`)
        .join(', ')}`,
    );
    return m.baseRecall;
  };

  const toPairs = (ps: { a: string; b: string }[]): Pair[] =>
    ps.map((p) => ({ a: Number(p.a), b: Number(p.b) }));
  findSimilarPairs(objects, { align: false }); // warm up the search code before timing it
  out.push(
    'configuration                                   search  precision (false), strict, recall over pairs (found/all), vs base; over clusters',
  );
  let reference: Pair[] = [];
  evaluate(
    'before: PDQ 31 + dihedral + crops at 24',
    () => (reference = toPairs(findSimilarPairs(objects, { align: false }))),
    true,
  );
  {
    // As the archive runs it (archive-similarity.service.ts): the alignments on both cores.
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const found = await findSimilarPairsParallel(objects, {
      hop: process.env.QUALITY_HOP !== '0',
      overlap: process.env.QUALITY_OVERLAP !== '0',
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    let aligned: Pair[] = [];
    evaluate(
      `NOW: findSimilarPairs (hash matches that do not align dropped, candidates aligned${process.env.QUALITY_HOP === '0' ? ', QUALITY_HOP=0: no hop' : ', one hop'}${process.env.QUALITY_OVERLAP === '0' ? ', QUALITY_OVERLAP=0: no overlaps' : ', overlaps'})`,
      () => (aligned = toPairs(found)),
      true,
    );
    out.push(
      `  findSimilarPairs with alignment: ${seconds.toFixed(1)} s wall for ${files.length} files, ${aligned.length} pairs (alignments on ${availableParallelism()} threads; main thread's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`,
    );
  }
  out.push(cropDistances(files, objects));
  out.push(...alignment(files, objects, reference, evaluate));
  if (!OFFLINE) return out;
  const pdq = objects.map((o) => o.pdq);
  const turns = objects.map((o) => o.dihedral);
  const crops = objects.map((o) => o.crops);
  const same = union(pdqPairs(pdq, turns), cropPairs(pdq, crops, 24)).length === reference.length;
  out.push(
    `  (the offline search below, at the default settings, finds the same ${reference.length} pairs as findSimilarPairs: ${same ? 'yes' : 'NO'})`,
  );
  evaluate('plain PDQ ≤ 31 only', () =>
    findPairs(
      pdq.map((h, i) => ({ id: i, hash: hex(h) })),
      { threshold: 31, dihedral: false },
    ),
  );
  evaluate('PDQ 31 + dihedral, no crops', () => pdqPairs(pdq, turns));
  for (const t of [28, 31])
    evaluate(`default regions, crop threshold ${t}`, () =>
      union(pdqPairs(pdq, turns), cropPairs(pdq, crops, t)),
    );
  out.push(
    `offline: ${EXTRA_REGIONS.map((r) => r.name).join(', ')} regions; dihedral variants of region hashes; other scales`,
  );
  const sides = crops.map((c, i) => [...c, ...regions[i]!.extra]);
  for (const t of [24, 28])
    evaluate(
      `+ one-side regions, crop ${t}`,
      () => union(pdqPairs(pdq, turns), cropPairs(pdq, sides, t)),
      t === 24,
    );
  const turned = sides.map((c, i) => [...c, ...regions[i]!.dihedral]);
  for (const t of [24, 28, 31]) {
    evaluate(
      `+ one-side + region dihedrals, crop ${t}`,
      () => union(pdqPairs(pdq, turns), cropPairs(pdq, turned, t)),
      t === 28,
    );
  }
  const small = regions.map((r) => r.smallFull);
  for (const t of [24, 28])
    evaluate(`  same, vs a full hash at the regions' scale, ${t}`, () =>
      union(pdqPairs(pdq, turns), cropPairs(small, turned, t)),
    );
  const unhalved = regions.map((r) => r.unhalved);
  for (const t of [24, 28])
    evaluate(`  same, regions on the unhalved raster, ${t}`, () =>
      union(pdqPairs(pdq, turns), cropPairs(pdq, unhalved, t)),
    );
  out.push(margin(files, union(pdqPairs(pdq, turns, 48), cropPairs(pdq, turned, 48))));
  out.push(nearest(files, objects));
  const per = (ms: number): string => (ms / regionCost.files).toFixed(1);
  out.push(
    `cost of 11 region hashes per image (main thread): ${per(regionCost.halvedMs)} ms halved (as now), ${per(regionCost.unhalvedMs)} ms unhalved`,
  );
  return out;
}

/** How close different scenes come under the widest scheme (one-side + region dihedrals). */
function margin(files: QualityFile[], pairs: Pair[]): string {
  const ds = pairs
    .filter((p) => files[p.a]!.sceneSeed !== files[p.b]!.sceneSeed)
    .map((p) => p.distance ?? 0);
  const within = (t: number): number => ds.filter((d) => d <= t).length;
  const closest = ds.length === 0 ? 'none ≤ 48' : String(Math.min(...ds));
  return `different scenes, one-side + region dihedrals: closest ${closest}; pairs ≤ 28: ${within(28)}, ≤ 31: ${within(31)}, ≤ 40: ${within(40)}, ≤ 48: ${within(48)}`;
}

/** Per file, the nearest other scene and (burst frames) their own scene, by min over the 8 variants. */
function nearest(files: QualityFile[], objects: HashedObject[]): string {
  const words = objects.map((o) =>
    [o.pdq, ...o.dihedral].map(
      (h) => new Uint32Array(Uint8Array.from(Buffer.from(h, 'hex')).buffer),
    ),
  );
  const dist = (i: number, j: number): number => {
    let best = 256;
    for (const v of words[i]!) {
      let d = 0;
      for (let k = 0; k < 8; k++) d += popcount(v[k]! ^ words[j]![0]![k]!);
      best = Math.min(best, d);
    }
    return best;
  };
  const other: number[] = [];
  const burst: number[] = [];
  const later: number[] = [];
  files.forEach((f, i) => {
    let o = 256;
    let b = 256;
    files.forEach((g, j) => {
      if (i === j) return;
      if (g.sceneSeed !== f.sceneSeed) o = Math.min(o, dist(i, j));
      else if (f.kind === 'burst' && g.kind === 'base') b = Math.min(b, dist(i, j));
    });
    other.push(o);
    if (f.kind === 'burst') (f.sceneVariant < 3 ? burst : later).push(b);
  });
  const q = (xs: number[], p: number): number =>
    [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))]!;
  return (
    `PDQ (min over dihedral) to the nearest other scene, per file: min ${q(other, 0)} p1 ${q(other, 0.01)} p50 ${q(other, 0.5)}; ` +
    `burst frame 1–2 to its base: p50 ${q(burst, 0.5)} p90 ${q(burst, 0.9)} max ${q(burst, 1)}; ` +
    `frame 3+: min ${q(later, 0)} p50 ${q(later, 0.5)} max ${q(later, 1)}`
  );
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Closest region hash of the base to each crop variant's full hash (what the crop signal needs). */
function cropDistances(files: QualityFile[], objects: HashedObject[]): string {
  const baseOf = new Map<number, number>();
  files.forEach((f, i) => f.kind === 'base' && baseOf.set(f.group, i));
  const parts: string[] = [];
  for (const kind of ['crop-centre-90', 'crop-side-90', 'crop-corner-90']) {
    const ds: number[] = [];
    files.forEach((f, i) => {
      if (f.kind !== kind) return;
      const base = objects[baseOf.get(f.group)!]!;
      ds.push(Math.min(...base.crops.map((c) => hammingDistance(c, objects[i]!.pdq))));
    });
    ds.sort((a, b) => a - b);
    const q = (p: number): number => ds[Math.min(ds.length - 1, Math.floor(p * ds.length))]!;
    parts.push(`${kind} p50 ${q(0.5)} p90 ${q(0.9)} p95 ${q(0.95)} max ${q(1)}`);
  }
  return `  closest default region of the base to the crop's hash: ${parts.join('; ')}`;
}

/**
 * QUALITY_GROUPS=n: only the first n bases of the corpus, with their variants, burst frames and
 * same-setting negatives (a shorter run on the same files, for a corpus too large to analyse in
 * the time at hand).
 */
function firstBases(files: QualityFile[], n: number): QualityFile[] {
  const scenes = new Set(
    files
      .filter((f) => f.kind === 'base')
      .slice(0, n)
      .map((f) => f.sceneSeed),
  );
  return files.filter((f) => scenes.has(f.sceneSeed.replace(/\/setting$/, '')));
}

/**
 * QUALITY_REUSE=1: the analyses of the last run on this corpus, from a file beside it (written by
 * every run), so that matching can be tried again without decoding. Kept only while the analyzer
 * is the same.
 */
async function cachedAnalyses(
  dir: string,
  files: QualityFile[],
): Promise<{ objects: HashedObject[]; regions: Regions[] }> {
  const path = join(dir, '..', `analyses-${ANALYZER.replace('/', '-')}-${files.length}.json`);
  if (process.env.QUALITY_REUSE === '1' && !OFFLINE && existsSync(path)) {
    const saved = JSON.parse(await readFile(path, 'utf8')) as (Omit<HashedObject, 'grey'> & {
      grey?: string;
    })[];
    const objects = saved.map(({ grey, ...o }) =>
      grey === undefined ? o : { ...o, grey: Uint8Array.from(Buffer.from(grey, 'base64')) },
    );
    return { objects, regions: [] };
  }
  const r = await analyseAll(files);
  await writeFile(
    path,
    JSON.stringify(
      r.objects.map(({ grey, ...o }) =>
        grey === undefined ? o : { ...o, grey: Buffer.from(grey).toString('base64') },
      ),
    ),
  );
  return r;
}

/** analyzeImage on every file (2 in flight), plus offline region hashes from one more decode. */
async function analyseAll(
  files: QualityFile[],
): Promise<{ objects: HashedObject[]; regions: Regions[] }> {
  const previews = await mkdtemp(join(tmpdir(), 'custody-quality-'));
  const deps = {
    readObject: (key: string) => readFile(files[Number(key)]!.path),
    previewPaths: (key: string, size: number) => ({
      plain: join(previews, `${key}.${size}.webp`),
      blurred: join(previews, `${key}.${size}.blurred.webp`),
    }),
  };
  const objects: HashedObject[] = new Array<HashedObject>(files.length);
  const regions: Regions[] = new Array<Regions>(files.length);
  let next = 0;
  try {
    await Promise.all(
      [0, 1].map(async () => {
        while (next < files.length) {
          const i = next++;
          const r = (await analyzeImage(deps, String(i), 'image/jpeg')) as unknown as AnalysisJson;
          if (r.pdq === null)
            throw new Error(`${files[i]!.path}: no PDQ (${r.warnings.join('; ')})`);
          objects[i] = {
            sha256: String(i),
            pdq: r.pdq.hash,
            dihedral: DIHEDRAL_VARIANTS.map((k) => r.pdq!.dihedral[k] ?? r.pdq!.hash),
            crops: r.crops.map((c) => c.hash),
            ...(r.align_grey === undefined
              ? {}
              : { grey: Uint8Array.from(Buffer.from(r.align_grey.data, 'base64')) }),
          };
          if (OFFLINE) regions[i] = await regionHashes(files[i]!.path);
        }
      }),
    );
  } finally {
    await rm(previews, { recursive: true, force: true });
    await closeC2paReader();
  }
  return { objects, regions };
}

interface AnalysisJson {
  pdq: { hash: string; dihedral: Record<string, string> } | null;
  crops: { hash: string }[];
  align_grey?: { size: number; data: string };
  warnings: string[];
}

function frac([hit, all]: [number, number]): string {
  return `${hit}/${all} = ${(hit / all).toFixed(3)}`.padStart(20);
}
