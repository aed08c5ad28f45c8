// Scoring for the near-duplicate quality bench: pair precision and recall against known groups,
// per variant kind, and over the connected components a person sees as clusters.
import { VARIANT_KINDS, type QualityFile } from './variants.js';

export interface Pair {
  a: number;
  b: number;
  distance?: number;
}

export interface Score {
  tp: number;
  fp: number;
  burst: number;
  strict: number;
  truth: number;
  precision: number;
  recall: number;
  baseRecall: number;
  clusterPrecision: number;
  clusterRecall: number;
  fpSameDay: number;
  /** False pairs with a same-setting/different-subject hard negative (counted in fp). */
  fpSetting: number;
  perKind: Map<string, { base: [number, number]; other: [number, number] }>;
  kindPairs: Map<string, [number, number]>;
}

/** Pair precision and recall against the groups, per kind, and over connected components. */
export function score(files: QualityFile[], pairs: Pair[]): Score {
  const found = new Set(pairs.map((p) => key(p.a, p.b)));
  let tp = 0;
  let burst = 0;
  let fpSameDay = 0;
  let fpSetting = 0;
  for (const p of pairs) {
    const a = files[p.a]!;
    const b = files[p.b]!;
    if (a.group === b.group) tp++;
    else if (a.sceneSeed === b.sceneSeed) burst++;
    else if (a.kind === 'setting' || b.kind === 'setting') fpSetting++;
    else if (a.camera === b.camera && a.day === b.day) fpSameDay++;
  }
  const byGroup = new Map<number, number[]>();
  files.forEach((f, i) => byGroup.set(f.group, [...(byGroup.get(f.group) ?? []), i]));
  const perKind = new Map(
    ['base', ...VARIANT_KINDS].map((k) => [
      k,
      { base: [0, 0] as [number, number], other: [0, 0] as [number, number] },
    ]),
  );
  const kindPairs = new Map<string, [number, number]>();
  let truth = 0;
  const base: [number, number] = [0, 0];
  for (const members of byGroup.values()) {
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        const [i, j] = [members[x]!, members[y]!];
        const hit = found.has(key(i, j)) ? 1 : 0;
        truth++;
        const [ka, kb] = [files[i]!.kind, files[j]!.kind].sort();
        const withBase = ka === 'base' || kb === 'base';
        if (withBase) {
          base[0] += hit;
          base[1]++;
        }
        for (const k of ka === kb ? [ka!] : [ka!, kb!]) {
          const slot = perKind.get(k)![withBase ? 'base' : 'other'];
          slot[0] += hit;
          slot[1]++;
        }
        const kp = `${ka}×${kb}`;
        const v = kindPairs.get(kp) ?? [0, 0];
        kindPairs.set(kp, [v[0] + hit, v[1] + 1]);
      }
    }
  }
  perKind.delete('base');
  const fp = pairs.length - tp - burst;
  const c = clusterScore(files, pairs);
  return {
    tp,
    fp,
    burst,
    strict: pairs.length === 0 ? 1 : tp / pairs.length,
    truth,
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp / truth,
    baseRecall: base[0] / base[1],
    clusterPrecision: c.predicted === 0 ? 1 : c.tp / c.predicted,
    clusterRecall: c.tp / truth,
    fpSameDay,
    fpSetting,
    perKind,
    kindPairs,
  };
}

/**
 * Pairs implied by the connected components (what a person sees as clusters). Pairs of a burst
 * frame with its own scene's group are left out of `predicted`, as in the pair precision.
 */
function clusterScore(files: QualityFile[], pairs: Pair[]): { tp: number; predicted: number } {
  const parent = files.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const p of pairs) parent[find(p.a)] = find(p.b);
  const comps = new Map<number, { groups: Map<number, number>; scenes: Map<string, number> }>();
  files.forEach((f, i) => {
    const c = comps.get(find(i)) ?? {
      groups: new Map<number, number>(),
      scenes: new Map<string, number>(),
    };
    c.groups.set(f.group, (c.groups.get(f.group) ?? 0) + 1);
    c.scenes.set(f.sceneSeed, (c.scenes.get(f.sceneSeed) ?? 0) + 1);
    comps.set(find(i), c);
  });
  const pairsOf = (counts: Map<unknown, number>): number =>
    [...counts.values()].reduce((s, k) => s + (k * (k - 1)) / 2, 0);
  let tp = 0;
  let predicted = 0;
  for (const c of comps.values()) {
    const n = [...c.groups.values()].reduce((s, k) => s + k, 0);
    tp += pairsOf(c.groups);
    predicted += (n * (n - 1)) / 2 - (pairsOf(c.scenes) - pairsOf(c.groups));
  }
  return { tp, predicted };
}

function key(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
