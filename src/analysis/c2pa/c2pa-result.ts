// What Custody records about an item's C2PA content credentials, and the policy that turns the
// reader's output into one state. Pure: no I/O. Everything here parses output derived from
// untrusted bytes (the manifest store JSON and the reader's error text both echo labels, titles
// and URLs that the asset's author chose), so every field is narrowed from `unknown` and every
// string that reaches the record is bounded.

/**
 * - `none`: the asset carries no C2PA manifest store (or is a format C2PA does not embed in).
 * - `valid`: the active manifest validated: claim signature, hashed URIs and the hard binding to
 *   the asset's bytes. NOT a statement of trust: see TRUST_LIST_CODES.
 * - `invalid`: a manifest was read and at least one failure code other than a trust-list code
 *   was reported (e.g. `assertion.dataHash.mismatch`: the bytes changed after signing).
 * - `unreadable`: C2PA data is there (or declared, e.g. a remote manifest) but could not be read
 *   or validated; the warnings say why.
 */
export type C2paState = 'none' | 'valid' | 'invalid' | 'unreadable';

export interface C2paActiveManifest {
  label: string;
  claimGenerator: string | null;
  title: string | null;
  /** Issuer of the signing certificate as the certificate names it (not checked against any trust list). */
  signatureIssuer: string | null;
  /** Signing time as c2pa-rs reports it, from the signature's RFC 3161 time-stamp; null without one. */
  signedAt: string | null;
  ingredients: number;
}

export interface C2paResult {
  state: C2paState;
  /**
   * Validation status codes as the C2PA Technical Specification names them (2.x, Validation,
   * "Standard Status Codes": 'claimSignature.validated', 'assertion.dataHash.mismatch', ...), for
   * the active manifest: success, informational and failure codes together, each once, in the
   * reader's order.
   */
  codes: string[];
  activeManifest: C2paActiveManifest | null;
  warnings: string[];
}

/**
 * Failure codes that say only "this certificate does not chain to a trust anchor we hold".
 * Custody validates offline and configures no C2PA trust list (it has none it could keep current
 * offline), so every real signer is reported `signingCredential.untrusted`. These codes are kept in
 * `codes` for the record but do not by themselves make the state `invalid`: integrity (signature,
 * hashes, binding) is what `valid` asserts; who signed is for an examiner to weigh.
 * (C2PA's trust model leaves the trust lists to each validator's configuration.)
 */
export const TRUST_LIST_CODES: ReadonlySet<string> = new Set([
  'signingCredential.untrusted',
  'timeStamp.untrusted',
]);

/**
 * C2PA's JUMBF superboxes are typed by UUIDs of four ASCII letters plus the ISO suffix
 * 0011-0010-8000-00AA00389B71 (C2PA Technical Specification, "C2PA Box Details"): manifest
 * store, standard and update manifests, assertion store, claim, claim signature, credentials
 * and databoxes stores.
 */
const JUMBF_UUID_SUFFIX = Uint8Array.from([
  0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
]);
const C2PA_BOX_TYPES: ReadonlySet<string> = new Set([
  'c2pa',
  'c2ma',
  'c2um',
  'c2as',
  'c2cl',
  'c2cs',
  'c2vc',
  'c2db',
]);

export const MAX_WARNINGS = 20;
const MAX_TEXT = 512;
const MAX_CODES = 200;
/** Codes are identifiers like 'assertion.dataHash.mismatch'; anything else is not a code. */
const CODE_PATTERN = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$/;

/**
 * The first C2PA box description in the bytes (its type and offset), or null. Format-agnostic
 * and independent of the reader: it finds C2PA data even where the store around it is broken.
 * Sixteen specific bytes do not occur by chance in practice.
 *
 * @example
 *   findC2paBoxMarker(signedJpeg) // { type: 'c2pa', offset: 48 }
 */
export function findC2paBoxMarker(bytes: Uint8Array): { type: string; offset: number } | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (
    let at = buf.indexOf(JUMBF_UUID_SUFFIX, 4);
    at >= 4;
    at = buf.indexOf(JUMBF_UUID_SUFFIX, at + 1)
  ) {
    const type = buf.toString('latin1', at - 4, at);
    if (C2PA_BOX_TYPES.has(type)) return { type, offset: at - 4 };
  }
  return null;
}

export function unreadableResult(warning: string, codes: string[] = []): C2paResult {
  return { state: 'unreadable', codes, activeManifest: null, warnings: [clip(warning)] };
}

/**
 * The result for the reader's manifest store JSON (c2pa-rs `Reader::json()`).
 *
 * @example
 *   resultFromManifestStore(json).state // 'valid'
 */
export function resultFromManifestStore(json: string): C2paResult {
  let store: unknown;
  try {
    store = JSON.parse(json);
  } catch {
    return unreadableResult('C2PA reader returned a manifest store that is not JSON');
  }
  if (!isRecord(store)) return unreadableResult('C2PA reader returned no manifest store object');
  const warnings: string[] = [];
  const results = isRecord(store.validation_results) ? store.validation_results : null;
  const active =
    results !== null && isRecord(results.activeManifest) ? results.activeManifest : null;
  const codes = new Set<string>();
  const failures = new Set<string>();
  for (const group of ['success', 'informational', 'failure'] as const) {
    for (const code of statusCodes(active?.[group], warnings)) {
      codes.add(code);
      if (group === 'failure') failures.add(code);
    }
  }
  // The older flat list: c2pa-rs puts the failures of the active manifest here too.
  for (const code of statusCodes(store.validation_status, warnings)) {
    codes.add(code);
    failures.add(code);
  }
  noteIngredientFailures(results?.ingredientDeltas, warnings);
  const codeList = [...codes].slice(0, MAX_CODES);

  const label = typeof store.active_manifest === 'string' ? store.active_manifest : null;
  const manifests = isRecord(store.manifests) ? store.manifests : null;
  const manifest = label !== null && manifests !== null ? manifests[label] : undefined;
  if (label === null || !isRecord(manifest)) {
    warnings.push('the manifest store has no active manifest');
    return {
      state: 'unreadable',
      codes: codeList,
      activeManifest: null,
      warnings: bounded(warnings),
    };
  }
  const state = decideState(failures, store.validation_state, results !== null, warnings);
  return {
    state,
    codes: codeList,
    activeManifest: summarise(label, manifest),
    warnings: bounded(warnings),
  };
}

/**
 * The policy (documented on TRUST_LIST_CODES): any failure code outside the trust-list codes
 * makes the state invalid; the reader's own verdict can only make it stricter.
 */
function decideState(
  failures: ReadonlySet<string>,
  readerState: unknown,
  hasResults: boolean,
  warnings: string[],
): C2paState {
  const integrityFailures = [...failures].filter((c) => !TRUST_LIST_CODES.has(c));
  if (integrityFailures.length > 0) return 'invalid';
  if (readerState === 'Invalid') {
    warnings.push(
      'the C2PA reader judged the manifest Invalid without a failure code; recorded as invalid',
    );
    return 'invalid';
  }
  if (!hasResults && readerState !== 'Valid' && readerState !== 'Trusted') {
    warnings.push('the C2PA reader returned no validation results');
    return 'unreadable';
  }
  return 'valid';
}

function summarise(label: string, m: Record<string, unknown>): C2paActiveManifest {
  const sig = isRecord(m.signature_info) ? m.signature_info : {};
  return {
    label: clip(label),
    claimGenerator: text(m.claim_generator) ?? generatorFromInfo(m.claim_generator_info),
    title: text(m.title),
    signatureIssuer: text(sig.issuer),
    signedAt: text(sig.time),
    ingredients: Array.isArray(m.ingredients) ? m.ingredients.length : 0,
  };
}

/** A v2 claim (C2PA 2.x) has no claim_generator, only claim_generator_info: [{ name, version }]. */
function generatorFromInfo(info: unknown): string | null {
  if (!Array.isArray(info)) return null;
  const parts = info
    .filter(isRecord)
    .map((g) => [text(g.name), text(g.version)].filter((s) => s !== null).join('/'))
    .filter((s) => s !== '');
  return parts.length > 0 ? clip(parts.join(' ')) : null;
}

function statusCodes(list: unknown, warnings: string[]): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const entry of list) {
    const code = isRecord(entry) ? entry.code : undefined;
    if (typeof code === 'string' && code.length <= 100 && CODE_PATTERN.test(code)) out.push(code);
    else warnings.push('the C2PA reader returned a status entry without a well-formed code');
  }
  return out;
}

/** Ingredient validation deltas do not decide the active manifest's state; failures are noted. */
function noteIngredientFailures(deltas: unknown, warnings: string[]): void {
  if (!Array.isArray(deltas)) return;
  for (const d of deltas) {
    if (!isRecord(d) || !isRecord(d.validationDeltas)) continue;
    const uri = text(d.ingredientAssertionURI) ?? 'an ingredient';
    for (const code of statusCodes(d.validationDeltas.failure, warnings)) {
      warnings.push(`ingredient ${uri}: ${code}`);
    }
  }
}

/**
 * The result when the reader refused the bytes. Its errors read `C2pa(Variant(...))`
 * (c2pa-rs `Error` through wasm-bindgen); the variant decides the state.
 *
 * @example
 *   resultFromReaderError('C2pa(JumbfNotFound)', plainJpeg, 'image/jpeg').state // 'none'
 */
export function resultFromReaderError(
  message: string,
  bytes: Uint8Array,
  mediaType: string,
): C2paResult {
  const variant = /^C2pa\((\w+)/.exec(message)?.[1] ?? null;
  if (variant === 'JumbfNotFound' || variant === 'UnsupportedType') {
    const marker = findC2paBoxMarker(bytes);
    if (marker !== null) {
      return unreadableResult(
        `a C2PA '${marker.type}' box is described at byte ${marker.offset}, but the reader found no manifest store it could read (${clean(message)})`,
      );
    }
    const warnings =
      variant === 'UnsupportedType'
        ? [
            clip(
              `the C2PA reader does not know this format (declared ${mediaType}); no embedded manifest was looked for, and no C2PA box appears in the bytes`,
            ),
          ]
        : [];
    return { state: 'none', codes: [], activeManifest: null, warnings };
  }
  if (variant === 'RemoteManifestUrl') {
    const url = /^C2pa\(RemoteManifestUrl\("(.*)"\)\)$/s.exec(message)?.[1] ?? '(unparsed)';
    return unreadableResult(
      `the manifest is remote at ${clean(url)}; Custody reads offline and did not fetch it`,
    );
  }
  return unreadableResult(`C2PA reader: ${clean(message)}`);
}

/** Deduplicated and capped: a hostile store can repeat one bad entry thousands of times. */
function bounded(warnings: string[]): string[] {
  const unique = [...new Set(warnings.map(clip))];
  return unique.length > MAX_WARNINGS
    ? [
        ...unique.slice(0, MAX_WARNINGS - 1),
        `${unique.length - MAX_WARNINGS + 1} more warnings not shown`,
      ]
    : unique;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string | null {
  return typeof v === 'string' ? clip(v) : null;
}

/** Control characters out: these strings end up in logs and reports. */
function clean(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

function clip(s: string): string {
  const c = clean(s);
  return c.length > MAX_TEXT ? `${c.slice(0, MAX_TEXT)}…` : c;
}
