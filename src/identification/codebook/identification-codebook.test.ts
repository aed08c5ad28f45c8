import { describe, expect, it } from 'vitest';
import { DEFAULT_CODEBOOK } from '../../examination/codebook/index.js';
import { IDENTIFICATION_CODEBOOK, identificationCodebookDigest } from './identification-codebook.js';
import { parseIdentificationRecord, parseMarks } from './record.js';

describe('the identification codebook', () => {
  it('is pinned by its digest: a change to it is a new version', () => {
    expect(IDENTIFICATION_CODEBOOK.version).toBe('custody-identification-v1');
    expect(identificationCodebookDigest()).toBe(PINNED);
    expect(Object.isFrozen(IDENTIFICATION_CODEBOOK.fields[0])).toBe(true);
  });

  it("uses the examination codebook's regions, plus 'unspecified'", () => {
    expect(IDENTIFICATION_CODEBOOK.regions.map((r) => r.code)).toEqual([...DEFAULT_CODEBOOK.regions.map((r) => r.code), 'unspecified']);
  });

  it('asks personal effects on the PM side only', () => {
    expect(parseIdentificationRecord('am', { effects: 'ring' }).issues).toEqual([{ column: 'effects', reason: expect.stringContaining('not a AM field') as unknown }]);
    expect(parseIdentificationRecord('pm', { effects: 'ring' }).record).toEqual({ effects: 'ring' });
  });
});

describe('marks', () => {
  const rows: [string, unknown, unknown][] = [
    ['region:kind', 'face:scar', [{ region: 'face', kind: 'scar', description: null }]],
    ['with a description holding ":"', 'chest:tattoo:words: "mother"', [{ region: 'chest', kind: 'tattoo', description: 'words: "mother"' }]],
    ['several, case and spaces aside', ' Face : Scar ; hands:amputation:index finger ', [{ region: 'face', kind: 'scar', description: null }, { region: 'hands', kind: 'amputation', description: 'index finger' }]],
    ['an object', [{ region: 'back', kind: 'birthmark' }], [{ region: 'back', kind: 'birthmark', description: null }]],
    ['an unknown kind', 'face:wound', 'mark kind "wound" is not one of scar, tattoo, birthmark, amputation, deformity, burn, piercing, other'],
    ['an unknown region', 'elbow:scar', expect.stringContaining('mark region "elbow"')],
    ['an object with more', [{ region: 'back', kind: 'scar', colour: 'red' }], 'a mark has region, kind and description only, not colour'],
  ];
  it.each(rows)('%s', (_, input, want) => {
    expect(parseMarks(input)).toEqual(want);
  });
});

describe('fields', () => {
  const rows: [string, Record<string, unknown>, unknown][] = [
    ['height as text', { height_cm: '172' }, { record: { height_cm: 172 } }],
    ['height as a number', { height_cm: 172 }, { record: { height_cm: 172 } }],
    ['height out of range', { height_cm: '17' }, { issues: [{ column: 'height_cm', reason: 'expected a whole number from 100 to 230' }] }],
    ['a term, any case', { build: 'Slight' }, { record: { build: 'slight' } }],
    ['a term outside the vocabulary', { hair_colour: 'purple' }, { issues: [{ column: 'hair_colour', reason: expect.stringContaining('expected one of black') as unknown }] }],
    ['an empty value clears', { dental: '' }, { record: {}, cleared: ['dental'] }],
  ];
  it.each(rows)('%s', (_, input, want) => {
    expect(parseIdentificationRecord('pm', input)).toMatchObject(want as object);
  });
});

// Pinned: any change to the codebook changes it, and must come with a new version.
const PINNED = '494f7fd3fd8705ea1d38904b41b80b063562ccd8fc4222e4d0f60c1671b9f9d1';
