import { describe, expect, it } from 'vitest';
import { DEFAULT_CODEBOOK, parseExaminationForm } from '../codebook/index.js';
import { formCsv, formCsvColumns, parseFormCsv, readableSheet } from './form-sheet.js';

const CB = DEFAULT_CODEBOOK;

describe('the CSV answer sheet', () => {
  it('comes back as forms that parse, regions split on commas', () => {
    const blank = formCsv(CB, ['case-1']);
    const cols = formCsvColumns(CB);
    const row = cols.map((c) => (c === 'case' ? 'case-1' : c === 'sex' ? 'female' : c === 'age_band' ? '<18' : c === 'findings.burns.value' ? 'present' : c === 'findings.burns.regions' ? '"back, chest"' : c.endsWith('.value') ? 'absent' : ''));
    const lines = parseFormCsv(CB, `${blank.split(/\r?\n/)[0]}\n${row.join(',')}\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.case).toBe('case-1');
    expect(lines[0]?.line).toBe(2);
    const answer = parseExaminationForm(CB, lines[0]?.form);
    expect(answer.findings.burns).toEqual({ value: 'present', regions: ['back', 'chest'] });
    expect(answer.age_band).toBe('<18');
  });

  it('leaves an empty cell out, so the form check names the field', () => {
    const cols = formCsvColumns(CB);
    const row = cols.map((c) => (c === 'case' ? 'c' : ''));
    const [line] = parseFormCsv(CB, `${cols.join(',')}\n${row.join(',')}\n`);
    expect(() => parseExaminationForm(CB, line?.form)).toThrow(/sex: expected/);
  });

  it('makes a wrong header one problem line instead of guessing', () => {
    const lines = parseFormCsv(CB, 'case,sexx\nc,male\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.line).toBe(1);
    expect(lines[0]?.case).toBeNull();
    expect(lines[0]?.problem?.field).toBe('header');
  });

  it('reads as a sheet with every finding, its definition and the preview paths', () => {
    const text = readableSheet(CB, { sample: 'p', case: 'c' }, [{ item: 'i1', sha256: 'ab', preview: '/x/ab.256.blurred.webp' }]);
    for (const f of CB.findings) expect(text).toContain(`findings.${f.code}.value`);
    expect(text).toContain('/x/ab.256.blurred.webp');
    expect(text).toContain('cannot_assess');
  });
});
