import { describe, expect, it } from 'vitest';
import { UnitRegistry } from '../../catalogue/units/index.js';
import { parseReportFields } from './report-content.js';
import { parseReportsCsv, parseReportsJson } from './report-rows.js';

const registry = new UnitRegistry([
  { id: 'U1', name_en: 'Air Force Intelligence', name_ar: 'المخابرات الجوية', code: null, code_text: 'AFI', aliases_json: '["جوية"]', parent_id: null, retired_seq: null, created_seq: 1, updated_seq: 1 },
]);

describe('report rows', () => {
  it('keeps Arabic exactly (NFC), strips a BOM, resolves the unit by an Arabic alias', () => {
    const { rows, errors } = parseReportsCsv('\uFEFFname_ar,father_name,unit,sex\n"عبد الله الحمصي",مُحمَّد,جوية,male\n');
    expect(errors).toEqual([]);
    const r = parseReportFields(rows[0]?.input ?? {}, { org: 'Org A', units: registry });
    expect(r).toMatchObject({ org: 'Org A', content: { name_ar: 'عبد الله الحمصي', father_name: 'مُحمَّد', unit: { as_reported: 'جوية', id: 'U1' }, sex: 'male' } });
  });

  it('names the row and column of every problem (header row 1 in CSV, first object row 1 in JSON)', () => {
    expect(parseReportsCsv('name_ar,colour\nx,y\n').errors).toEqual([{ row: 1, column: 'colour', reason: expect.stringContaining('unknown column') as unknown }]);
    expect(parseReportsCsv('name_ar,sex\nx,male\ny\n').errors).toEqual([{ row: 3, column: '*', reason: '1 columns where the header has 2' }]);
    expect(parseReportsJson('[{"name_ar":"x"},{"nom":"y"},3]').errors).toEqual([
      { row: 2, column: 'nom', reason: 'unknown field' },
      { row: 3, column: '*', reason: 'expected an object' },
    ]);
  });

  it.each([
    ['no name at all', { sex: 'male' }, 'name_ar'],
    ['a sex outside the vocabulary', { name_ar: 'x', sex: 'm' }, 'sex'],
    ['a birth that is not a year or a date', { name_ar: 'x', birth: '1985-13-01' }, 'birth'],
    ['an event date that is not a calendar date', { name_ar: 'x', event_date: '2013-02-30' }, 'event_date'],
    ['an unknown event', { name_ar: 'x', event: 'kidnap' }, 'event'],
    ['photographs allowed without a liaison', { name_ar: 'x', consent_photographs: 'yes' }, 'consent_liaison'],
    ['a control character in a name', { name_ar: 'x\u0007' }, 'name_ar'],
    ['a mark outside the codebook', { name_ar: 'x', marks: 'face:wound' }, 'marks'],
    ['no organisation', { name_ar: 'x', org: '' }, 'org'],
  ])('%s is refused, naming its column', (_, input, column) => {
    const r = parseReportFields(input, { org: column === 'org' ? null : 'Org A', units: registry });
    expect('issues' in r ? r.issues.map((i) => i.column) : []).toContain(column);
  });

  it('photographs may not be shown unless the family said yes', () => {
    const r = parseReportFields({ name_latin: 'Zaydoun' }, { org: 'Org A', units: registry });
    expect('content' in r ? r.content.consent : null).toEqual({ orgs: [], photographs: 'no', liaison: null });
  });
});
