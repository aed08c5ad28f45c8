// A small catalogue for the linking and catalogue-page tests, made through the CLI in-process:
// generated photographs (one per subject, near-duplicate copies of three of them left unlinked so
// that the suggestions have something to suggest, two loose photographs), a unit tree with Arabic
// and English names, subjects with catalogue numbers, and optionally a stratified plan examined
// by two examiners and adjudicated (as scripts/demo-examination.ts does), for the statistics.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  decideFromTruth,
  examinerForm,
  SCHEME,
  UNITS,
  worldSubjects,
  type WorldSubject,
} from '../../src/demo/examination-world.js';
import { custodyInExpect, type TestArchive } from './archive-fixtures.js';
import { makeTempDir } from './tmp.js';

/** The parent of the four branches of examination-world's UNITS: the unit tree has two levels. */
export const PARENT_UNIT = {
  code: 200,
  name_en: 'Military Intelligence Directorate',
  name_ar: 'شعبة المخابرات العسكرية',
};
export const PLAN = 'prevalence';
/** Subjects whose photograph has an unlinked near-duplicate copy. */
export const COPIED = [0, 1, 2];

/** A photograph of seeded coloured blocks: distinct seeds are far apart for PDQ, a copy is near. */
function blocks(seed: number): { raw: Buffer; w: number; h: number } {
  const w = 160;
  const h = 120;
  const raw = Buffer.alloc(w * h * 3);
  let x = (seed + 1) * 2654435761;
  const next = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 24;
  };
  const cells = Array.from({ length: 8 * 6 }, () => [next(), next(), next()] as const);
  for (let y = 0; y < h; y++)
    for (let c = 0; c < w; c++) {
      const cell = cells[Math.floor(y / 20) * 8 + Math.floor(c / 20)] ?? [0, 0, 0];
      const i = (y * w + c) * 3;
      raw[i] = cell[0];
      raw[i + 1] = cell[1];
      raw[i + 2] = cell[2];
    }
  return { raw, w, h };
}

async function photo(seed: number, copy = false): Promise<Buffer> {
  const { raw, w, h } = blocks(seed);
  const img = sharp(raw, { raw: { width: w, height: h, channels: 3 } });
  return copy
    ? img.resize(144, 108).jpeg({ quality: 55 }).toBuffer()
    : img.jpeg({ quality: 88 }).toBuffer();
}

export interface Catalogue {
  subjects: WorldSubject[];
  /** Subject ids, in the order of `subjects`. */
  subjectIds: string[];
  /** Item id by file name (subject-NN.jpg, copies/copy-NN.jpg, loose-a.jpg, loose-b.jpg). */
  items: Map<string, string>;
}

/**
 * Builds the catalogue in `a` (already initialised, no accounts yet when `examine` is set: the
 * examiners are then free-text names, as in the demo).
 */
export async function buildCatalogue(
  a: TestArchive,
  opts: { subjects?: number; examine?: boolean } = {},
): Promise<Catalogue> {
  const run = (args: string[], actor = 'registrar') =>
    custodyInExpect(0, [...args, '--archive', a.dir, '--actor', actor], a.env);
  const json = async <T>(args: string[], actor = 'registrar'): Promise<T> =>
    JSON.parse((await run([...args, '--json'], actor)).stdout) as T;
  const work = await makeTempDir('catalogue-fixture');
  const src = join(work, 'delivery');
  await mkdir(join(src, 'copies'), { recursive: true });
  const subjects = worldSubjects(opts.subjects ?? 8);
  for (const s of subjects)
    await writeFile(join(src, `subject-${String(s.index).padStart(2, '0')}.jpg`), await photo(s.index));
  for (const i of COPIED)
    await writeFile(join(src, 'copies', `copy-${String(i).padStart(2, '0')}.jpg`), await photo(i, true));
  await writeFile(join(src, 'loose-a.jpg'), await photo(900));
  await writeFile(join(src, 'loose-b.jpg'), await photo(901));
  await run(['ingest', src, '--source', 'SRC-CAT', '--new-source']);
  await run(['analyze']);
  const items = new Map(
    (await json<{ id: string; name: string; path: string }[]>(['items'])).map((i) => [
      i.path.includes('copies/') ? `copies/${i.name}` : i.name,
      i.id,
    ]),
  );
  await writeFile(
    join(work, 'units.csv'),
    `code,name_en,name_ar,parent_code\n${PARENT_UNIT.code},${PARENT_UNIT.name_en},${PARENT_UNIT.name_ar},\n` +
      UNITS.map((u) => `${u.code},${u.name_en},${u.name_ar},${PARENT_UNIT.code}`).join('\n') +
      '\n',
  );
  await run(['unit', 'import', join(work, 'units.csv')]);
  await writeFile(join(work, 'scheme.json'), JSON.stringify(SCHEME));
  await run(['scheme', 'add', join(work, 'scheme.json')]);
  const rows = subjects.map(
    (s) =>
      `${s.number},${s.sex},${s.ageBand},${s.dateOfDeath},${items.get(`subject-${String(s.index).padStart(2, '0')}.jpg`) ?? ''}`,
  );
  await writeFile(join(work, 'subjects.csv'), `number,sex,age_band,date_of_death,items\n${rows.join('\n')}\n`);
  const imported = await json<{ ids: string[] }>([
    'subject',
    'import',
    join(work, 'subjects.csv'),
    '--reason',
    'catalogue cards transcribed (synthetic)',
  ]);
  const out: Catalogue = { subjects, subjectIds: imported.ids, items };
  if (opts.examine === true) await examine(out, work, run, json);
  return out;
}

async function examine(
  cat: Catalogue,
  work: string,
  run: (args: string[], actor?: string) => Promise<unknown>,
  json: <T>(args: string[], actor?: string) => Promise<T>,
): Promise<void> {
  const world = new Map(cat.subjectIds.map((id, i) => [id, cat.subjects[i]!]));
  const size = Math.min(16, cat.subjects.length);
  await run(['sample', 'draw', '--name', PLAN, '--over', 'subjects', '--method', 'stratified', '--by', 'unit', '--size', String(size)], 'statistician');
  await run(['examine', 'assign', PLAN, '--examiners', 'examiner-a,examiner-b'], 'coordinator');
  const plan = await json<{ cases: { case: string }[] }>(['sample', 'show', PLAN], 'reader');
  for (const [examiner, key, rate] of [
    ['examiner-a', 'A', 0.08],
    ['examiner-b', 'B', 0.12],
  ] as const) {
    const lines = plan.cases.map((c) =>
      JSON.stringify({ case: c.case, form: examinerForm(world.get(c.case)!, key, rate) }),
    );
    await writeFile(join(work, `${examiner}.jsonl`), `${lines.join('\n')}\n`);
    await run(['examine', 'submit', PLAN, '--forms', join(work, `${examiner}.jsonl`)], examiner);
  }
  const pending = await json<{
    cases: { case: string; disagreements: { field: string; values: { value: string }[] }[] }[];
  }>(['adjudicate', PLAN, '--list'], 'adjudicator-c');
  if (pending.cases.length === 0) return;
  const batch = pending.cases.map((c) => ({
    case: c.case,
    decisions: decideFromTruth(world.get(c.case)!, c.disagreements, 'reviewed at full resolution (synthetic)'),
  }));
  await writeFile(join(work, 'adjudication.json'), JSON.stringify(batch));
  await run(['adjudicate', PLAN, '--batch', join(work, 'adjudication.json')], 'adjudicator-c');
}
