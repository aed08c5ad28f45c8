/**
 * File paths in manifests and fetch.txt (RFC 8493 §2.1.3, §2.2.3, §5). Untrusted input: a path is
 * only ever compared with the bag's own listing, never joined onto a directory here, but we still
 * refuse anything that would point outside the bag if someone did.
 */

export type PathCheck =
  | { ok: true; path: string; dotPrefix: boolean }
  | { ok: false; reason: string };

/**
 * Decodes the only percent-escapes RFC 8493 §2.1.3 defines: %0A (LF), %0D (CR) and %25 ('%').
 * Anything else stays literal: the suite's "bag-with-encoded-names" holds a real file named
 * "%7Etest1.txt".
 *
 * @example
 *   decodeManifestPath('data/a%0Ab%25') // 'data/a\nb%'
 */
export function decodeManifestPath(raw: string): string {
  return raw.replace(/%(0A|0D|25)/gi, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
}

/**
 * Decodes and checks one path (RFC 8493 §5.1 and §2.1.3: "MUST NOT reference files outside the
 * payload directory" for payload manifests, the bag for the others). Refused: empty, absolute
 * ('/x', 'C:x', '\\\\host'), '~' shortcuts (shell expansion), '..' or '.' segments, empty
 * segments, backslashes (a separator on Windows) and NUL. A leading "./" is accepted and reported.
 *
 * @example
 *   checkPath('./data/x.txt')   // { ok: true, path: 'data/x.txt', dotPrefix: true }
 *   checkPath('../../etc/passwd') // { ok: false, reason: 'a ".." segment leaves the bag' }
 */
export function checkPath(raw: string): PathCheck {
  let path = decodeManifestPath(raw);
  let dotPrefix = false;
  while (path.startsWith('./')) [path, dotPrefix] = [path.slice(2), true];
  if (path === '') return { ok: false, reason: 'empty path' };
  if (path.startsWith('/')) return { ok: false, reason: 'absolute path' };
  if (/^[A-Za-z]:/.test(path)) return { ok: false, reason: 'drive-letter path' };
  if (path.startsWith('~')) return { ok: false, reason: 'home-directory shortcut "~"' };
  if (path.includes('\\')) return { ok: false, reason: 'backslash (a separator on Windows)' };
  if (path.includes('\0')) return { ok: false, reason: 'NUL character' };
  for (const segment of path.split('/')) {
    if (segment === '..') return { ok: false, reason: 'a ".." segment leaves the bag' };
    if (segment === '.' || segment === '') return { ok: false, reason: 'not a normalized path' };
  }
  return { ok: true, path, dotPrefix };
}

/** Operating-system litter that bagit tools warn about (the suite's "special-system-files"). */
export function isSpecialSystemFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return ['.ds_store', 'thumbs.db', 'desktop.ini', 'ehthumbs.db'].includes(name) || name.startsWith('._');
}

/** True for files under the payload directory (RFC 8493 §2.1.2). */
export function isPayloadPath(path: string): boolean {
  return path.startsWith('data/');
}

/** For messages: a path quoted as JSON, so control characters and spaces are visible. */
export function quote(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
}
