import { describe, expect, it } from 'vitest';
import type { SubjectsTable } from '../../db/index.js';
import { parseSubjectsCsv, parseSubjectsJson, subjectsCsv, subjectsForExport } from './subject-rows.js';

describe('subject rows', () => {
  it('reads CSV columns in any order, items split on ";", empty cells as null', () => {
    const r = parseSubjectsCsv('\uFEFFsex,number,items,notes\nmale, 12/215/3 ,a;b ,\n');
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([{ row: 2, input: { sex: 'male', number: '12/215/3', notes: null }, items: ['a', 'b'] }]);
  });

  it('reports unknown and repeated columns on row 1, and ragged rows with their row number', () => {
    expect(parseSubjectsCsv('number,colour\n1/2/3,red\n').errors).toEqual([
      { row: 1, column: 'colour', reason: expect.stringContaining('unknown column') as unknown },
    ]);
    expect(parseSubjectsCsv('number,number\n').errors[0]?.reason).toContain('twice');
    const ragged = parseSubjectsCsv('number,sex\n1/2/3,male\n4/5/6\n7/8/9,male,x\n');
    expect(ragged.rows).toHaveLength(1);
    expect(ragged.errors.map((e) => [e.row, e.column])).toEqual([
      [3, '*'],
      [4, '*'],
    ]);
  });

  it('ignores the columns only export writes (id, unit, status), so an export re-imports', () => {
    const r = parseSubjectsCsv('id,number,unit,status\nX,1/2/3,U,merged\n');
    expect(r.rows[0]?.input).toEqual({ number: '1/2/3' });
  });

  it('reads JSON objects and names the bad fields per row', () => {
    const r = parseSubjectsJson(JSON.stringify([{ number: '1/2/3', items: ['a'] }, { sex: 3 }, { colour: 'red' }, 'x']));
    expect(r.rows).toEqual([{ row: 1, input: { number: '1/2/3' }, items: ['a'] }]);
    expect(r.errors.map((e) => [e.row, e.column])).toEqual([
      [2, 'sex'],
      [3, 'colour'],
      [4, '*'],
    ]);
    expect(() => parseSubjectsJson('{')).toThrow(/malformed/);
    expect(() => parseSubjectsJson('{}')).toThrow(/array/);
  });

  it('exports CSV that a spreadsheet cannot run as a formula', () => {
    const s = { id: 'S1', number_raw: '=HYPERLINK("http://x")', scheme_id: null, unit_id: null, sex: 'male', age_band: null, date_of_death: null, date_of_photography: null, notes: '@SUM(A1)', status: 'active' } as SubjectsTable;
    const csv = subjectsCsv(subjectsForExport([s], new Map([['S1', ['i1', 'i2']]])));
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(csv).toContain("'@SUM(A1)");
    expect(csv).toContain('i1;i2');
    expect(csv.split('\r\n')[0]).toBe('id,number,scheme,unit,sex,age_band,date_of_death,date_of_photography,notes,items,status');
  });
});
