// A synthetic world for the examination workflow (the demo and the e2e tests): units with Arabic names, a numbering scheme,
// 300 subjects (one photograph each), each with a hidden "truth" per finding, and two examiners
// who record it with realistic, seeded error rates. Everything is generated; no real data.
import { createHash } from 'node:crypto';
import { DEFAULT_CODEBOOK } from '../examination/codebook/index.js';

export const UNITS = [
  { code: 215, name_en: 'Branch 215 (Raids)', name_ar: 'فرع المداهمة ٢١٥' },
  { code: 227, name_en: 'Branch 227 (Damascus Region)', name_ar: 'فرع المنطقة ٢٢٧' },
  { code: 235, name_en: 'Branch 235 (Palestine)', name_ar: 'فرع فلسطين ٢٣٥' },
  { code: 248, name_en: 'Branch 248 (Military Interrogation)', name_ar: 'فرع التحقيق العسكري ٢٤٨' },
];

export const SCHEME = {
  id: 'caesar-card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
};

/** Deterministic uniform [0, 1) from a label: the test's own seeded randomness. */
export function u(label: string): number {
  return createHash('sha256').update(label).digest().readUInt32BE(0) / 2 ** 32;
}

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const toArabicIndic = (s: string): string => s.replace(/[0-9]/g, (d) => ARABIC_INDIC[Number(d)] ?? d);

/** Base prevalence of each finding among the dead, and per-examiner error rates. */
const PREVALENCE: Record<string, number> = {
  emaciation: 0.62,
  blunt_force_injury: 0.45,
  patterned_injury: 0.2,
  ligature_mark_neck: 0.08,
  burns: 0.12,
  electrical_injury: 0.06,
  gunshot_wound: 0.05,
  sharp_force_injury: 0.07,
  eye_injury: 0.1,
  restraint_marks: 0.35,
  untreated_wounds: 0.3,
  decomposition: 0.15,
};

export interface WorldSubject {
  index: number;
  number: string;
  unitCode: number;
  sex: 'male' | 'female';
  ageBand: '18-29' | '30-39' | '40-49' | '50-59';
  dateOfDeath: string;
}

export function worldSubjects(n = 300): WorldSubject[] {
  return Array.from({ length: n }, (_, i) => {
    const unit = UNITS[Math.floor(u(`unit ${i}`) * UNITS.length)] ?? UNITS[0];
    const raw = `${1000 + i}/${unit?.code ?? 215}/${5000 + i}`;
    const month = 1 + Math.floor(u(`month ${i}`) * 12);
    const r = u(`age ${i}`);
    return {
      index: i,
      // Some cards were read in Arabic-Indic digits, with a right-to-left mark: the parser copes.
      number: i % 7 === 0 ? `\u200f${toArabicIndic(raw)}` : raw,
      unitCode: unit?.code ?? 215,
      sex: u(`sex ${i}`) < 0.93 ? 'male' : 'female',
      ageBand: r < 0.45 ? '18-29' : r < 0.8 ? '30-39' : r < 0.93 ? '40-49' : '50-59',
      dateOfDeath: `2013-${String(month).padStart(2, '0')}-${String(1 + Math.floor(u(`day ${i}`) * 28)).padStart(2, '0')}`,
    };
  });
}

export function findingCodes(): string[] {
  return DEFAULT_CODEBOOK.findings.map((f) => f.code);
}

/** The hidden truth for subject i: what a perfect examiner would record. */
export function truth(subject: WorldSubject): Record<string, 'present' | 'absent' | 'cannot_assess'> {
  const out: Record<string, 'present' | 'absent' | 'cannot_assess'> = {};
  for (const code of findingCodes()) {
    if (u(`assess ${subject.index} ${code}`) < 0.04) out[code] = 'cannot_assess';
    else out[code] = u(`truth ${subject.index} ${code}`) < (PREVALENCE[code] ?? 0.1) ? 'present' : 'absent';
  }
  return out;
}

/** An examiner's form: the truth, with a seeded error rate; regions where the codebook wants them. */
export function examinerForm(subject: WorldSubject, examiner: string, errorRate: number, notes?: string): unknown {
  const t = truth(subject);
  const findings: Record<string, { value: string; regions?: string[] }> = {};
  for (const f of DEFAULT_CODEBOOK.findings) {
    let value: string = t[f.code] ?? 'absent';
    if (value !== 'cannot_assess' && u(`${examiner} err ${subject.index} ${f.code}`) < errorRate) value = value === 'present' ? 'absent' : 'present';
    findings[f.code] = f.regional ? { value, regions: value === 'present' ? [DEFAULT_CODEBOOK.regions[0]?.code ?? 'head'] : [] } : { value };
  }
  const ageMiss = u(`${examiner} age ${subject.index}`) < errorRate * 2;
  const bands = ['18-29', '30-39', '40-49', '50-59', '60+'];
  const ageBand = ageMiss ? (bands[Math.min(4, bands.indexOf(subject.ageBand) + 1)] ?? subject.ageBand) : subject.ageBand;
  return { sex: subject.sex, age_band: ageBand, findings, ...(notes === undefined ? {} : { notes }) };
}

/** What an adjudicator who can see the truth decides on each disputed field, with a reason. */
export function decideFromTruth(
  subject: WorldSubject,
  disagreements: readonly { field: string; values: readonly { value: string }[] }[],
  reason: string,
): { field: string; value: string; reason: string }[] {
  const t = truth(subject);
  return disagreements.map((d) => {
    const m = /^findings\.(\w+)\.(value|regions)$/.exec(d.field);
    let value = d.values[0]?.value ?? '';
    if (d.field === 'age_band') value = subject.ageBand;
    else if (d.field === 'sex') value = subject.sex;
    else if (m?.[2] === 'value') value = t[m[1] ?? ''] ?? value;
    else if (m?.[2] === 'regions') value = t[m[1] ?? ''] === 'present' ? (DEFAULT_CODEBOOK.regions[0]?.code ?? 'head') : '';
    return { field: d.field, value, reason };
  });
}
