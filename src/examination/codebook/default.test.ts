import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../core/index.js';
import {
  AGE_BANDS,
  DEFAULT_CODEBOOK,
  ageBandRank,
  codebookDigest,
  defineCodebook,
  type CodebookTerm,
} from './index.js';

// Pinned: changing any word of the default codebook changes this digest, and must come with a
// new version string (reports and stats records cite version + digest).
const DEFAULT_DIGEST = 'ffbc768df3bdf2bf304851184b6a4e6a90882fdb3656a468822cc69e3c709f3a';

describe('DEFAULT_CODEBOOK', () => {
  it('passes its own validation, also after a JSON round trip', () => {
    const again = defineCodebook(JSON.parse(JSON.stringify(DEFAULT_CODEBOOK)));
    expect(again).toEqual(DEFAULT_CODEBOOK);
    expect(codebookDigest(again)).toBe(codebookDigest(DEFAULT_CODEBOOK));
  });

  it('has a pinned digest', () => {
    expect(DEFAULT_CODEBOOK.version).toBe('custody-forensic-v1');
    expect(codebookDigest(DEFAULT_CODEBOOK)).toBe(DEFAULT_DIGEST);
  });

  it('lists the twelve findings, and which of them take regions', () => {
    const regional = Object.fromEntries(DEFAULT_CODEBOOK.findings.map((f) => [f.code, f.regional]));
    expect(regional).toEqual({
      emaciation: false,
      blunt_force_injury: true,
      patterned_injury: true,
      ligature_mark_neck: false,
      burns: true,
      electrical_injury: true,
      gunshot_wound: true,
      sharp_force_injury: true,
      eye_injury: false,
      restraint_marks: true,
      untreated_wounds: true,
      decomposition: false,
    });
  });

  it('uses the fixed region vocabulary', () => {
    expect(DEFAULT_CODEBOOK.regions.map((r) => r.code)).toEqual([
      'head',
      'face',
      'neck',
      'chest',
      'abdomen',
      'back',
      'upper_limbs',
      'lower_limbs',
      'hands',
      'feet',
      'genital_region',
      'whole_body',
    ]);
  });

  it('gives every term a one-paragraph definition', () => {
    const terms: CodebookTerm[] = [
      ...DEFAULT_CODEBOOK.values,
      ...DEFAULT_CODEBOOK.sexes,
      ...DEFAULT_CODEBOOK.ageBands,
      ...DEFAULT_CODEBOOK.regions,
      ...DEFAULT_CODEBOOK.findings,
    ];
    for (const t of terms) {
      expect(t.definition.length, t.code).toBeGreaterThan(40);
      expect(t.definition, t.code).not.toMatch(/\s{2}|\n|^\s|\s$/);
    }
  });

  it('is frozen and canonicalizes (no floats, ASCII keys)', () => {
    expect(Object.isFrozen(DEFAULT_CODEBOOK.findings[0])).toBe(true);
    expect(() => canonicalize(DEFAULT_CODEBOOK)).not.toThrow();
  });
});

describe('ageBandRank', () => {
  it('ranks the bands in order and treats undetermined as missing', () => {
    expect(AGE_BANDS.map(ageBandRank)).toEqual([1, 2, 3, 4, 5, 6, null]);
  });
});
