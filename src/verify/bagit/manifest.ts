import type { FindingList } from './findings.js';
import { checkPath, isPayloadPath, quote } from './paths.js';
import { DIGEST_HEX_LENGTH, type HashAlgorithm } from './source.js';
import { splitLines } from './tag-text.js';

/** One manifest file, parsed: path -> lowercase hex digest, in the order of the file. */
export interface Manifest {
  /** The manifest's own file name, e.g. "manifest-sha256.txt". */
  name: string;
  kind: 'payload' | 'tag';
  algorithm: HashAlgorithm;
  entries: Map<string, string>;
}

const MANIFEST_NAME = /^(tag)?manifest-([a-z0-9]+)\.txt$/;

/**
 * Recognises manifest file names at the bag's top level (RFC 8493 §2.1.3, §2.2.1):
 * "manifest-<alg>.txt" and "tagmanifest-<alg>.txt", algorithm names in lowercase.
 *
 * @example
 *   manifestName('tagmanifest-sha256.txt') // { kind: 'tag', algorithm: 'sha256' }
 */
export function manifestName(path: string): { kind: 'payload' | 'tag'; algorithm: string } | undefined {
  const m = MANIFEST_NAME.exec(path);
  if (!m) return undefined;
  return { kind: m[1] === undefined ? 'payload' : 'tag', algorithm: m[2] ?? '' };
}

/** A manifest line (§2.1.3): the digest, then one or more linear whitespace characters, then the path. */
const LINE = /^([0-9A-Fa-f]+)([ \t]+)(.*)$/;

/**
 * Parses one manifest's text. Findings go to `findings`; lines that cannot be used are dropped.
 * `version` decides how a path listed twice with the same digest is judged: a warning in 0.97,
 * an error in 1.0 (as the LoC conformance suite has it), and always an error with two digests.
 *
 * @example
 *   parseManifest('manifest-md5.txt', 'payload', 'md5', 'd41d8cd98f00b204e9800998ecf8427e  data/empty\n', [1, 0], findings)
 */
export function parseManifest(
  name: string,
  kind: 'payload' | 'tag',
  algorithm: HashAlgorithm,
  text: string,
  version: readonly [number, number],
  findings: FindingList,
): Manifest {
  const entries = new Map<string, string>();
  splitLines(text).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${name} line ${i + 1}`;
    const m = LINE.exec(line);
    const [digest, separator, rawPath] = [m?.[1]?.toLowerCase(), m?.[2], m?.[3] ?? ''];
    if (digest === undefined || rawPath === '') {
      findings.error('BAGIT_MANIFEST_INVALID', `${where} is not "<digest> <path>"`);
      return;
    }
    if (digest.length !== DIGEST_HEX_LENGTH[algorithm]) {
      findings.error('BAGIT_MANIFEST_INVALID', `${where}: digest is not ${algorithm} hex`);
      return;
    }
    let raw = rawPath;
    if (separator === ' ' && raw.startsWith('*')) {
      // md5sum/sha256sum binary-mode marker ("<digest> *<path>"): not RFC 8493, but harmless.
      raw = raw.slice(1);
      findings.warn('BAGIT_MANIFEST_MD5SUM_STYLE', `${where} uses the md5sum "*" binary marker`);
    }
    const checked = checkPath(raw);
    if (!checked.ok) {
      findings.error('BAGIT_PATH_UNSAFE', `${where}: ${checked.reason}: ${quote(raw)}`, raw);
      return;
    }
    const path = checked.path;
    if (checked.dotPrefix) findings.warn('BAGIT_PATH_DOT_PREFIX', `${where} starts with "./"`, path);
    if (kind === 'payload' && !isPayloadPath(path)) {
      findings.error('BAGIT_PATH_UNSAFE', `${where}: a payload manifest may list only data/`, path);
      return;
    }
    const previous = entries.get(path);
    if (previous === undefined) entries.set(path, digest);
    else if (previous !== digest) {
      findings.error('BAGIT_MANIFEST_DUPLICATE', `${name} lists ${quote(path)} twice with different digests`, path);
    } else if (version[0] >= 1) {
      findings.error('BAGIT_MANIFEST_DUPLICATE', `${name} lists ${quote(path)} twice`, path);
    } else {
      findings.warn('BAGIT_MANIFEST_DUPLICATE_SAME_DIGEST', `${name} lists ${quote(path)} twice`, path);
    }
  });
  reportCollisions(name, [...entries.keys()], findings);
  return { name, kind, algorithm, entries };
}

/**
 * Paths that differ only in case or in Unicode normalization name one file on macOS and Windows
 * file systems and two elsewhere: a bag that lists both is not portable (suite "warning" bags).
 */
function reportCollisions(name: string, paths: readonly string[], findings: FindingList): void {
  const byCase = new Map<string, string>();
  for (const p of paths) {
    const folded = p.normalize('NFC').toLowerCase();
    const other = byCase.get(folded);
    if (other !== undefined && other.normalize('NFC') === p.normalize('NFC')) {
      findings.warn('BAGIT_PATH_NORMALIZATION_COLLISION', `${name}: ${quote(p)} and ${quote(other)} differ only in Unicode normalization`, p);
    } else if (other !== undefined) {
      findings.warn('BAGIT_PATH_CASE_COLLISION', `${name}: ${quote(p)} and ${quote(other)} differ only in case`, p);
    }
    byCase.set(folded, p);
  }
}
