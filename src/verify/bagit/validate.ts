import { FindingList, type BagitErrorCode, type BagitFinding, type BagitWarningCode } from './findings.js';
import { parseManifest, manifestName, type Manifest } from './manifest.js';
import { checkPath, isPayloadPath, isSpecialSystemFile, quote } from './paths.js';
import { isHashAlgorithm, type BagEntry, type BagSource, type HashAlgorithm } from './source.js';
import {
  decodeTagText,
  encodingFromName,
  parseDeclaration,
  parseTagElements,
  splitLines,
  valuesOf,
  type TagElement,
  type TagEncoding,
} from './tag-text.js';

export interface BagitResult {
  valid: boolean;
  errors: BagitFinding<BagitErrorCode>[];
  warnings: BagitFinding<BagitWarningCode>[];
  /** "0.97" or "1.0" when the declaration could be read. */
  version?: string;
  /** bag-info.txt elements, in order (empty when absent or unreadable). */
  bagInfo: TagElement[];
  manifests: Manifest[];
  /** Digests computed while validating: path -> algorithm -> lowercase hex. */
  computed: Map<string, Map<HashAlgorithm, string>>;
  /** The bag's listing, as the source gave it. */
  entries: BagEntry[];
}

const SUPPORTED_VERSIONS = ['0.97', '1.0'];

/**
 * Validates a bag per RFC 8493 §3: complete (declaration, payload directory, at least one payload
 * manifest, every payload file listed, every listed file present) and valid (every digest matches,
 * Payload-Oxum agrees). BagIt 0.97 and 1.0 are supported; earlier drafts are reported as
 * BAGIT_VERSION_UNSUPPORTED. fetch.txt is honoured only when every file it names is already here.
 *
 * @example
 *   const result = await validateBag(await openBagDir('/exports/case-12'));
 *   result.valid // true, or false with result.errors[0].code === 'BAGIT_DIGEST_MISMATCH', …
 */
export async function validateBag(source: BagSource): Promise<BagitResult> {
  const findings = new FindingList();
  const entries = await source.list();
  const result: BagitResult = {
    valid: false,
    errors: findings.errors,
    warnings: findings.warnings,
    bagInfo: [],
    manifests: [],
    computed: new Map(),
    entries,
  };
  const opened = await readDeclaration(source, findings);
  if (opened === undefined) return finish(result);
  result.version = opened.version;
  const files = new Map(entries.filter((e) => e.kind === 'file').map((e) => [e.path, e]));
  if (!entries.some((e) => e.path === 'data' && e.kind === 'dir')) {
    findings.error('BAGIT_PAYLOAD_DIR_MISSING', 'the bag has no data/ directory (RFC 8493 §2.1.2)');
  }
  for (const e of entries.filter((x) => x.kind === 'other')) {
    findings.error('BAGIT_PATH_UNSAFE', `${quote(e.path)} is not a regular file or directory`, e.path);
  }
  const version = opened.version === '1.0' ? ([1, 0] as const) : ([0, 97] as const);
  result.manifests = await readManifests(source, files, opened.encoding, version, findings);
  result.bagInfo = await readBagInfo(source, files, opened.encoding, findings);
  const fetched = await readFetch(source, files, opened.encoding, findings);
  checkCompleteness(result.manifests, files, fetched, version, findings);
  result.computed = await checkDigests(source, result.manifests, files, findings);
  checkOxum(result.bagInfo, files, findings);
  for (const path of files.keys()) {
    if (isPayloadPath(path) && isSpecialSystemFile(path)) {
      findings.warn('BAGIT_SPECIAL_FILE', `${quote(path)} is operating-system litter`, path);
    }
  }
  return finish(result);
}

function finish(result: BagitResult): BagitResult {
  result.valid = result.errors.length === 0;
  return result;
}

/** Reads a tag file, turning read and decode failures into BAGIT_TAG_FILE_UNREADABLE. */
async function readText(
  source: BagSource,
  path: string,
  encoding: TagEncoding,
  findings: FindingList,
): Promise<string | undefined> {
  try {
    const bytes = await source.read(path);
    return bytes === undefined ? undefined : decodeTagText(bytes, encoding);
  } catch (e) {
    findings.error('BAGIT_TAG_FILE_UNREADABLE', `${path}: ${(e as Error).message}`, path);
    return undefined;
  }
}

/** bagit.txt (RFC 8493 §2.1.1); undefined when the bag cannot be read any further. */
async function readDeclaration(
  source: BagSource,
  findings: FindingList,
): Promise<{ version: string; encoding: TagEncoding } | undefined> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await source.read('bagit.txt');
  } catch (e) {
    findings.error('BAGIT_TAG_FILE_UNREADABLE', `bagit.txt: ${(e as Error).message}`, 'bagit.txt');
    return undefined;
  }
  if (bytes === undefined) {
    findings.error('BAGIT_DECLARATION_MISSING', `no bagit.txt in ${source.location}: not a bag`);
    return undefined;
  }
  const decl = parseDeclaration(bytes);
  if (typeof decl === 'string') {
    findings.error('BAGIT_DECLARATION_INVALID', decl, 'bagit.txt');
    return undefined;
  }
  for (const p of decl.problems) findings.error('BAGIT_DECLARATION_INVALID', p, 'bagit.txt');
  const version = decl.version.join('.');
  if (!SUPPORTED_VERSIONS.includes(version)) {
    findings.error('BAGIT_VERSION_UNSUPPORTED', `BagIt-Version ${version} is not supported (only 0.97 and 1.0)`, 'bagit.txt');
    return undefined;
  }
  const encoding = encodingFromName(decl.encodingName);
  if (encoding === undefined) {
    findings.error('BAGIT_ENCODING_UNSUPPORTED', `Tag-File-Character-Encoding ${decl.encodingName} is not supported`, 'bagit.txt');
    return undefined;
  }
  return { version, encoding };
}

async function readManifests(
  source: BagSource,
  files: ReadonlyMap<string, BagEntry>,
  encoding: TagEncoding,
  version: readonly [number, number],
  findings: FindingList,
): Promise<Manifest[]> {
  const manifests: Manifest[] = [];
  let payloadManifests = 0;
  for (const path of [...files.keys()].sort()) {
    const named = manifestName(path);
    if (named === undefined) continue;
    if (named.kind === 'payload') payloadManifests++;
    if (!isHashAlgorithm(named.algorithm)) {
      findings.warn('BAGIT_ALGORITHM_UNSUPPORTED', `${path}: algorithm ${named.algorithm} is not supported; not checked`, path);
      continue;
    }
    const text = await readText(source, path, encoding, findings);
    if (text === undefined) continue;
    manifests.push(parseManifest(path, named.kind, named.algorithm, text, version, findings));
  }
  if (!manifests.some((m) => m.kind === 'payload')) {
    const why = payloadManifests === 0 ? 'no payload manifest' : 'no payload manifest in a supported algorithm';
    findings.error('BAGIT_MANIFEST_MISSING', `${why} (RFC 8493 §2.1.3)`);
  }
  return manifests;
}

/** bag-info.txt (RFC 8493 §2.2.2); optional. */
async function readBagInfo(
  source: BagSource,
  files: ReadonlyMap<string, BagEntry>,
  encoding: TagEncoding,
  findings: FindingList,
): Promise<TagElement[]> {
  if (!files.has('bag-info.txt')) return [];
  const text = await readText(source, 'bag-info.txt', encoding, findings);
  if (text === undefined) return [];
  const { elements, badLines } = parseTagElements(text);
  for (const n of badLines) {
    findings.error('BAGIT_BAG_INFO_INVALID', `bag-info.txt line ${n} is not "Label: value"`, 'bag-info.txt');
  }
  return elements;
}

/**
 * fetch.txt (RFC 8493 §2.2.3): "<url> <length|-> <path>" per line. We never fetch; the returned
 * set lets completeness report a missing file it names as BAGIT_FETCH_UNSUPPORTED.
 */
async function readFetch(
  source: BagSource,
  files: ReadonlyMap<string, BagEntry>,
  encoding: TagEncoding,
  findings: FindingList,
): Promise<Set<string>> {
  const named = new Set<string>();
  if (!files.has('fetch.txt')) return named;
  const text = await readText(source, 'fetch.txt', encoding, findings);
  if (text === undefined) return named;
  splitLines(text).forEach((line, i) => {
    const m = /^(\S+)[ \t]+(-|[0-9]+)[ \t]+(.+)$/.exec(line);
    if (!m) {
      if (line.trim() !== '') findings.error('BAGIT_FETCH_INVALID', `fetch.txt line ${i + 1} is not "<url> <length> <path>"`, 'fetch.txt');
      return;
    }
    const checked = checkPath(m[3] ?? '');
    if (!checked.ok || !isPayloadPath(checked.path)) {
      const reason = checked.ok ? 'fetch.txt may name only files under data/' : checked.reason;
      findings.error('BAGIT_PATH_UNSAFE', `fetch.txt line ${i + 1}: ${reason}: ${quote(m[3] ?? '')}`, m[3]);
      return;
    }
    named.add(checked.path);
  });
  const absent = [...named].filter((p) => !files.has(p));
  if (absent.length > 0) {
    findings.error('BAGIT_FETCH_UNSUPPORTED', `fetch.txt names ${absent.length} file(s) not in the bag, e.g. ${quote(absent[0] ?? '')}; fetching is not supported`);
  } else if (named.size > 0) {
    findings.warn('BAGIT_FETCH_PRESENT', 'fetch.txt is present, but every file it names is already in the bag');
  }
  return named;
}

/**
 * RFC 8493 §3 "complete": every listed file exists; every payload file is listed in every payload
 * manifest (1.0, §2.1.3) or in at least one (0.97, where several partial manifests were allowed).
 */
function checkCompleteness(
  manifests: readonly Manifest[],
  files: ReadonlyMap<string, BagEntry>,
  fetched: ReadonlySet<string>,
  version: readonly [number, number],
  findings: FindingList,
): void {
  for (const m of manifests) {
    for (const path of m.entries.keys()) {
      if (files.has(path) || fetched.has(path)) continue; // fetch.txt has its own finding
      findings.error('BAGIT_FILE_MISSING', `${m.name} lists ${quote(path)}, which is not in the bag`, path);
    }
  }
  const payload = manifests.filter((m) => m.kind === 'payload');
  if (payload.length === 0) return;
  for (const path of files.keys()) {
    if (!isPayloadPath(path)) continue;
    const missingFrom = payload.filter((m) => !m.entries.has(path));
    if (missingFrom.length === payload.length || (version[0] >= 1 && missingFrom.length > 0)) {
      const where = missingFrom.map((m) => m.name).join(', ');
      findings.error('BAGIT_FILE_UNLISTED', `${quote(path)} is in data/ but not in ${where}`, path);
    }
  }
}

/** RFC 8493 §3 "valid": every digest of every manifest matches the file's bytes. */
async function checkDigests(
  source: BagSource,
  manifests: readonly Manifest[],
  files: ReadonlyMap<string, BagEntry>,
  findings: FindingList,
): Promise<Map<string, Map<HashAlgorithm, string>>> {
  const wanted = new Map<string, Set<HashAlgorithm>>();
  for (const m of manifests) {
    for (const path of m.entries.keys()) {
      if (files.has(path)) wanted.set(path, (wanted.get(path) ?? new Set()).add(m.algorithm));
    }
  }
  const computed = new Map<string, Map<HashAlgorithm, string>>();
  for (const [path, algorithms] of wanted) {
    const digests = await source.digest(path, [...algorithms]);
    if (digests !== undefined) computed.set(path, digests);
  }
  for (const m of manifests) {
    for (const [path, expected] of m.entries) {
      const actual = computed.get(path)?.get(m.algorithm);
      if (actual !== undefined && actual !== expected) {
        findings.error('BAGIT_DIGEST_MISMATCH', `${quote(path)}: ${m.algorithm} is ${actual}, ${m.name} says ${expected}`, path);
      }
    }
  }
  return computed;
}

/** Payload-Oxum "<octets>.<files>" (RFC 8493 §2.2.2), checked when present. */
function checkOxum(bagInfo: readonly TagElement[], files: ReadonlyMap<string, BagEntry>, findings: FindingList): void {
  const payload = [...files.values()].filter((e) => isPayloadPath(e.path));
  const octets = payload.reduce((sum, e) => sum + e.size, 0);
  for (const value of valuesOf(bagInfo, 'Payload-Oxum')) {
    const m = /^([0-9]+)\.([0-9]+)$/.exec(value);
    if (!m) {
      findings.error('BAGIT_BAG_INFO_INVALID', `Payload-Oxum "${value}" is not <octets>.<files>`, 'bag-info.txt');
    } else if (Number(m[1]) !== octets || Number(m[2]) !== payload.length) {
      findings.error('BAGIT_OXUM_MISMATCH', `Payload-Oxum is ${value}, the payload is ${octets}.${payload.length}`, 'bag-info.txt');
    }
  }
}
