import { describe, expect, it } from 'vitest';
import { CatalogueError } from './errors.js';
import { parseWithSchemes } from './match.js';
import type { Registries } from './parse.js';
import { defineNumberingScheme } from './scheme.js';

const CARD = defineNumberingScheme({
  id: 'caesar-card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
});
const BRANCH_REPORT = defineNumberingScheme({
  id: 'branch-report',
  pattern: '{branch}/{report}',
  fields: {
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
});
const FORENSIC = defineNumberingScheme({
  id: 'forensic',
  pattern: 'FR/{report}',
  fields: { report: { type: 'integer', min: 1, max: 99999 } },
});
const UNITS: Registries = { units: (code) => code === 215 || code === 227 };
const ALL = [CARD, BRANCH_REPORT, FORENSIC];

function refusal(schemes: typeof ALL, raw: string, registries: Registries = UNITS): CatalogueError {
  try {
    parseWithSchemes(schemes, raw, registries);
  } catch (e) {
    if (e instanceof CatalogueError) return e;
    throw e;
  }
  throw new Error(`expected ${raw} to be refused`);
}

describe('parseWithSchemes', () => {
  it('returns the one scheme that accepts the number', () => {
    expect(parseWithSchemes(ALL, '١٢٣٤/٢١٥/٥٦٧٨', UNITS).schemeId).toBe('caesar-card');
    expect(parseWithSchemes(ALL, '215-5678', UNITS).schemeId).toBe('branch-report');
    expect(parseWithSchemes(ALL, 'fr 5678', UNITS)).toMatchObject({
      schemeId: 'forensic',
      normalised: 'FR/5678',
    });
  });

  it('lists why each scheme failed when none accepts', () => {
    const e = refusal(ALL, '1234/216/5678');
    expect(e.code).toBe('NUMBER_NO_SCHEME_MATCHES');
    expect(e.details.failures).toEqual([
      expect.objectContaining({
        schemeId: 'caesar-card',
        code: 'NUMBER_UNKNOWN_REGISTRY_VALUE',
        field: 'branch',
      }),
      expect.objectContaining({ schemeId: 'branch-report', code: 'NUMBER_MALFORMED', field: null }),
      expect.objectContaining({ schemeId: 'forensic', code: 'NUMBER_MALFORMED', field: null }),
    ]);
    expect(e.message).toContain('caesar-card');
  });

  it('refuses an ambiguous number rather than choosing', () => {
    const loose = defineNumberingScheme({
      id: 'any-pair',
      pattern: '{a}/{b}',
      fields: {
        a: { type: 'integer', min: 0, max: 9999 },
        b: { type: 'integer', min: 0, max: 99999 },
      },
    });
    const e = refusal([CARD, BRANCH_REPORT, loose], '227/1234');
    expect(e.code).toBe('NUMBER_AMBIGUOUS');
    expect(e.details.matches).toEqual(['branch-report', 'any-pair']);
  });

  it('rethrows a missing registry instead of treating it as a mismatch', () => {
    expect(refusal(ALL, '215/12', {}).code).toBe('NUMBER_REGISTRY_MISSING');
    // A scheme that fails on syntax never reaches its registry, so FR/12 still parses.
    expect(parseWithSchemes(ALL, 'FR/12', {}).schemeId).toBe('forensic');
  });

  it('refuses a list that names one scheme twice, and an empty list matches nothing', () => {
    expect(refusal([FORENSIC, FORENSIC], 'FR/12').code).toBe('NUMBER_SCHEME_INVALID');
    expect(refusal([], 'FR/12').code).toBe('NUMBER_NO_SCHEME_MATCHES');
  });
});
