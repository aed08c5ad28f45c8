import { describe, expect, it } from 'vitest';
import type { SubjectsTable, UnitsTable } from '../../db/index.js';
import type { ReportContent } from '../reports/report-content.js';
import { seededPrng } from '../../stats/index.js';
import { WEIGHTS, ageFactor, dateFactor, explain, marksFactor, prepareSubjects, rankCandidates, scoreSubjects, sexFactor, unitFactor, weightKey } from './rank.js';

const report = (over: Partial<ReportContent> = {}): ReportContent => ({
  reference: null, name_ar: 'x', name_latin: null, father_name: null, grandfather_name: null, family_name: null, mother_name: null,
  sex: 'male', birth: '1985', origin: null, event: 'arrest', event_date: '2013-05-21', event_place: null,
  unit: { as_reported: 'AFI', id: 'U-AFI' }, am: {}, contact: null, consent: { orgs: [], photographs: 'no', liaison: null }, ...over,
});
const subject = (over: Partial<SubjectsTable> = {}): SubjectsTable => ({
  id: 'S', number_raw: null, scheme_id: null, number_normalised: null, fields_json: '{}', unit_id: null, sex: null, age_band: null,
  date_of_death: null, date_of_photography: null, notes: null, status: 'active', merged_into: null, created_seq: 1, updated_seq: 1, ...over,
});
const unit = (id: string, parent: string | null): UnitsTable =>
  ({ id, name_en: id, parent_id: parent, code: null, code_text: null, name_ar: null, aliases_json: '[]', retired_seq: null, created_seq: 1, updated_seq: 1 });
const units = [unit('U-AFI', null), unit('U-215', 'U-AFI'), unit('U-227', 'U-215'), unit('U-MI', null)];
const parents = new Map(units.map((u) => [u.id, u.parent_id]));
const names = new Map(units.map((u) => [u.id, u.name_en]));

describe('unit of arrest against the subject unit and its parents', () => {
  it.each([
    ['same unit', 'U-AFI', 'agree'],
    ['a branch under it', 'U-215', 'agree'],
    ['two levels under it', 'U-227', 'agree'],
    ['an unrelated unit', 'U-MI', 'disagree'],
    ['no unit', null, 'missing'],
  ] as const)('%s', (_, unitId, want) => {
    expect(unitFactor(report(), subject({ unit_id: unitId }), parents, names).outcome).toBe(want);
  });
  it('a unit above the arresting branch does not agree (the subject was held elsewhere in the service)', () => {
    expect(unitFactor(report({ unit: { as_reported: '215', id: 'U-215' } }), subject({ unit_id: 'U-AFI' }), parents, names).outcome).toBe('disagree');
  });
  it('an arresting body the registry does not know is missing, not a disagreement', () => {
    expect(unitFactor(report({ unit: { as_reported: 'Branch of Nowhere', id: null } }), subject({ unit_id: 'U-MI' }), parents, names).outcome).toBe('missing');
  });
  it('a cycle in the registry ends', () => {
    const loop = new Map([['A', 'B'], ['B', 'A']]);
    expect(unitFactor(report(), subject({ unit_id: 'A' }), loop, names).outcome).toBe('disagree');
  });
});

describe('date of death or photograph after the arrest', () => {
  it.each([
    ['death after', { date_of_death: '2013-08-01' }, '2013-05-21', 'agree'],
    ['death the same day', { date_of_death: '2013-05-21' }, '2013-05-21', 'agree'],
    ['death before', { date_of_death: '2013-05-20' }, '2013-05-21', 'disagree'],
    ['photograph month of the arrest', { date_of_photography: '2013-05' }, '2013-05-21', 'agree'],
    ['arrest year only, death that year', { date_of_death: '2013-01-02' }, '2013', 'agree'],
    ['no subject date', {}, '2013-05-21', 'missing'],
    ['no arrest date', { date_of_death: '2013-01-02' }, null, 'missing'],
  ] as const)('%s', (_, s, event, want) => {
    expect(dateFactor(report({ event_date: event }), subject(s)).outcome).toBe(want);
  });
});

describe('sex and age band', () => {
  it.each([
    ['male', 'male', 'agree'],
    ['male', 'female', 'disagree'],
    ['male', 'undetermined', 'missing'],
    [null, 'male', 'missing'],
  ] as const)('report %s, subject %s', (r, s, want) => {
    expect(sexFactor(report({ sex: r }), subject({ sex: s })).outcome).toBe(want);
  });
  it.each([
    ['1985', '2013-08-01', '18-29', 'agree'],
    ['1984', '2013-08-01', '18-29', 'agree'], // 28 or 29
    ['1983', '2013-08-01', '18-29', 'agree'], // 29 or 30: uncertain by a year
    ['1980', '2013-08-01', '18-29', 'close'],
    ['1960', '2013-08-01', '18-29', 'disagree'],
    ['1996', '2013-08-01', '<18', 'agree'],
    ['1950', '2013-08-01', '60+', 'agree'],
    ['1985', '2013-08-01', 'undetermined', 'missing'],
  ] as const)('born %s, died %s, band %s', (birth, died, band, want) => {
    expect(ageFactor(report({ birth }), subject({ date_of_death: died, age_band: band })).outcome).toBe(want);
  });
});

describe('marks, AM against PM', () => {
  const am = { marks: [{ region: 'face', kind: 'scar', description: null }, { region: 'chest', kind: 'tattoo', description: 'eagle' }] };
  it.each([
    ['both seen', [{ region: 'face', kind: 'scar' }, { region: 'chest', kind: 'tattoo' }], 'agree'],
    ['one seen', [{ region: 'face', kind: 'scar' }], 'close'],
    ['seen in an unspecified region', [{ region: 'unspecified', kind: 'scar' }, { region: 'chest', kind: 'tattoo' }], 'agree'],
    ['none seen', [{ region: 'back', kind: 'scar' }], 'disagree'],
    ['no PM marks recorded', undefined, 'missing'],
  ] as const)('%s', (_, pm, want) => {
    expect(marksFactor(report({ am }), pm === undefined ? {} : { marks: pm as never }).outcome).toBe(want);
  });
});

describe('ranking by the sum of the factors\' weights', () => {
  const rank = (subjects: SubjectsTable[], r = report()) => rankCandidates({ report: r, subjects, pm: new Map(), units });
  it('orders by score; a missing factor weighs 0; excludes nobody but merged subjects', () => {
    const ranked = rank([
      subject({ id: 'wrong-branch', unit_id: 'U-MI', sex: 'male', date_of_death: '2013-06-01', age_band: '18-29' }),
      subject({ id: 'all-agree', unit_id: 'U-215', sex: 'male', date_of_death: '2013-06-01', age_band: '18-29' }),
      subject({ id: 'unknown' }),
      subject({ id: 'merged', status: 'merged', merged_into: 'all-agree' }),
      subject({ id: 'female-before', unit_id: 'U-AFI', sex: 'female', date_of_death: '2012-01-01' }),
    ]);
    expect(ranked.map((c) => [c.rank, c.subject, c.agreed, c.disagreed])).toEqual([
      [1, 'all-agree', 4, 0],
      [2, 'wrong-branch', 3, 1],
      [3, 'unknown', 0, 0],
      [4, 'female-before', 1, 2],
    ]);
    expect(ranked[2]?.score).toBe(0);
    expect(ranked[2]?.factors.every((f) => f.weight === 0)).toBe(true);
    const all = ranked[0];
    expect(all?.score).toBeCloseTo(WEIGHTS.unit_part_of + WEIGHTS.date_within_1y + WEIGHTS.sex_same + WEIGHTS.age_band, 10);
    expect(all?.factors.map((f) => [f.factor, f.weight])).toEqual([
      ['unit', WEIGHTS.unit_part_of], ['date', WEIGHTS.date_within_1y], ['sex', WEIGHTS.sex_same], ['age', WEIGHTS.age_band], ['marks', 0],
    ]);
  });
  it('one disagreeing factor lowers the true subject but does not bury it under subjects that agree on nothing', () => {
    // A family names the wrong branch; the subject agrees on everything else. 50 subjects that
    // share only the sex, or nothing, stay below it.
    const others = Array.from({ length: 50 }, (_, i) => subject({ id: `o${String(i).padStart(2, '0')}`, sex: 'male', unit_id: i % 2 === 0 ? 'U-MI' : null }));
    const truth = subject({ id: 'zz-truth', unit_id: 'U-MI', sex: 'male', date_of_death: '2013-06-01', age_band: '18-29' });
    const ranked = rank([...others, truth]);
    expect(ranked[0]?.subject).toBe('zz-truth');
    expect(ranked[0]?.disagreed).toBe(1);
  });
  it('a death before the arrest or a sex that differs lowers a subject, never removes it', () => {
    const ranked = rank([subject({ id: 'before', date_of_death: '2012-01-01' }), subject({ id: 'female', sex: 'female' })]);
    expect(ranked.map((c) => c.subject).sort()).toEqual(['before', 'female']);
    expect(ranked.every((c) => c.score < 0)).toBe(true);
  });
  it('the date weighs by the time from the arrest: within a year, within three years, later', () => {
    const w = (d: string) => rank([subject({ date_of_death: d })])[0]?.score;
    expect([w('2013-06'), w('2015-01-01'), w('2019'), w('2013-04-30')]).toEqual([WEIGHTS.date_within_1y, WEIGHTS.date_within_3y, WEIGHTS.date_later, WEIGHTS.date_before]);
  });
  it('a limit builds the factors of the best candidates only, in the same order', () => {
    const subjects = [subject({ id: 'a', sex: 'female' }), subject({ id: 'b', sex: 'male' }), subject({ id: 'c' })];
    expect(rank(subjects).slice(0, 2)).toEqual(rankCandidates({ report: report(), subjects, pm: new Map(), units }, 2));
  });
  it('the fast score of every subject equals the sum of its factors\' weights (random reports and subjects)', () => {
    const rng = seededPrng('rank-consistency');
    const pick = <T,>(xs: readonly T[]): T => xs[rng.nextInt(xs.length)] as T;
    const dates = [null, '2012', '2013', '2013-05', '2013-05-20', '2013-05-21', '2013-06-30', '2014-05', '2015-12-01', '2017', '1990-01-01', '2013-6-1'];
    const marks = (n: number) => ({ marks: Array.from({ length: n }, () => ({ kind: pick(['scar', 'tattoo']), region: pick(['face', 'chest', 'unspecified']), description: null })) });
    const subjects = Array.from({ length: 300 }, (_, i) =>
      subject({
        id: `s${String(i).padStart(3, '0')}`, unit_id: pick([null, 'U-AFI', 'U-215', 'U-227', 'U-MI']), sex: pick([null, 'male', 'female', 'undetermined']),
        age_band: pick([null, 'undetermined', '<18', '18-29', '30-39', '40-49', '50-59', '60+']), date_of_death: pick(dates), date_of_photography: pick(dates),
        status: pick(['active', 'active', 'merged']),
      }),
    );
    const pm = new Map(subjects.filter(() => rng.nextInt(2) === 0).map((s) => [s.id, rng.nextInt(3) === 0 ? {} : (marks(rng.nextInt(3)) as never)]));
    const prepared = prepareSubjects(subjects, pm, units);
    expect(prepared.subjects.length).toBe(subjects.filter((s) => s.status !== 'merged').length);
    const seenKeys = new Set<string>();
    for (let n = 0; n < 60; n++) {
      const r = report({
        sex: pick([null, 'male', 'female']), birth: pick([null, '1950', '1985', '1996', '2010']), event_date: pick(dates),
        unit: pick([null, { as_reported: 'x', id: null }, { as_reported: 'AFI', id: 'U-AFI' }, { as_reported: '215', id: 'U-215' }]),
        am: rng.nextInt(2) === 0 ? {} : (marks(1 + rng.nextInt(2))),
      });
      const scores = scoreSubjects(r, prepared);
      prepared.subjects.forEach((s, i) => {
        const c = explain(r, s, prepared);
        for (const f of c.factors) seenKeys.add(weightKey(f) ?? 'missing');
        expect(scores[i]).toBeCloseTo(c.factors.reduce((a, f) => a + f.weight, 0), 9);
      });
    }
    // The random cases reach every weight (unit_part_of included) and the missing factors.
    expect([...seenKeys].sort()).toEqual([...Object.keys(WEIGHTS), 'missing'].sort());
  });
});

describe('each factor says why as a code with its parameters (worded in English and Arabic by the UI)', () => {
  const namesAr = new Map<string, string | null>([['U-AFI', 'المخابرات الجوية'], ['U-215', null]]);
  it.each([
    ['unit: same', unitFactor(report(), subject({ unit_id: 'U-AFI' }), parents, names, namesAr), 'unit_same', { unit: 'U-AFI', unit_ar: 'المخابرات الجوية', subject_unit: 'U-AFI', subject_unit_ar: 'المخابرات الجوية' }],
    ['unit: part of (no Arabic name: the English one)', unitFactor(report(), subject({ unit_id: 'U-215' }), parents, names, namesAr), 'unit_part_of', { unit: 'U-AFI', unit_ar: 'المخابرات الجوية', subject_unit: 'U-215', subject_unit_ar: 'U-215' }],
    ['unit: other', unitFactor(report(), subject({ unit_id: 'U-MI' }), parents, names), 'unit_other', { unit: 'U-AFI', unit_ar: 'U-AFI', subject_unit: 'U-MI', subject_unit_ar: 'U-MI' }],
    ['unit: not reported', unitFactor(report({ unit: null }), subject(), parents, names), 'unit_not_reported', {}],
    ['unit: not in the registry', unitFactor(report({ unit: { as_reported: 'Nowhere', id: null } }), subject(), parents, names), 'unit_not_in_registry', { as_reported: 'Nowhere' }],
    ['unit: subject has none', unitFactor(report(), subject(), parents, names), 'unit_subject_none', {}],
    ['date: not before', dateFactor(report({ event: 'last_seen' }), subject({ date_of_death: '2014' })), 'date_not_before', { which: 'death', date: '2014', event: 'last_seen', event_date: '2013-05-21' }],
    ['date: before', dateFactor(report(), subject({ date_of_photography: '2012' })), 'date_before', { which: 'photograph', date: '2012', event: 'arrest', event_date: '2013-05-21' }],
    ['date: not reported', dateFactor(report({ event_date: null }), subject()), 'date_not_reported', {}],
    ['date: subject has none', dateFactor(report(), subject()), 'date_subject_none', {}],
    ['sex: same', sexFactor(report(), subject({ sex: 'male' })), 'sex_same', { sex: 'male' }],
    ['sex: differs', sexFactor(report(), subject({ sex: 'female' })), 'sex_differs', { report: 'male', subject: 'female' }],
    ['sex: not reported', sexFactor(report({ sex: null }), subject({ sex: 'male' })), 'sex_not_reported', {}],
    ['sex: subject undetermined', sexFactor(report(), subject({ sex: 'undetermined' })), 'sex_subject_undetermined', {}],
    ['age: band', ageFactor(report(), subject({ age_band: '18-29', date_of_death: '2013' })), 'age_band', { age: 28, year: '2013', band: '18-29' }],
    ['age: next band', ageFactor(report(), subject({ age_band: '30-39', date_of_death: '2013' })), 'age_next_band', { age: 28, year: '2013', band: '30-39' }],
    ['age: no birth', ageFactor(report({ birth: null }), subject({ age_band: '18-29' })), 'birth_not_reported', {}],
    ['age: subject has none', ageFactor(report(), subject()), 'age_subject_none', {}],
    ['age: no date', ageFactor(report({ event_date: null }), subject({ age_band: '18-29' })), 'age_no_date', {}],
    ['marks: not reported', marksFactor(report(), undefined), 'marks_not_reported', {}],
  ] as const)('%s', (_, r, code, params) => {
    expect(r.code).toBe(code);
    expect(r.params).toEqual(params);
  });
  it('marks: the matched marks by codebook kind and region', () => {
    const marks = (m: { kind: string; region: string }[]) => ({ marks: m.map((x) => ({ ...x, description: null })) }) as unknown as ReportContent['am'];
    const r = marksFactor(report({ am: marks([{ kind: 'scar', region: 'face' }, { kind: 'tattoo', region: 'chest' }]) }), marks([{ kind: 'scar', region: 'face' }]));
    expect(r).toMatchObject({ code: 'marks_matched', outcome: 'close', params: { matched: 1, total: 2 }, marks: [{ kind: 'scar', region: 'face' }] });
    expect(marksFactor(report({ am: marks([{ kind: 'scar', region: 'face' }]) }), {}).code).toBe('marks_subject_none');
  });
});
