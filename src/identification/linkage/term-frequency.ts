// Term-frequency adjustment (Splink's "term frequency adjustments"; W. E. Winkler, "Frequency-
// based matching in Fellegi–Sunter model of record linkage", 1989/2000): agreeing on محمد, the
// name of one man in ten, is weaker evidence than agreeing on a rare name, though EM fits one u
// per level. For a pair that agrees (exact or normalised) on a name with key value v, the level's
// u is replaced by tf(v), the share of reports with that value: the weight log2(m/u) becomes
// log2(m/tf(v)), i.e. log2(u/tf(v)) is added. Applied after EM, as Splink does.
import type { NamePart, PreparedName } from '../names/index.js';
import type { PreparedRecord } from './fields.js';

/** The name fields adjusted, with how to read their values from a report. */
export const TF_FIELDS: readonly {
  field: string;
  values: (r: PreparedRecord) => readonly string[];
}[] = [
  ...(['given', 'father', 'grandfather', 'family'] as const).map((part: NamePart) => ({
    field: part,
    values: (r: PreparedRecord) => bagsOf(r.parts.map((p) => p[part])),
  })),
  { field: 'mother', values: (r: PreparedRecord) => bagsOf([r.mother]) },
  { field: 'origin', values: (r: PreparedRecord) => bagsOf([r.origin]) },
  // Places and units are as unevenly common as names: one branch holds most of the detainees.
  { field: 'arrest_place', values: (r: PreparedRecord) => bagsOf([r.arrestPlace]) },
  { field: 'unit', values: (r: PreparedRecord) => (r.unit === undefined ? [] : [r.unit]) },
];

function bagsOf(names: readonly (PreparedName | undefined)[]): string[] {
  return [
    ...new Set(names.flatMap((n) => (n === undefined || n.keys.length === 0 ? [] : [n.bag]))),
  ];
}

export type TermFrequencies = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** tf(v) per field: the share of the reports giving the field that give value v. */
export function termFrequencies(records: readonly PreparedRecord[]): TermFrequencies {
  const out = new Map<string, Map<string, number>>();
  for (const { field, values } of TF_FIELDS) {
    const counts = new Map<string, number>();
    let total = 0;
    for (const r of records) {
      const vs = values(r);
      if (vs.length > 0) total++;
      for (const v of vs) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    out.set(field, new Map([...counts].map(([v, c]) => [v, c / Math.max(total, 1)])));
  }
  return out;
}

/**
 * The adjustment, in bits, for one field of a pair that agrees on it with base u: log2(u/tf(v))
 * for the rarest value both reports give (0 when they share none, e.g. agreeing across a typo).
 */
export function tfAdjustment(
  tf: TermFrequencies,
  field: string,
  a: PreparedRecord,
  b: PreparedRecord,
  u: number,
): number {
  const index = FIELD_INDEX.get(field);
  const freq = tf.get(field);
  if (index === undefined || freq === undefined || u <= 0) return 0;
  // A report gives one to four values: a scan of the other's beats building a set for each pair.
  const theirs = valuesOf(b, index);
  let rarest = Infinity;
  for (const v of valuesOf(a, index))
    if (theirs.includes(v)) rarest = Math.min(rarest, freq.get(v) ?? Infinity);
  return Number.isFinite(rarest) && rarest > 0 ? Math.log2(u / rarest) : 0;
}

const FIELD_INDEX = new Map(TF_FIELDS.map((f, i) => [f.field, i]));

/**
 * A report's values of TF_FIELDS[index], read once per report rather than once per pair (a
 * report is in thousands of candidate pairs; prepared records are never changed).
 */
const VALUES = new WeakMap<PreparedRecord, (readonly string[] | undefined)[]>();
function valuesOf(r: PreparedRecord, index: number): readonly string[] {
  let row = VALUES.get(r);
  if (row === undefined) VALUES.set(r, (row = []));
  return (row[index] ??= TF_FIELDS[index]?.values(r) ?? []);
}
