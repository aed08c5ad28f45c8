import { describe, expect, it } from 'vitest';
import { fieldLabel, valueLabel } from './field-labels';
import type { Codebook } from './types';

const term = (code: string, label: string) => ({ code, label, definition: `${label}.` });
const CODEBOOK: Codebook = {
  version: 'test-1',
  title: 'Test',
  instructions: '',
  values: [
    term('present', 'Present'),
    term('absent', 'Absent'),
    term('cannot_assess', 'Cannot assess'),
  ],
  sexes: [term('male', 'Male'), term('female', 'Female'), term('undetermined', 'Undetermined')],
  ageBands: [term('30-39', '30 to 39'), term('40-49', '40 to 49')],
  regions: [term('chest', 'Chest'), term('back', 'Back')],
  findings: [{ ...term('burns', 'Burns'), regional: true }],
};
const STRINGS = {
  sex: 'Sex',
  ageBand: 'Age band',
  regions: (f: string) => `Where is “${f}” seen?`,
};

describe('the adjudicator page names fields and values by the codebook', () => {
  it('a finding by its label, its regions by a sentence naming it, sex and age band by the page', () => {
    expect(fieldLabel('findings.burns.value', CODEBOOK, STRINGS)).toBe('Burns');
    expect(fieldLabel('findings.burns.regions', CODEBOOK, STRINGS)).toBe('Where is “Burns” seen?');
    expect(fieldLabel('age_band', CODEBOOK, STRINGS)).toBe('Age band');
    expect(fieldLabel('sex', CODEBOOK, STRINGS)).toBe('Sex');
  });

  it('each value by the label of its own scale, regions one by one', () => {
    expect(valueLabel('findings.burns.value', 'cannot_assess', CODEBOOK)).toBe('Cannot assess');
    expect(valueLabel('age_band', '30-39', CODEBOOK)).toBe('30 to 39');
    expect(valueLabel('sex', 'undetermined', CODEBOOK)).toBe('Undetermined');
    expect(valueLabel('findings.burns.regions', 'chest,back', CODEBOOK)).toBe('Chest, Back');
    expect(valueLabel('findings.burns.value', '', CODEBOOK)).toBe('');
  });

  it('falls back to the code where the codebook has no term (or the server sent none)', () => {
    expect(fieldLabel('findings.other.value', CODEBOOK, STRINGS)).toBe('other');
    expect(fieldLabel('notes', CODEBOOK, STRINGS)).toBe('notes');
    expect(valueLabel('age_band', '60+', CODEBOOK)).toBe('60+');
    expect(valueLabel('findings.burns.regions', 'chest,neck', CODEBOOK)).toBe('Chest, neck');
    expect(fieldLabel('findings.burns.value', undefined, STRINGS)).toBe('burns');
    expect(valueLabel('sex', 'male', undefined)).toBe('male');
  });
});
