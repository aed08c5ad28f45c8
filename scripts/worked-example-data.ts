// The inputs of the README's worked example ("A whole case from the CLI"), all synthetic and
// deterministic: abstract photographs (never people), a unit registry with one unit known only by
// a text code (AFI), a numbering scheme, 150 subjects whose card numbers use all three digit
// systems and whose photographs are named by file name; then, during the run, the two examiners'
// answer sheets and the adjudicator's batch, each written twice: once with one bad line, once
// corrected.
//
//   node dist/scripts/worked-example-data.js inputs DIR
//   node dist/scripts/worked-example-data.js answer --examiner NAME --sheet BLANK.csv --format csv|jsonl --bad OUT --out OUT
//   node dist/scripts/worked-example-data.js decide --list LIST.json --bad OUT --out OUT
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { formatCsv, parseCsv } from '../src/core/csv.js';
import { DEFAULT_CODEBOOK } from '../src/examination/codebook/index.js';

export const SUBJECTS = 150;
const SEED = 'custody worked example v1';

/** Deterministic uniform [0, 1) from a label. */
function u(label: string): number {
  return createHash('sha256').update(`${SEED} ${label}`).digest().readUInt32BE(0) / 2 ** 32;
}

const DIGITS = { western: '0123456789', arabic: '٠١٢٣٤٥٦٧٨٩', persian: '۰۱۲۳۴۵۶۷۸۹' } as const;
type DigitSystem = keyof typeof DIGITS;
const inDigits = (s: string, system: DigitSystem): string =>
  s.replace(/[0-9]/g, (d) => DIGITS[system][Number(d)] ?? d);

export const UNITS = [
  { code: '215', name_en: 'Branch 215 (Raids)', name_ar: 'فرع المداهمة ٢١٥', aliases: '' },
  { code: '227', name_en: 'Branch 227 (Damascus Region)', name_ar: 'فرع المنطقة ٢٢٧', aliases: '' },
  { code: '235', name_en: 'Branch 235 (Palestine)', name_ar: 'فرع فلسطين ٢٣٥', aliases: '' },
  { code: 'AFI', name_en: 'Air Force Intelligence', name_ar: 'المخابرات الجوية', aliases: 'جوية' },
];

export const SCHEME = {
  id: 'card',
  pattern: '{detainee}/{branch}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'text', regex: '[\\p{L}\\p{N}]{1,20}', registry: 'units' },
  },
};

export interface ExampleSubject {
  readonly number: string;
  readonly unit: string;
  readonly photo: string;
}

/** Subject i: every fifth card from AFI (written "AFI" or "جوية"), digits cycling through the three systems. */
export function exampleSubjects(): ExampleSubject[] {
  return Array.from({ length: SUBJECTS }, (_, i) => {
    const system = (['western', 'arabic', 'persian'] as const)[i % 3] ?? 'western';
    const unit = i % 5 === 0 ? 'AFI' : (UNITS[Math.floor(u(`unit ${i}`) * 3)]?.code ?? '215');
    const branch = unit === 'AFI' ? (i % 10 === 0 ? 'AFI' : 'جوية') : inDigits(unit, system);
    return {
      number: `${inDigits(String(2001 + i), system)}/${branch}`,
      unit,
      photo: `card-${String(i + 1).padStart(3, '0')}.jpg`,
    };
  });
}

/** A small abstract JPEG: two seeded colour gradients and a band; no figure of any kind. */
async function photo(i: number, path: string): Promise<void> {
  const width = 48;
  const height = 36;
  const px = Buffer.alloc(width * height * 3);
  const c = [0, 1, 2, 3, 4, 5].map((k) => Math.floor(u(`colour ${i} ${k}`) * 256));
  const band = Math.floor(u(`band ${i}`) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = x / (width - 1);
      const o = (y * width + x) * 3;
      const inBand = Math.abs(y - band) < 3;
      for (let k = 0; k < 3; k++)
        px[o + k] = inBand
          ? 255 - (c[k] ?? 0)
          : Math.round((c[k] ?? 0) * (1 - t) + (c[k + 3] ?? 0) * t);
    }
  await sharp(px, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toFile(path);
}

export async function writeInputs(dir: string): Promise<void> {
  await mkdir(join(dir, 'photos'), { recursive: true });
  const subjects = exampleSubjects();
  for (let i = 0; i < subjects.length; i++)
    await photo(i, join(dir, 'photos', subjects[i]?.photo ?? ''));
  // One body without a card: catalogued by hand with `subject add --unit`.
  await photo(subjects.length, join(dir, 'photos', 'nocard-001.jpg'));
  await writeFile(
    join(dir, 'units.csv'),
    formatCsv([
      ['code', 'name_en', 'name_ar', 'aliases', 'parent_code'],
      ...UNITS.map((x) => [x.code, x.name_en, x.name_ar, x.aliases, '']),
    ]),
  );
  await writeFile(join(dir, 'scheme.json'), `${JSON.stringify(SCHEME, null, 2)}\n`);
  const sexes = ['male', 'male', 'male', 'male', 'male', 'male', 'female'];
  const ages = ['18-29', '18-29', '30-39', '30-39', '40-49', '50-59'];
  const rows = subjects.map((s, i) => [
    s.number,
    SCHEME.id,
    sexes[Math.floor(u(`sex ${i}`) * sexes.length)] ?? 'male',
    ages[Math.floor(u(`age ${i}`) * ages.length)] ?? '30-39',
    `2013-${String(1 + Math.floor(u(`month ${i}`) * 12)).padStart(2, '0')}-${String(1 + Math.floor(u(`day ${i}`) * 28)).padStart(2, '0')}`,
    '',
    '',
    // The photograph by its path in the delivery (the folder ingested is photos/).
    s.photo,
  ]);
  await writeFile(
    join(dir, 'subjects.csv'),
    formatCsv([
      [
        'number',
        'scheme',
        'sex',
        'age_band',
        'date_of_death',
        'date_of_photography',
        'notes',
        'items',
      ],
      ...rows,
    ]),
  );
}

type Answer = {
  sex: string;
  age_band: string;
  findings: Record<string, { value: string; regions?: string[] }>;
};

/**
 * What an examiner records for a case, seeded by the case id. The two examiners agree except on
 * purpose: on the first case (in id order) dr-a records no burns where dr-b cannot assess them
 * (neither gives regions), and on every sixth case dr-b puts the age one band higher.
 */
function answerFor(caseId: string, index: number, examiner: string): Answer {
  const findings: Answer['findings'] = {};
  for (const f of DEFAULT_CODEBOOK.findings) {
    const present = u(`${caseId} ${f.code}`) < 0.2;
    const value = present ? 'present' : 'absent';
    findings[f.code] = f.regional ? { value, regions: present ? ['head'] : [] } : { value };
  }
  if (index === 0)
    findings.burns = { value: examiner === 'dr-b' ? 'cannot_assess' : 'absent', regions: [] };
  const bands = ['18-29', '30-39', '40-49', '50-59'];
  const band = Math.floor(u(`${caseId} age`) * 3);
  const shift = examiner === 'dr-b' && index % 6 === 3 ? 1 : 0;
  return {
    sex: u(`${caseId} sex`) < 0.9 ? 'male' : 'female',
    age_band: bands[band + shift] ?? '30-39',
    findings,
  };
}

async function answer(
  examiner: string,
  sheet: string,
  format: string,
  bad: string,
  out: string,
): Promise<void> {
  const [header, ...records] = parseCsv(await readFile(sheet, 'utf8')).map((r) => r.cells);
  if (header === undefined) throw new Error(`${sheet}: empty sheet`);
  const cases = records.map((r) => r[header.indexOf('case')] ?? '').sort();
  const answers = cases.map((c, i) => ({ case: c, form: answerFor(c, i, examiner) }));
  // The slip: on the third line the examiner types a value the codebook does not have.
  const slipped = structuredClone(answers);
  const third = slipped[2];
  if (third === undefined) throw new Error('the example needs at least three cases');
  if (format === 'csv') third.form.age_band = 'thirty';
  else third.form.findings.emaciation = { value: 'maybe' };
  const write = (path: string, rows: typeof answers): Promise<void> => {
    if (format === 'jsonl')
      return writeFile(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const cells = rows.map((r) =>
      header.map((col) => {
        if (col === 'case') return r.case;
        if (col === 'sex' || col === 'age_band') return r.form[col];
        const m = /^findings\.(.+)\.(value|regions)$/.exec(col);
        const f = m === null ? undefined : r.form.findings[m[1] ?? ''];
        if (f === undefined) return '';
        return m?.[2] === 'value' ? f.value : (f.regions ?? []).join(',');
      }),
    );
    return writeFile(path, formatCsv([header, ...cells]));
  };
  await write(bad, slipped);
  await write(out, answers);
}

interface Listed {
  cases: {
    case: string;
    disagreements: { field: string; values: { examiner: string; value: unknown }[] }[];
  }[];
}

/**
 * The adjudicator's decisions for every disputed case (`adjudicate --list --json`): burns, which
 * one examiner saw absent and the other could not assess, decided present at full resolution,
 * with the regions that follow from it (not themselves in dispute: neither examiner gave any);
 * an age band settled on the lower reading.
 */
async function decide(list: string, bad: string, out: string): Promise<void> {
  const listed = JSON.parse(await readFile(list, 'utf8')) as Listed;
  const lines = listed.cases.map((c) => ({
    case: c.case,
    decisions: c.disagreements.flatMap((d) => {
      if (d.field === 'findings.burns.value')
        return [
          {
            field: d.field,
            value: 'present',
            reason: 'burns visible on both forearms at full resolution',
          },
          { field: 'findings.burns.regions', value: 'upper_limbs', reason: 'both forearms' },
        ];
      const values = d.values.map((v) => String(v.value)).sort();
      return [
        {
          field: d.field,
          value: values[0] ?? '',
          reason: 'the lower band: the card gives no age and the photographs do not settle it',
        },
      ];
    }),
  }));
  const slipped = structuredClone(lines);
  const burns = slipped.flatMap((l) => l.decisions).find((d) => d.field === 'findings.burns.value');
  if (burns === undefined) throw new Error('no dispute over burns to adjudicate');
  // The slip: the decided value with a typing error.
  burns.value = 'presnt';
  const jsonl = (rows: typeof lines): string =>
    rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  await writeFile(bad, jsonl(slipped));
  await writeFile(out, jsonl(lines));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      examiner: { type: 'string' },
      sheet: { type: 'string' },
      format: { type: 'string', default: 'csv' },
      list: { type: 'string' },
      bad: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const need = (v: string | undefined, name: string): string => {
    if (v === undefined || v === '') throw new Error(`--${name} is required`);
    return v;
  };
  if (command === 'inputs') await writeInputs(need(positionals[0], 'DIR'));
  else if (command === 'answer')
    await answer(
      need(values.examiner, 'examiner'),
      need(values.sheet, 'sheet'),
      values.format ?? 'csv',
      need(values.bad, 'bad'),
      need(values.out, 'out'),
    );
  else if (command === 'decide')
    await decide(need(values.list, 'list'), need(values.bad, 'bad'), need(values.out, 'out'));
  else throw new Error('usage: worked-example-data.js inputs DIR | answer … | decide …');
}

if (process.argv[1]?.endsWith('worked-example-data.js') === true)
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 2;
  });
