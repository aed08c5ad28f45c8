// Where linkage errs (issue 15): each report is compared with the person it was generated from
// (bench/identification-linkage-corpus.ts, unchanged: the perturbations are read back from the
// output, the generator's random stream is not touched), each true pair gets the kinds of
// perturbation it carries in the fields both reports give, and each kind its miss rate at the
// threshold; each false link gets what its two people really share.
//   npm run build && node dist/bench/identification-linkage-errors.js [people] [reports] [seed]
//     [threshold, or threshold:pairs|clusters,… e.g. 0.2:pairs,0.05:clusters]
//   … [people] [reports] [seed] blocking[:N]: blocking alone (seconds, no linkage): the true pairs
//     no rule proposes, by kind, and N of them in full (default 20).
import { pathToFileURL } from 'node:url';
import {
  BLOCKING_RULES,
  LINKAGE_DEFAULTS,
  candidatePairs,
  clusterPairs,
  scoreUnseenPairs,
  linkRecords,
  linkRecordsParallel,
  type LinkRecord,
  type LinkageResult,
  type LinkedPair,
  prepareRecordAs,
  type BlockingRule,
} from '../src/identification/linkage/index.js';
import { syntheticReports, truePairs, type Person } from './identification-linkage-corpus.js';

type Entry = readonly [string, readonly string[]];
type Form = 'ar' | 'ar-variant' | 'latin' | 'latin-variant' | 'typo';

const foldArabic = (s: string): string =>
  s
    .replace(/[\u064B-\u0652\u0640\s]/gu, '')
    .replace(/[أإآ]/gu, 'ا')
    .replace(/ة/gu, 'ه')
    .replace(/ى/gu, 'ي');

/** How a part was written: the Arabic as given, an Arabic spelling variant, a Latin form, a typo. */
export function formOf(value: string, e: Entry): Form {
  if (value === e[0]) return 'ar';
  if (foldArabic(value) === foldArabic(e[0])) return 'ar-variant';
  if (value === e[1][0]) return 'latin';
  if (e[1].includes(value)) return 'latin-variant';
  return 'typo';
}

const isArabic = (s: string): boolean => /[\u0600-\u06FF]/u.test(s);

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] ?? 0;
      row[j] = Math.min(
        (row[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] ?? 0;
}

/** The layout of the full name fields, read back by the closest rendering of each layout. */
function arabicLayout(v: string, p: Person): string {
  const f = (e: Entry): string => foldArabic(e[0]);
  const layouts: [string, string][] = [
    ['ar:given-only', f(p.given)],
    ['ar:4-parts', f(p.given) + f(p.father) + f(p.grandfather) + f(p.family)],
    ['ar:3-parts', f(p.given) + f(p.father) + f(p.family)],
  ];
  const x = foldArabic(v);
  return layouts.reduce((best, l) =>
    levenshtein(x, l[1]) < levenshtein(x, best[1]) ? l : best,
  )[0];
}

function latinLayout(v: string, p: Person): string {
  const lo = v.toLowerCase();
  let best: [string, number] = ['latin:given-only', Infinity];
  for (const g of p.given[1]) {
    for (const fam of [...p.family[1], '']) {
      const options: [string, string][] =
        fam === ''
          ? [['latin:given-only', g]]
          : [
              ['latin:given+family', `${g} ${fam}`],
              ['latin:family-first', `${fam} ${g}`],
            ];
      for (const [name, s] of options) {
        const d = levenshtein(lo, s.toLowerCase());
        if (d < best[1]) best = [name, d];
      }
    }
  }
  return best[0];
}

/** The fields a report gives, each with the form of its parts. */
interface Read {
  readonly layout: string[];
  readonly forms: Map<string, Form>;
  readonly tags: string[];
}

function dateTags(reported: string, a: Person['arrest']): string[] {
  const [y, m, d] = reported.split('-').map(Number);
  const out: string[] = [];
  if (m === undefined) out.push('date:year-only');
  else if (d === undefined) out.push('date:month-only');
  if (y !== a.y) out.push('date:year-off');
  if (m !== undefined && m !== a.m) out.push('date:month-off');
  if (d !== undefined && d !== a.d) out.push('date:day-off');
  return out;
}

export function readReport(r: LinkRecord, p: Person): Read {
  const forms = new Map<string, Form>();
  const tags: string[] = [];
  const layout: string[] = [];
  if (r.name_ar !== undefined) layout.push(arabicLayout(r.name_ar, p));
  if (r.name_latin !== undefined) layout.push(latinLayout(r.name_latin, p));
  const parts: [keyof LinkRecord, Entry][] = [
    ['father', p.father],
    ['grandfather', p.grandfather],
    ['family', p.family],
    ['mother', p.mother],
    ['origin', p.origin],
    ['arrest_place', p.arrestPlace],
  ];
  for (const [field, e] of parts) {
    const v = r[field];
    if (typeof v === 'string') forms.set(field, formOf(v, e));
  }
  if (r.name_latin !== undefined) {
    const given = r.name_latin.split(' ');
    if (!p.given[1].some((g) => r.name_latin?.includes(g))) forms.set('name_latin', 'typo');
    else if (given.length > 0) forms.set('name_latin', 'latin');
  }
  if (r.name_ar !== undefined) {
    const x = foldArabic(r.name_ar);
    const clean = [
      foldArabic(p.given[0]),
      foldArabic(p.given[0] + p.father[0] + p.grandfather[0] + p.family[0]),
      foldArabic(p.given[0] + p.father[0] + p.family[0]),
    ];
    forms.set('name_ar', clean.includes(x) ? 'ar' : 'typo');
  }
  if (r.sex !== undefined && r.sex !== p.sex) tags.push('sex:wrong');
  if (r.birth_year !== undefined && r.birth_year !== p.birthYear) {
    tags.push(Math.abs(r.birth_year - p.birthYear) === 1 ? 'birth_year:off-1' : 'birth_year:off-2');
  }
  if (r.arrest_date !== undefined) tags.push(...dateTags(r.arrest_date, p.arrest));
  if (r.unit !== undefined && r.unit !== p.unit) tags.push('unit:wrong');
  return { layout, forms, tags };
}

const FIELDS: (keyof LinkRecord)[] = [
  'name_ar',
  'name_latin',
  'father',
  'grandfather',
  'family',
  'mother',
  'sex',
  'birth_year',
  'origin',
  'arrest_date',
  'arrest_place',
  'unit',
];

/** The kinds a true pair carries: perturbations in the fields both reports give, and what is shared. */
export function pairKinds(a: LinkRecord, b: LinkRecord, ra: Read, rb: Read): string[] {
  const kinds = new Set<string>();
  const both = FIELDS.filter((f) => a[f] !== undefined && b[f] !== undefined);
  kinds.add(`shared fields: ${both.length}`);
  const hasFamily = (r: LinkRecord, read: Read): boolean =>
    r.family !== undefined || read.layout.some((l) => !l.endsWith('given-only'));
  const hasFather = (r: LinkRecord, read: Read): boolean =>
    r.father !== undefined || read.layout.some((l) => l.includes('parts'));
  if (!(hasFather(a, ra) && hasFather(b, rb))) kinds.add('no father in one');
  if (!(hasFamily(a, ra) && hasFamily(b, rb))) kinds.add('no family in one');
  for (const read of [ra, rb]) for (const l of read.layout) kinds.add(`layout ${l}`);
  const nameField = (r: LinkRecord): string[] =>
    [r.name_ar, r.name_latin].filter((x): x is string => x !== undefined);
  if (
    !nameField(a).some(isArabic) !== !nameField(b).some(isArabic) &&
    !(nameField(a).some((x) => !isArabic(x)) && nameField(b).some((x) => !isArabic(x)))
  ) {
    kinds.add('given name: Arabic against Latin only');
  }
  for (const f of both) {
    const fa = ra.forms.get(f);
    const fb = rb.forms.get(f);
    if (fa === 'typo' || fb === 'typo') kinds.add(`typo in shared ${f}`);
    const va = a[f];
    const vb = b[f];
    if (typeof va === 'string' && typeof vb === 'string' && fa !== undefined && fb !== undefined) {
      if (isArabic(va) !== isArabic(vb)) kinds.add(`cross-script ${f}`);
      if (fa === 'latin-variant' || fb === 'latin-variant')
        kinds.add(`transliteration variant ${f}`);
      if (fa === 'ar-variant' || fb === 'ar-variant') kinds.add(`Arabic spelling variant ${f}`);
    }
  }
  for (const t of new Set([...ra.tags, ...rb.tags])) {
    const field =
      t.split(':')[0] === 'date' ? 'arrest_date' : (t.split(':')[0] as keyof LinkRecord);
    if (both.includes(field)) kinds.add(`${t} (both give it)`);
  }
  if (a.org === b.org) kinds.add('same organisation');
  return [...kinds];
}

/** Every two reports of one cluster, with their pair where blocking proposed it. */
function clusterLinks(
  clusterOf: ReadonlyMap<string, number>,
  prob: ReadonlyMap<string, LinkedPair>,
): { a: string; b: string; agreements: LinkedPair['agreements'] }[] {
  const groups = new Map<number, string[]>();
  for (const [id, c] of clusterOf) groups.set(c, [...(groups.get(c) ?? []), id]);
  const out: { a: string; b: string; agreements: LinkedPair['agreements'] }[] = [];
  for (const ids of groups.values()) {
    const sorted = [...ids].sort();
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const [a = '', b = ''] = [sorted[i], sorted[j]];
        out.push({ a, b, agreements: prob.get(`${a}|${b}`)?.agreements ?? {} });
      }
    }
  }
  return out;
}

/** What the two people of a false link share in truth. */
function falseLinkKinds(
  pa: Person,
  pb: Person,
  pair: { agreements: LinkedPair['agreements'] },
): string[] {
  const share = (k: 'given' | 'father' | 'grandfather' | 'family' | 'mother'): boolean =>
    pa[k][0] === pb[k][0];
  const shared = (['given', 'father', 'grandfather', 'family', 'mother'] as const).filter(share);
  const out = [`people share: ${shared.join('+') || 'no name'}`];
  const agreed = Object.entries(pair.agreements)
    .filter(([, l]) => l !== 'missing' && l !== 'different' && l !== 'jw_mid')
    .map(([f]) => f);
  out.push(`agreeing fields: ${agreed.length}`);
  if (pa.birthYear === pb.birthYear) out.push('same birth year');
  if (pa.arrest.y === pb.arrest.y && pa.arrest.m === pb.arrest.m) out.push('same arrest month');
  return out;
}

function table(title: string, counts: Map<string, [number, number]>, total: number): string[] {
  const rows = [...counts].sort((x, y) => y[1][1] - x[1][1]);
  return [
    title,
    ...rows.map(
      ([k, [n, miss]]) =>
        `  ${k.padEnd(48)} pairs ${String(n).padStart(6)}  missed ${String(miss).padStart(5)} (${((100 * miss) / Math.max(n, 1)).toFixed(1).padStart(5)}% of them, ${((100 * miss) / Math.max(total, 1)).toFixed(1).padStart(5)}% of all misses)`,
    ),
  ];
}

/**
 * 'pairs': a true pair is found when its probability is at the threshold; 'clusters': when its two
 * reports are in one cluster (clusterPairs at the threshold, the defaults otherwise: what
 * linkRecords returns), and a false link is two people's reports in one cluster.
 */
/** The corpus's reports and people by id, and how each report reads its person (readReport). */
function corpusIndex(corpus: ReturnType<typeof syntheticReports>): {
  byId: Map<string, LinkRecord>;
  personOf: Map<string, Person>;
  reads: Map<string, Read>;
} {
  const byId = new Map(corpus.records.map((r) => [r.id, r]));
  const personOf = new Map(corpus.people.map((p) => [p.id, p]));
  const reads = new Map(
    corpus.records.map((r) => [
      r.id,
      readReport(r, personOf.get(corpus.truth.get(r.id) ?? '') as Person),
    ]),
  );
  return { byId, personOf, reads };
}

export type ErrorsBy = 'pairs' | 'clusters';

export function linkageErrors(
  people: number,
  reports: number,
  seed: string,
  threshold: number,
  result?: LinkageResult,
  by: ErrorsBy = 'pairs',
): string[] {
  const corpus = syntheticReports(people, reports, seed);
  const truth = truePairs(corpus.truth);
  const res = result ?? linkRecords(corpus.records, { minPairProbability: 0.001 });
  const orgOf = new Map(corpus.records.map((r) => [r.id, r.org]));
  const clusterOf = new Map<string, number>();
  if (by === 'clusters') {
    clusterPairs(
      res.pairs,
      (id) => orgOf.get(id) ?? '',
      { ...LINKAGE_DEFAULTS, threshold },
      scoreUnseenPairs(corpus.records, res.model),
    ).forEach((c, i) => {
      for (const id of c) clusterOf.set(id, i);
    });
  }
  const found = (a: string, b: string, p: LinkedPair | undefined): boolean =>
    by === 'clusters'
      ? clusterOf.has(a) && clusterOf.get(a) === clusterOf.get(b)
      : p !== undefined && p.probability >= threshold;
  const { byId, personOf, reads } = corpusIndex(corpus);
  const prob = new Map(res.pairs.map((p) => [`${p.a}|${p.b}`, p]));
  const kinds = new Map<string, [number, number]>();
  const patterns = new Map<string, [number, number]>();
  let misses = 0;
  let notCandidate = 0;
  for (const t of truth) {
    const [a = '', b = ''] = t.split('|');
    const ra = byId.get(a) as LinkRecord;
    const rb = byId.get(b) as LinkRecord;
    const p = prob.get(t);
    const missed = !found(a, b, p);
    if (missed) misses++;
    if (missed && p === undefined) notCandidate++;
    for (const k of pairKinds(ra, rb, reads.get(a) as Read, reads.get(b) as Read)) {
      const c = kinds.get(k) ?? [0, 0];
      kinds.set(k, [c[0] + 1, c[1] + (missed ? 1 : 0)]);
    }
    if (p !== undefined) {
      const pattern = Object.entries(p.agreements)
        .filter(([, l]) => l !== 'missing')
        .map(([f, l]) => `${f}=${l}`)
        .join(' ');
      const c = patterns.get(pattern) ?? [0, 0];
      patterns.set(pattern, [c[0] + 1, c[1] + (missed ? 1 : 0)]);
    }
  }
  const falseKinds = new Map<string, [number, number]>();
  let falseLinks = 0;
  const linked =
    by === 'pairs'
      ? res.pairs.filter((p) => p.probability >= threshold)
      : clusterLinks(clusterOf, prob);
  for (const p of linked) {
    if (truth.has(`${p.a}|${p.b}`)) continue;
    falseLinks++;
    const pa = personOf.get(corpus.truth.get(p.a) ?? '') as Person;
    const pb = personOf.get(corpus.truth.get(p.b) ?? '') as Person;
    for (const k of falseLinkKinds(pa, pb, p)) {
      const c = falseKinds.get(k) ?? [0, 0];
      falseKinds.set(k, [c[0] + 1, c[1] + 1]);
    }
  }
  const f1 = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((t) => {
    const predicted = res.pairs.filter((p) => p.probability >= t);
    const tp = predicted.filter((p) => truth.has(`${p.a}|${p.b}`)).length;
    const [pr, rc] = [tp / Math.max(predicted.length, 1), tp / Math.max(truth.size, 1)];
    return `${t}: P ${pr.toFixed(4)} R ${rc.toFixed(4)} F1 ${((2 * pr * rc) / Math.max(pr + rc, 1e-9)).toFixed(4)}`;
  });
  return [
    `pairs by threshold: ${f1.join('; ')}`,
    `linkage errors by ${by}: ${reports} reports of ${people} people (seed ${seed}), threshold ${threshold}: ${truth.size} true pairs, ${misses} missed (${notCandidate} never candidates), ${falseLinks} false links`,
    ...table('true pairs by kind (a pair counts under every kind it carries):', kinds, misses),
    ...table(
      'missed true pairs by agreement pattern (top 15):',
      new Map([...patterns].sort((x, y) => y[1][1] - x[1][1]).slice(0, 15)),
      misses,
    ),
    ...table('false links by what the two people share:', falseKinds, falseLinks),
  ];
}

/**
 * The true pairs blocking never proposes, without the linkage (blocking only: seconds): how many
 * pairs each rule proposes, the kinds of the missed true pairs, and `show` of them in full.
 */
export function blockingMisses(
  people: number,
  reports: number,
  seed: string,
  show = 20,
  rules: readonly BlockingRule[] = BLOCKING_RULES,
): string[] {
  const corpus = syntheticReports(people, reports, seed);
  const truth = truePairs(corpus.truth);
  const records = corpus.records
    .map((r) => ({ r, p: prepareRecordAs(r, LINKAGE_DEFAULTS.names) }))
    .sort((a, b) => (a.p.id < b.p.id ? -1 : a.p.id > b.p.id ? 1 : 0));
  const n = records.length;
  const cands = candidatePairs(
    records.map((x) => x.p),
    rules,
    { crossOrgOnly: LINKAGE_DEFAULTS.crossOrgOnly, maxBlockSize: LINKAGE_DEFAULTS.maxBlockSize },
  );
  const proposed = new Set(
    cands.pairs.map((code) => {
      const i = Math.floor(code / n);
      return `${records[i]?.p.id ?? ''}|${records[code - i * n]?.p.id ?? ''}`;
    }),
  );
  const { byId, reads } = corpusIndex(corpus);
  const kinds = new Map<string, [number, number]>();
  const missed: string[] = [];
  for (const t of truth) {
    const [a = '', b = ''] = t.split('|');
    const miss = !proposed.has(t);
    if (miss) missed.push(t);
    const ks = pairKinds(
      byId.get(a) as LinkRecord,
      byId.get(b) as LinkRecord,
      reads.get(a) as Read,
      reads.get(b) as Read,
    );
    for (const k of ks) {
      const c = kinds.get(k) ?? [0, 0];
      kinds.set(k, [c[0] + 1, c[1] + (miss ? 1 : 0)]);
    }
  }
  const shown = (id: string): string =>
    JSON.stringify(byId.get(id), (k, v: unknown) => (k === 'id' || k === 'org' ? undefined : v));
  return [
    `blocking: ${reports} reports of ${people} people (seed ${seed}): ${cands.pairs.length} candidate pairs, ${truth.size} true pairs, ${missed.length} never proposed (recall ${(1 - missed.length / truth.size).toFixed(4)})`,
    `  per rule: ${Object.entries(cands.perRule)
      .map(([r, c]) => `${r} ${c}`)
      .join(', ')}`,
    `  oversized blocks: ${cands.oversized.map((o) => `${o.rule} ${o.key} (${o.size})`).join(', ') || 'none'}`,
    ...table(
      'true pairs blocking misses, by kind:',
      new Map([...kinds].filter(([, c]) => c[1] > 0)),
      missed.length,
    ),
    ...missed.slice(0, show).flatMap((t) => {
      const [a = '', b = ''] = t.split('|');
      return [`  ${a}: ${shown(a)}`, `  ${b}: ${shown(b)}`, ''];
    }),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // The fourth argument: a threshold (pairs), or a list such as 0.2:pairs,0.05:clusters; one
  // linkage (on two threads) serves them all.
  const [people = '12000', reports = '20000', seed = 'identification-linkage-tune-v1', t = '0.9'] =
    process.argv.slice(2);
  if (t.startsWith('blocking')) {
    // blocking[:shown]: the true pairs blocking never proposes, without the linkage.
    for (const line of blockingMisses(
      Number(people),
      Number(reports),
      seed,
      Number(t.split(':')[1] ?? 20),
    ))
      console.log(line);
    process.exit(0);
  }
  const corpus = syntheticReports(Number(people), Number(reports), seed);
  const result = await linkRecordsParallel(
    corpus.records,
    { minPairProbability: 0.001 },
    { threads: 2 },
  );
  for (const spec of t.split(',')) {
    const [threshold = '0.9', by = 'pairs'] = spec.split(':');
    for (const line of linkageErrors(
      Number(people),
      Number(reports),
      seed,
      Number(threshold),
      result,
      by as ErrorsBy,
    ))
      console.log(line);
  }
}
