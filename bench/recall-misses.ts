// Tuning aid for near-duplicate recall (not part of `npm run bench`): on the analyses a quality
// bench run saved (QUALITY_REUSE), runs findSimilarPairs and says, for every missed true pair,
// which stage lost it: a variant never linked with its base (not a prefilter candidate, a hash
// match the alignment vetoed, a candidate that failed verification), or two variants both linked
// with their base whose overlap (composed through the base) did not verify, or a pair whose
// objects are not even in one cluster. node dist/bench/recall-misses.js <corpus dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  alignPair,
  cropCandidates,
  verifiesCrop,
  verifiesOverlap,
  type VerifiedCrop,
} from '../src/analysis/similarity/crop-match.js';
import {
  alignOverlap,
  compose,
  cropToOriginal,
  invert,
  type FrameMap,
} from '../src/analysis/similarity/crop-overlap.js';
import {
  findSimilarPairs,
  type HashedObject,
} from '../src/analysis/similarity/similarity.service.js';
import { score } from './pair-score.js';
import type { QualityFile } from './variants.js';

const root = process.argv[2] ?? 'bench/.corpus/near-duplicate-quality-v3-tune-40';
// MISSES_GROUPS=n: the first n bases only, as the quality bench's QUALITY_GROUPS (see firstBases there).
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as QualityFile[];
const groups = Number(process.env.MISSES_GROUPS ?? Infinity);
const scenes = new Set(manifest.filter((f) => f.kind === 'base').slice(0, groups).map((f) => f.sceneSeed));
const files = manifest.filter((f) => scenes.has(f.sceneSeed.replace(/\/setting$/, '')));
const name = readdirSync(root).find((f) => f.startsWith('analyses-') && f.endsWith(`-${files.length}.json`));
if (name === undefined) throw new Error(`no saved analyses of ${files.length} files in ${root}`);
const saved = JSON.parse(readFileSync(join(root, name), 'utf8')) as (Omit<HashedObject, 'grey'> & {
  grey: string;
})[];
const objects: HashedObject[] = saved.map(({ grey, ...o }) => ({
  ...o,
  grey: Uint8Array.from(Buffer.from(grey, 'base64')),
}));
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const k = (a: number, b: number): string => (a < b ? `${a}:${b}` : `${b}:${a}`);
const index = (p: { a: string; b: string }): [number, number] => [Number(p.a), Number(p.b)];

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const found = new Set(findSimilarPairs(objects).map((p) => k(...index(p))));
const cpu = process.cpuUsage(cpu0);
console.log(
  `findSimilarPairs: ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, ${found.size} pairs`,
);
{
  const m = score(files, [...found].map((key) => {
    const [a, b] = key.split(':').map(Number) as [number, number];
    return { a, b };
  }));
  console.log(
    `P ${m.precision.toFixed(4)} (${m.fp} false, ${m.fpSetting} same-setting), R ${m.recall.toFixed(4)} (${m.tp}/${m.truth}), vs base ${m.baseRecall.toFixed(4)}, burst ${m.burst}`,
  );
  for (const [kind, r] of m.perKind)
    console.log(`  ${kind.padEnd(16)} base ${(r.base[0] / r.base[1]).toFixed(3)} other ${(r.other[0] / r.other[1]).toFixed(3)}`);
}
const hashOnly = new Set(findSimilarPairs(objects, { align: false }).map((p) => k(...index(p))));
const candidates = cropCandidates(
  objects.map((o) => ({ pdq: hex(o.pdq), dihedral: o.dihedral.map(hex), crops: o.crops.map(hex) })),
);

const baseOf = new Map<number, number>();
files.forEach((f, i) => f.kind === 'base' && baseOf.set(f.group, i));
const members = new Map<number, number[]>();
files.forEach((f, i) => members.set(f.group, [...(members.get(f.group) ?? []), i]));

// Connected components of the found pairs.
const parent = files.map((_, i) => i);
const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
for (const key of found) {
  const [a, b] = key.split(':').map(Number) as [number, number];
  parent[find(a)] = find(b);
}

const count = (m: Map<string, number>, key: string): void => void m.set(key, (m.get(key) ?? 0) + 1);
const baseStage = new Map<string, number>();
const perKind = new Map<string, Map<string, number>>();
const failed: { kind: string; stage: string; v: VerifiedCrop | null }[] = [];
const relation = new Map<number, FrameMap>(); // variant → map from its frame to its base's
for (const [group, base] of baseOf) {
  for (const i of members.get(group) ?? []) {
    if (i === base) continue;
    const kind = files[i]!.kind;
    const v = alignPair(base, i, objects[base]!.grey!, objects[i]!.grey!, 32);
    if (v !== null && verifiesCrop(v) && v.original === base)
      relation.set(i, cropToOriginal(v.box, v.transform));
    let stage: string;
    if (found.has(k(base, i))) stage = 'linked';
    else if (hashOnly.has(k(base, i))) stage = 'hash match vetoed';
    else if (candidates.has(k(base, i))) stage = 'candidate not verified';
    else stage = 'not a candidate';
    count(baseStage, stage);
    const m = perKind.get(kind) ?? new Map<string, number>();
    count(m, stage);
    perKind.set(kind, m);
    if (stage !== 'linked') failed.push({ kind, stage, v });
  }
}
console.log(`\nvariant ↔ its base: ${[...baseStage].map(([s, n]) => `${s} ${n}`).join(', ')}`);
for (const [kind, m] of perKind) {
  const missed = [...m].filter(([s]) => s !== 'linked');
  if (missed.length > 0) console.log(`  ${kind.padEnd(16)} ${missed.map(([s, n]) => `${s} ${n}`).join(', ')}`);
}
const f3 = (x: number): string => x.toFixed(3);
console.log('\nvariant ↔ base not linked: native detail / residual, original index is base?');
for (const x of failed)
  console.log(
    `  ${x.kind.padEnd(16)} ${x.stage.padEnd(24)} ${x.v === null ? '-' : `d ${f3(x.v.native.detail)} r ${f3(x.v.native.residual)} (stretched d ${f3(x.v.detail)} r ${f3(x.v.residual)}) orig=${x.v.original === baseOf.get(files[x.v.cropped]!.group) ? 'base' : 'variant'}`}`,
  );

// Missed pairs between two variants.
const pairStage = new Map<string, number>();
const kindPairStage = new Map<string, number>();
const overlapScores: string[] = [];
for (const [group, base] of baseOf) {
  const ms = (members.get(group) ?? []).filter((i) => i !== base);
  for (let x = 0; x < ms.length; x++) {
    for (let y = x + 1; y < ms.length; y++) {
      const [a, b] = [ms[x]!, ms[y]!];
      if (found.has(k(a, b))) {
        count(pairStage, 'found');
        continue;
      }
      const linkedA = found.has(k(base, a));
      const linkedB = found.has(k(base, b));
      let stage: string;
      if (find(a) !== find(b)) stage = 'not one cluster';
      else if (linkedA && linkedB) {
        const ra = relation.get(a);
        const rb = relation.get(b);
        if (ra === undefined || rb === undefined) stage = 'both linked to base, no base relation';
        else {
          const o = alignOverlap(objects[a]!.grey!, objects[b]!.grey!, 32, compose(invert(ra), rb));
          stage =
            o === null
              ? 'both linked, overlap null'
              : verifiesOverlap(o)
                ? 'both linked, overlap verifies via base (not tried?)'
                : 'both linked, overlap fails';
          if (o !== null && !verifiesOverlap(o) && overlapScores.length < 4000)
            overlapScores.push(
              `${files[a]!.kind}×${files[b]!.kind} share ${f3(Math.min(o.shareFirst, o.shareOther))} d ${f3(o.native.detail)} r ${f3(o.native.residual)}`,
            );
        }
      } else stage = `one cluster, ${Number(linkedA) + Number(linkedB)} linked to base`;
      count(pairStage, stage);
      if (stage !== 'found') {
        const [ka, kb] = [files[a]!.kind, files[b]!.kind].sort();
        count(kindPairStage, `${stage} | ${ka}×${kb}`);
      }
    }
  }
}
console.log(`\nvariant ↔ variant: ${[...pairStage].map(([s, n]) => `${s} ${n}`).join(', ')}`);
console.log('most frequent missed (stage | kinds):');
for (const [s, n] of [...kindPairStage].sort((x, y) => y[1] - x[1]).slice(0, 40)) console.log(`  ${n} ${s}`);
if (process.env.MISSES_OVERLAPS === '1') for (const s of overlapScores) console.log(`  overlap ${s}`);
