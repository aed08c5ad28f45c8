import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../core/index.js';
import {
  AGE_BANDS,
  CUSTODY_FORENSIC_V1,
  CUSTODY_FORENSIC_V2,
  DEFAULT_CODEBOOK,
  ageBandRank,
  codebookDigest,
  defineCodebook,
  type CodebookTerm,
} from './index.js';

// Pinned: changing any word of a built-in codebook (English or Arabic) changes its digest, and
// must come with a new version string (plans, reports and stats records cite version + digest).
// v1 is pinned forever: plans drawn with it recorded this digest in the ledger.
const V1_DIGEST = 'ffbc768df3bdf2bf304851184b6a4e6a90882fdb3656a468822cc69e3c709f3a';
const V2_DIGEST = '1eaaeed4a42edd319ec39a60d3880316e7e8469474d46e65b877bdcdf3732b9d';

describe('DEFAULT_CODEBOOK', () => {
  it('passes its own validation, also after a JSON round trip', () => {
    const again = defineCodebook(JSON.parse(JSON.stringify(DEFAULT_CODEBOOK)));
    expect(again).toEqual(DEFAULT_CODEBOOK);
    expect(codebookDigest(again)).toBe(codebookDigest(DEFAULT_CODEBOOK));
  });

  it('is version 2, with a pinned digest', () => {
    expect(DEFAULT_CODEBOOK).toBe(CUSTODY_FORENSIC_V2);
    expect(DEFAULT_CODEBOOK.version).toBe('custody-forensic-v2');
    expect(codebookDigest(DEFAULT_CODEBOOK)).toBe(V2_DIGEST);
  });

  it('keeps version 1 byte for byte: same digest, no translations key, still valid', () => {
    expect(CUSTODY_FORENSIC_V1.version).toBe('custody-forensic-v1');
    expect(codebookDigest(CUSTODY_FORENSIC_V1)).toBe(V1_DIGEST);
    expect('translations' in CUSTODY_FORENSIC_V1).toBe(false);
    const again = defineCodebook(JSON.parse(canonicalize(CUSTODY_FORENSIC_V1)));
    expect('translations' in again).toBe(false);
    expect(codebookDigest(again)).toBe(V1_DIGEST);
  });

  it('version 2 has the English of version 1 word for word', () => {
    const { translations, version, title, ...english } = CUSTODY_FORENSIC_V2;
    const { version: v1, title: t1, ...english1 } = CUSTODY_FORENSIC_V1;
    expect([version, v1, translations === undefined]).toEqual(['custody-forensic-v2', 'custody-forensic-v1', false]);
    expect(title).not.toBe(t1);
    expect(english).toEqual(english1);
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

const ARABIC_RE = /[\u0600-\u06FF]/;
const LISTS = ['values', 'sexes', 'ageBands', 'regions', 'findings'] as const;

describe('the Arabic of custody-forensic-v2', () => {
  const ar = CUSTODY_FORENSIC_V2.translations?.ar;

  it('is marked as needing review by a native-speaking forensic practitioner', () => {
    expect(ar?.status).toBe('needs-review-by-native-forensic-practitioner');
  });

  it('gives every finding, value, sex, age band and region an Arabic label and definition', () => {
    expect(ar).toBeDefined();
    expect(ar!.title).toMatch(ARABIC_RE);
    expect(ar!.instructions).toMatch(ARABIC_RE);
    for (const list of LISTS) {
      const codes = CUSTODY_FORENSIC_V2[list].map((t) => t.code);
      expect(Object.keys(ar![list]).sort(), list).toEqual([...codes].sort());
      for (const code of codes) {
        const term = ar![list][code];
        expect(term?.label, `${list}.${code}.label`).toMatch(ARABIC_RE);
        expect(term?.definition, `${list}.${code}.definition`).toMatch(ARABIC_RE);
        expect(term!.definition.length, `${list}.${code}`).toBeGreaterThan(30);
        expect(term!.definition, `${list}.${code}`).not.toMatch(/\s{2}|\n|^\s|\s$/);
      }
    }
  });

  it('uses the forensic terms for the key findings', () => {
    expect(ar?.findings.emaciation?.label).toBe('هزال');
    expect(ar?.findings.ligature_mark_neck?.label).toContain('أثر رباط');
    expect(ar?.findings.burns?.label).toBe('حروق');
    expect(ar?.findings.blunt_force_injury?.definition).toContain('كدمات');
    expect(ar?.findings.blunt_force_injury?.definition).toContain('السحجات');
    expect(ar?.findings.eye_injury?.definition).toContain('النمشات النزفية');
  });

  it('is inside the digested bytes: one changed Arabic word makes another digest', () => {
    const copy = JSON.parse(canonicalize(CUSTODY_FORENSIC_V2)) as {
      version: string;
      translations: { ar: { findings: Record<string, { definition: string }> } };
    };
    copy.version = 'team-v2-edited';
    const same = defineCodebook({ ...copy });
    const emaciation = copy.translations.ar.findings.emaciation!;
    emaciation.definition = emaciation.definition.replace('هزال', 'نحافة');
    const edited = defineCodebook(copy);
    expect(edited.translations?.ar?.findings.emaciation?.definition).toContain('نحافة');
    expect(codebookDigest(edited)).not.toBe(codebookDigest(same));
  });

  it('refuses the version string custody-forensic-v2 for edited Arabic (one version, one meaning)', () => {
    const copy = JSON.parse(canonicalize(CUSTODY_FORENSIC_V2)) as {
      translations: { ar: { findings: Record<string, { label: string }> } };
    };
    copy.translations.ar.findings.burns!.label = 'حرق';
    let caught: unknown;
    try {
      defineCodebook(copy);
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: 'CODEBOOK_INVALID', details: { path: 'version' } });
  });
});

describe('ageBandRank', () => {
  it('ranks the bands in order and treats undetermined as missing', () => {
    expect(AGE_BANDS.map(ageBandRank)).toEqual([1, 2, 3, 4, 5, 6, null]);
  });
});
