import { describe, expect, it } from 'vitest';
import {
  findC2paBoxMarker,
  MAX_WARNINGS,
  resultFromManifestStore,
  resultFromReaderError,
} from './c2pa-result.js';

const LABEL = 'urn:c2pa:0a1b2c3d';
const status = (...codes: string[]) =>
  codes.map((code) => ({ code, url: 'self#jumbf=x', explanation: 'e' }));

/** A manifest store JSON in the shape c2pa-rs Reader::json() prints. */
function store(
  overrides: {
    success?: string[];
    informational?: string[];
    failure?: string[];
    validationStatus?: string[];
    validationState?: string;
    manifest?: Record<string, unknown>;
    ingredientDeltas?: unknown;
    activeManifest?: string | null;
  } = {},
): string {
  return JSON.stringify({
    active_manifest: overrides.activeManifest === undefined ? LABEL : overrides.activeManifest,
    manifests: {
      [LABEL]: overrides.manifest ?? {
        claim_generator: 'Camera/1.0 c2pa-rs/0.33',
        title: 'IMG_0001.jpg',
        ingredients: [{}, {}],
        signature_info: { issuer: 'Example CA', time: '2024-08-06T21:53:37+00:00' },
      },
    },
    validation_status:
      overrides.validationStatus === undefined ? undefined : status(...overrides.validationStatus),
    validation_results: {
      activeManifest: {
        success: status(
          ...(overrides.success ?? ['claimSignature.validated', 'assertion.dataHash.match']),
        ),
        informational: status(...(overrides.informational ?? [])),
        failure: status(...(overrides.failure ?? [])),
      },
      ingredientDeltas: overrides.ingredientDeltas,
    },
    validation_state: overrides.validationState ?? 'Valid',
  });
}

describe('resultFromManifestStore: the state policy', () => {
  it('a validated manifest whose signer is merely untrusted is valid, the code kept', () => {
    const r = resultFromManifestStore(
      store({
        failure: ['signingCredential.untrusted'],
        validationStatus: ['signingCredential.untrusted'],
      }),
    );
    expect(r.state).toBe('valid');
    expect(r.codes).toEqual([
      'claimSignature.validated',
      'assertion.dataHash.match',
      'signingCredential.untrusted',
    ]);
    expect(r.warnings).toEqual([]);
    expect(r.activeManifest).toEqual({
      label: LABEL,
      claimGenerator: 'Camera/1.0 c2pa-rs/0.33',
      title: 'IMG_0001.jpg',
      signatureIssuer: 'Example CA',
      signedAt: '2024-08-06T21:53:37+00:00',
      ingredients: 2,
    });
  });

  it('any other failure code makes it invalid', () => {
    const r = resultFromManifestStore(
      store({
        success: ['claimSignature.validated'],
        failure: ['signingCredential.untrusted', 'assertion.dataHash.mismatch'],
        validationState: 'Invalid',
      }),
    );
    expect(r.state).toBe('invalid');
    expect(r.codes).toContain('assertion.dataHash.mismatch');
  });

  it('a failure listed only in the flat validation_status counts too', () => {
    expect(
      resultFromManifestStore(store({ validationStatus: ['claimSignature.mismatch'] })).state,
    ).toBe('invalid');
  });

  it("the reader's own Invalid verdict without a failure code still makes it invalid, with a warning", () => {
    const r = resultFromManifestStore(store({ validationState: 'Invalid' }));
    expect(r.state).toBe('invalid');
    expect(r.warnings[0]).toMatch(/judged the manifest Invalid/);
  });

  it('ingredient failures are warnings, not the active manifest state', () => {
    const deltas = [
      {
        ingredientAssertionURI: 'self#jumbf=c2pa.assertions/c2pa.ingredient',
        validationDeltas: {
          success: [],
          informational: [],
          failure: status('assertion.dataHash.mismatch'),
        },
      },
    ];
    const r = resultFromManifestStore(store({ ingredientDeltas: deltas }));
    expect(r.state).toBe('valid');
    expect(r.codes).not.toContain('assertion.dataHash.mismatch');
    expect(r.warnings).toEqual([
      'ingredient self#jumbf=c2pa.assertions/c2pa.ingredient: assertion.dataHash.mismatch',
    ]);
  });

  it('a claim v2 names its generator only in claim_generator_info', () => {
    const r = resultFromManifestStore(
      store({
        manifest: { claim_generator_info: [{ name: 'App', version: '2.1' }, { name: 'c2pa-rs' }] },
      }),
    );
    expect(r.activeManifest).toMatchObject({
      claimGenerator: 'App/2.1 c2pa-rs',
      title: null,
      signatureIssuer: null,
      signedAt: null,
      ingredients: 0,
    });
  });

  it('no active manifest, or no JSON: unreadable', () => {
    expect(resultFromManifestStore(store({ activeManifest: null })).state).toBe('unreadable');
    expect(resultFromManifestStore(store({ activeManifest: 'urn:c2pa:elsewhere' })).state).toBe(
      'unreadable',
    );
    expect(resultFromManifestStore('{"truncated').state).toBe('unreadable');
    expect(resultFromManifestStore('[]').state).toBe('unreadable');
  });

  it('attacker-chosen text is bounded and loses control characters; malformed codes are dropped', () => {
    const r = resultFromManifestStore(
      store({
        manifest: { title: `a\u0000b\u001b[31m${'x'.repeat(5000)}` },
        success: ['claimSignature.validated', 'not a code!', 'x'.repeat(300)],
      }),
    );
    expect(r.activeManifest?.title?.startsWith('a b [31mxxx')).toBe(true);
    expect(r.activeManifest?.title?.length).toBeLessThanOrEqual(513);
    expect(r.codes).toEqual(['claimSignature.validated']);
    expect(r.warnings).toEqual([
      'the C2PA reader returned a status entry without a well-formed code',
    ]);
  });

  it('thousands of ingredient failures give at most MAX_WARNINGS warnings', () => {
    const deltas = Array.from({ length: 5000 }, (_, i) => ({
      ingredientAssertionURI: `i${i}`,
      validationDeltas: { failure: status('assertion.dataHash.mismatch') },
    }));
    const r = resultFromManifestStore(store({ ingredientDeltas: deltas }));
    expect(r.warnings).toHaveLength(MAX_WARNINGS);
    expect(r.warnings.at(-1)).toBe(`${5000 - MAX_WARNINGS + 1} more warnings not shown`);
  });
});

describe('resultFromReaderError', () => {
  const plain = Buffer.from('\xff\xd8 plain jpeg bytes \xff\xd9', 'latin1');
  const claimBox = Buffer.concat([
    Buffer.from('....jumd'),
    Buffer.from('c2cl'),
    Buffer.from('00110010800000aa00389b71', 'hex'),
  ]);

  it('no JUMBF and no C2PA box anywhere: none', () => {
    expect(resultFromReaderError('C2pa(JumbfNotFound)', plain, 'image/jpeg')).toEqual({
      state: 'none',
      codes: [],
      activeManifest: null,
      warnings: [],
    });
  });

  it('no JUMBF found by the reader, but a C2PA box described in the bytes: unreadable', () => {
    const bytes = Buffer.concat([plain, claimBox]);
    const r = resultFromReaderError('C2pa(JumbfNotFound)', bytes, 'image/jpeg');
    expect(r.state).toBe('unreadable');
    expect(r.warnings[0]).toBe(
      `a C2PA 'c2cl' box is described at byte ${plain.length + 8}, but the reader found no manifest store it could read (C2pa(JumbfNotFound))`,
    );
  });

  it('a format the reader does not know: none, with a warning', () => {
    const r = resultFromReaderError('C2pa(UnsupportedType)', Buffer.from('hello'), 'text/plain');
    expect(r.state).toBe('none');
    expect(r.warnings).toEqual([
      'the C2PA reader does not know this format (declared text/plain); no embedded manifest was looked for, and no C2PA box appears in the bytes',
    ]);
  });

  it('a remote manifest: unreadable, naming the URL it did not fetch', () => {
    const r = resultFromReaderError(
      'C2pa(RemoteManifestUrl("https://example.org/m.c2pa"))',
      plain,
      'image/jpeg',
    );
    expect(r).toMatchObject({
      state: 'unreadable',
      warnings: [
        'the manifest is remote at https://example.org/m.c2pa; Custody reads offline and did not fetch it',
      ],
    });
  });

  it('any other refusal: unreadable with the reader text', () => {
    const r = resultFromReaderError('C2pa(JumbfParseError(UnexpectedEof))', plain, 'image/jpeg');
    expect(r).toMatchObject({
      state: 'unreadable',
      warnings: ['C2PA reader: C2pa(JumbfParseError(UnexpectedEof))'],
    });
  });
});

describe('findC2paBoxMarker', () => {
  it('finds C2PA box types, not other JUMBF content types with the same ISO suffix', () => {
    const suffix = Buffer.from('00110010800000aa00389b71', 'hex');
    expect(findC2paBoxMarker(Buffer.concat([Buffer.from('xxjson'), suffix]))).toBeNull();
    expect(
      findC2paBoxMarker(
        Buffer.concat([Buffer.from('xxjson'), suffix, Buffer.from('c2pa'), suffix]),
      ),
    ).toEqual({ type: 'c2pa', offset: 18 });
    expect(findC2paBoxMarker(suffix)).toBeNull();
    expect(findC2paBoxMarker(new Uint8Array(0))).toBeNull();
  });
});
