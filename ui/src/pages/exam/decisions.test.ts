import { describe, expect, it } from 'vitest';
import { decisionsOf, dependentsOf, fieldsOf, shownDependents } from './decisions';

const a = {
  sex: 'male',
  age_band: '30-39',
  findings: { burns: { value: 'absent', regions: [] }, emaciation: { value: 'present' } },
};
const b = {
  sex: 'male',
  age_band: '30-39',
  findings: { burns: { value: 'cannot_assess', regions: [] }, emaciation: { value: 'present' } },
};

describe("the adjudicator's decisions", () => {
  it('flattens an answer as the adjudication names its fields', () => {
    expect([...fieldsOf(a)]).toEqual([
      ['sex', 'male'],
      ['age_band', '30-39'],
      ['findings.burns.value', 'absent'],
      ['findings.burns.regions', ''],
      ['findings.emaciation.value', 'present'],
    ]);
  });

  it('a finding decided present brings its regions (not disputed: both empty), which are then sent with their reason', () => {
    const fields = [...new Set([...fieldsOf(a).keys(), ...fieldsOf(b).keys()])];
    const deps = dependentsOf(['findings.burns.value'], fields);
    expect(deps).toEqual([{ value: 'findings.burns.value', field: 'findings.burns.regions' }]);
    // Decided absent: the regions do not follow, and nothing more is sent.
    const absent = { 'findings.burns.value': 'absent' };
    expect(shownDependents(deps, absent)).toEqual([]);
    expect(
      decisionsOf(['findings.burns.value'], [], absent, { 'findings.burns.value': 'r' }),
    ).toEqual([{ field: 'findings.burns.value', value: 'absent', reason: 'r' }]);
    // Decided present: the regions are asked for and sent.
    const present = { 'findings.burns.value': 'present', 'findings.burns.regions': 'back,chest' };
    const shown = shownDependents(deps, present);
    expect(shown).toHaveLength(1);
    expect(
      decisionsOf(['findings.burns.value'], shown, present, {
        'findings.burns.value': 'photo 2',
        'findings.burns.regions': 'photo 2, both',
      }),
    ).toEqual([
      { field: 'findings.burns.value', value: 'present', reason: 'photo 2' },
      { field: 'findings.burns.regions', value: 'back,chest', reason: 'photo 2, both' },
    ]);
  });

  it('regions that are disputed themselves are decided as disputed fields, not as dependents; a finding without regions brings none', () => {
    expect(
      dependentsOf(['findings.burns.value', 'findings.burns.regions'], ['findings.burns.regions']),
    ).toEqual([]);
    expect(
      dependentsOf(['findings.emaciation.value', 'age_band'], ['findings.emaciation.value']),
    ).toEqual([]);
  });
});
