// Forms people can fill in: a readable sheet for one case (definitions, allowed values, the
// photographs to look at) and a CSV answer sheet, one row per case, that `examine submit --forms`
// reads back. Pure: the CLI reads and writes the files.
import { formatCsv, parseCsv } from '../../core/index.js';
import type { Codebook } from '../codebook/index.js';
import type { SubmitLine } from './batch.service.js';

/** The answer sheet's columns: case, sex, age_band, each finding's value (and regions), notes. */
export function formCsvColumns(codebook: Codebook): string[] {
  const cols = ['case', 'sex', 'age_band'];
  for (const f of codebook.findings) {
    cols.push(`findings.${f.code}.value`);
    if (f.regional) cols.push(`findings.${f.code}.regions`);
  }
  cols.push('notes');
  return cols;
}

/** A blank answer sheet for `cases`. Regions are written as codes separated by commas. */
export function formCsv(codebook: Codebook, cases: readonly string[]): string {
  const cols = formCsvColumns(codebook);
  return formatCsv([cols, ...cases.map((c) => cols.map((k) => (k === 'case' ? c : '')))]);
}

/**
 * The rows of a filled-in answer sheet as batch lines (line = the file line of the row).
 * Untrusted input: a spreadsheet typed by people. An empty cell is left out, so the form check
 * names the field; unknown or missing columns make every row a problem line.
 */
export function parseFormCsv(codebook: Codebook, text: string): SubmitLine[] {
  const records = parseCsv(text.replace(/^\uFEFF/, ''));
  const [header, ...rows] = records;
  if (header === undefined) return [];
  const names = header.cells.map((c) => c.trim());
  const expected = formCsvColumns(codebook);
  const unknown = names.filter((n) => !expected.includes(n));
  const absent = expected.filter((n) => n !== 'notes' && !names.includes(n));
  if (unknown.length > 0 || absent.length > 0) {
    const message = [unknown.length > 0 ? `unknown column(s) ${unknown.join(', ')}` : '', absent.length > 0 ? `missing column(s) ${absent.join(', ')}` : ''].filter((s) => s !== '').join('; ');
    return [{ line: header.line, case: null, form: null, problem: { field: 'header', message: `${message} (print a fresh sheet with \`custody examine form PLAN --csv\`)` } }];
  }
  return rows.map((r): SubmitLine => {
    const cell = (name: string): string | undefined => {
      const v = r.cells[names.indexOf(name)]?.trim();
      return v === undefined || v === '' ? undefined : v;
    };
    if (r.cells.length !== names.length)
      return { line: r.line, case: cell('case') ?? null, form: null, problem: { field: null, message: `${r.cells.length} cells, the header has ${names.length}` } };
    const findings: Record<string, { value?: string; regions?: string[] }> = {};
    for (const f of codebook.findings) {
      const regions = f.regional ? cell(`findings.${f.code}.regions`) : undefined;
      findings[f.code] = { value: cell(`findings.${f.code}.value`), ...(regions === undefined ? {} : { regions: regions.split(/[,;\s]+/).filter((x) => x !== '') }) };
    }
    const notes = cell('notes');
    const form = { sex: cell('sex'), age_band: cell('age_band'), findings, ...(notes === undefined ? {} : { notes }) };
    const caseId = cell('case');
    return caseId === undefined ? { line: r.line, case: null, form, problem: { field: 'case', message: 'no case named' } } : { line: r.line, case: caseId, form };
  });
}

/** What the readable sheet shows of each photograph: where its preview is, if there is one. */
export interface SheetImage {
  readonly item: string;
  readonly sha256: string;
  readonly preview: string | null;
}

/** The sheet `examine form` prints for a person: instructions, each field with its allowed values and definitions, the photographs. */
export function readableSheet(codebook: Codebook, head: { sample: string; case: string }, images: readonly SheetImage[]): string {
  const out: string[] = [];
  const wrap = (text: string, indent: string): string => indent + text.replace(/\s+/g, ' ').trim();
  out.push(`Examination form: plan ${head.sample}, case ${head.case}`, `Codebook ${codebook.version}: ${codebook.title}`, '', wrap(codebook.instructions, ''), '');
  out.push('Photographs (previews; blurred unless --unblurred; `custody preview ITEM --size 1280 --unblurred` for a larger view):');
  if (images.length === 0) out.push('  (none linked to this case)');
  for (const i of images) out.push(`  ${i.preview ?? `(no preview yet: run \`custody analyze\`) item ${i.item}`}`);
  out.push('', 'sex: one of', ...codebook.sexes.map((s) => `  ${s.code.padEnd(14)} ${s.label}`));
  out.push('', 'age_band: one of', ...codebook.ageBands.map((s) => `  ${s.code.padEnd(14)} ${s.label}`));
  out.push('', `Each finding: one of ${codebook.values.map((v) => v.code).join(', ')}`, ...codebook.values.map((v) => wrap(`${v.code}: ${v.definition}`, '  ')));
  const regions = codebook.regions.map((r) => r.code).join(', ');
  for (const f of codebook.findings) {
    out.push('', `findings.${f.code}.value  (${f.label})`, wrap(f.definition, '  '));
    if (f.regional) out.push(`  findings.${f.code}.regions: when present, one or more of ${regions}`);
  }
  out.push('', 'Answer with `custody examine form PLAN --csv` (a sheet to fill in) or `examine form PLAN CASE --json`, then `custody examine submit`.', '');
  return out.join('\n');
}
