import { parseCsv as parseCsvRecords } from '../core/csv.js';
import { CustodyError } from '../core/errors.js';
import type { ManifestCheck } from './report.js';

export type ManifestErrorCode = 'MANIFEST_INVALID';
export class ManifestError extends CustodyError<ManifestErrorCode> {}

export interface SourceManifest {
  format: 'sha256sum' | 'csv';
  /** Normalised relative path → lowercase SHA-256. */
  entries: Map<string, string>;
}

const SUMSUM_LINE = /^\\?([0-9a-fA-F]{64}) [ *](.+)$/;

/**
 * Parses a source's own hash list. Untrusted input: it comes from whoever handed the media
 * over. Accepts `sha256sum` output ("<hex>  <path>" or "<hex> *<path>") or a CSV with a header
 * naming a path column (path, file, filename, name) and a digest column (sha256, hash, digest,
 * checksum).
 */
export function parseSourceManifest(text: string): SourceManifest {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new ManifestError('MANIFEST_INVALID', 'the manifest is empty');
  if (SUMSUM_LINE.test(lines[0] ?? '')) return parseSha256sum(lines);
  return parseCsv(text.replace(/^\uFEFF/, ''));
}

function parseSha256sum(lines: string[]): SourceManifest {
  const entries = new Map<string, string>();
  lines.forEach((line, i) => {
    const m = SUMSUM_LINE.exec(line);
    if (m?.[1] === undefined || m[2] === undefined) {
      throw new ManifestError(
        'MANIFEST_INVALID',
        `manifest line ${i + 1} is not "<sha256>  <path>": ${line.slice(0, 120)}`,
      );
    }
    entries.set(normalisePath(m[2]), m[1].toLowerCase());
  });
  return { format: 'sha256sum', entries };
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
  const entries = new Map<string, string>();
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
    entries.set(normalisePath(p), h.toLowerCase());
  });
  return { format: 'csv', entries };
}

export function normalisePath(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

/**
 * Compares the manifest with what was received (relative path → SHA-256 of the bytes stored).
 * A received path also matches a manifest path that carries the root folder's name in front.
 */
export function checkManifest(
  manifest: SourceManifest,
  manifestSha256: string,
  received: ReadonlyMap<string, string>,
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
  const seen = new Set<string>();
  for (const [path, sha] of [...received].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = [path, ...rootNames.map((r) => `${r}/${path}`)].find((k) =>
      manifest.entries.has(k),
    );
    if (key === undefined) {
      check.unlisted.push(path);
      continue;
    }
    seen.add(key);
    const expected = manifest.entries.get(key) ?? '';
    if (expected === sha) check.matched++;
    else check.mismatched.push({ path, expected, received: sha });
  }
  for (const path of [...manifest.entries.keys()].sort())
    if (!seen.has(path)) check.missing.push(path);
  return check;
}
