import { parseCsv as parseCsvRecords, CustodyError } from '../core/index.js';
import type { ManifestCheck } from './report.js';

export type ManifestErrorCode = 'MANIFEST_INVALID';
export class ManifestError extends CustodyError<ManifestErrorCode> {}

/**
 * A file name as raw bytes, held in a string with one character per byte (latin1). Names are
 * compared as bytes, never as decoded text: two names in a legacy encoding (windows-1256, say)
 * that are not UTF-8 would both decode to the same U+FFFD characters and merge into one.
 */
export type RawName = string;

export interface SourceManifest {
  format: 'sha256sum' | 'csv';
  /** Normalised relative path (raw bytes, see RawName) → lowercase SHA-256. */
  entries: Map<RawName, string>;
}

/** The RawName of a name's bytes. */
export function rawName(bytes: Uint8Array): RawName {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * How a RawName is shown: its UTF-8 text, or, when the bytes are not UTF-8, the text with U+FFFD
 * for what does not decode followed by the bytes in hex, so that two such names stay apart.
 */
export function displayName(name: RawName): string {
  const bytes = Buffer.from(name, 'latin1');
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return `${lenientUtf8.decode(bytes)} [bytes ${bytes.toString('hex')}]`;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

// In latin1 text, one character per byte: the digest, a space, ' ' or '*', the name.
const SUMSUM_LINE = /^(\\?)([0-9a-fA-F]{64}) [ *](.+)$/s;
const UTF8_BOM = '\u00EF\u00BB\u00BF';

/**
 * Parses a source's own hash list. Untrusted input: it comes from whoever handed the media
 * over. Accepts `sha256sum` output ("<hex>  <path>" or "<hex> *<path>") or a CSV with a header
 * naming a path column (path, file, filename, name) and a digest column (sha256, hash, digest,
 * checksum). Read as bytes: names keep the bytes they were written with, whatever the encoding.
 */
export function parseSourceManifest(input: Uint8Array | string): SourceManifest {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  let text = rawName(bytes);
  if (text.startsWith(UTF8_BOM)) text = text.slice(UTF8_BOM.length);
  const lines = text
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new ManifestError('MANIFEST_INVALID', 'the manifest is empty');
  if (SUMSUM_LINE.test(lines[0] ?? '')) return parseSha256sum(lines);
  return parseCsv(text);
}

function parseSha256sum(lines: string[]): SourceManifest {
  const entries = new Map<RawName, string>();
  lines.forEach((line, i) => {
    const m = SUMSUM_LINE.exec(line);
    const name = m?.[3] === undefined ? null : m[1] === '\\' ? unescapeSha256sum(m[3]) : m[3];
    if (m?.[2] === undefined || name === null) {
      throw new ManifestError(
        'MANIFEST_INVALID',
        `manifest line ${i + 1} is not "<sha256>  <path>": ${displayName(line.slice(0, 120))}`,
      );
    }
    // An escaped name is exactly the bytes coreutils wrote; an unescaped one may come from a
    // Windows tool, whose backslashes are separators.
    add(entries, m[1] === '\\' ? stripDotSlash(name) : normalisePath(name), m[2].toLowerCase(), `line ${i + 1}`);
  });
  return { format: 'sha256sum', entries };
}

/**
 * The name of an escaped line (one starting with a backslash), as GNU coreutils writes it for a
 * name holding a backslash, a newline or a carriage return (md5sum.c, filename_unescape): `\\` is a
 * backslash, `\n` a newline, `\r` a carriage return; any other escape, or a lone backslash at the
 * end, makes the line invalid (null).
 */
export function unescapeSha256sum(escaped: string): string | null {
  let out = '';
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped[i];
    if (c === '\0') return null;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = escaped[++i];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === 'r') out += '\r';
    else return null;
  }
  return out;
}

function add(entries: Map<RawName, string>, name: RawName, sha: string, where: string): void {
  const earlier = entries.get(name);
  if (earlier !== undefined && earlier !== sha)
    throw new ManifestError('MANIFEST_INVALID', `manifest ${where}: ${displayName(name)} is listed twice, with different digests`);
  entries.set(name, sha);
}

function parseCsv(text: string): SourceManifest {
  const records = parseCsvRecords(
    text,
    (m) => new ManifestError('MANIFEST_INVALID', `manifest ${m}`),
  );
  const header = (records[0]?.cells ?? []).map((h) => h.trim().toLowerCase());
  const pathCol = header.findIndex((h) =>
    ['path', 'file', 'filename', 'file_name', 'name'].includes(h),
  );
  const hashCol = header.findIndex((h) =>
    ['sha256', 'sha-256', 'hash', 'digest', 'checksum'].includes(h),
  );
  if (pathCol < 0 || hashCol < 0) {
    throw new ManifestError(
      'MANIFEST_INVALID',
      'the manifest is neither sha256sum output nor a CSV with path and sha256 columns',
    );
  }
  const entries = new Map<RawName, string>();
  records.slice(1).forEach(({ cells }, i) => {
    const p = cells[pathCol];
    const h = cells[hashCol]?.trim();
    if (
      cells.length !== header.length ||
      p === undefined ||
      h === undefined ||
      !/^[0-9a-fA-F]{64}$/.test(h)
    ) {
      throw new ManifestError(
        'MANIFEST_INVALID',
        `manifest row ${i + 2}: expected ${header.length} columns with a 64-hex sha256`,
      );
    }
    add(entries, normalisePath(p), h.toLowerCase(), `row ${i + 2}`);
  });
  return { format: 'csv', entries };
}

function stripDotSlash(p: string): string {
  return p.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

export function normalisePath(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

/**
 * The RawName of an item's path relative to its delivery root, from what the index keeps: the
 * relative path as text and, for a name that is not UTF-8, the whole raw path in hex. U+FFFD never
 * absorbs a '/' (an ASCII byte is never part of an invalid sequence), so the raw path ends in as
 * many components as the text has.
 */
export function itemRawName(relativePath: string, pathRawHex: string | null): RawName {
  if (pathRawHex === null) return rawName(Buffer.from(relativePath, 'utf8'));
  const components = relativePath.split('/').length;
  return rawName(Buffer.from(pathRawHex, 'hex')).split('/').slice(-components).join('/');
}

/**
 * Compares the manifest with what was received (relative path as raw bytes → SHA-256 of the bytes
 * stored), byte for byte. A received path also matches a manifest path that carries the root
 * folder's name in front.
 */
export function checkManifest(
  manifest: SourceManifest,
  manifestSha256: string,
  received: ReadonlyMap<RawName, string>,
  rootNames: readonly string[],
): ManifestCheck {
  const check: ManifestCheck = {
    manifest_sha256: manifestSha256,
    format: manifest.format,
    listed: manifest.entries.size,
    matched: 0,
    mismatched: [],
    missing: [],
    unlisted: [],
  };
  const roots = rootNames.map((r) => rawName(Buffer.from(r, 'utf8')));
  const seen = new Set<RawName>();
  for (const [path, sha] of [...received].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = [path, ...roots.map((r) => `${r}/${path}`)].find((k) => manifest.entries.has(k));
    if (key === undefined) {
      check.unlisted.push(displayName(path));
      continue;
    }
    seen.add(key);
    const expected = manifest.entries.get(key) ?? '';
    if (expected === sha) check.matched++;
    else check.mismatched.push({ path: displayName(path), expected, received: sha });
  }
  for (const path of [...manifest.entries.keys()].sort())
    if (!seen.has(path)) check.missing.push(displayName(path));
  return check;
}
