/**
 * BagIt 1.0 (RFC 8493) text files, pure: the writer hands in paths and digests, these return the
 * exact bytes. Payload names are drawn from [A-Za-z0-9._-] and '/' (LAYOUT.md), so no manifest line
 * needs the percent-encoding of RFC 8493 §2.1.3 and `sha256sum -c` reads the manifests as they are.
 */

/** RFC 8493 §2.1.1: the bag declaration, exactly. */
export const BAGIT_TXT = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';

export interface ManifestLine {
  /** Relative to the bag root, '/'-separated. */
  path: string;
  sha256: string;
}

const NAME_CHARS = /[^A-Za-z0-9._-]/gu; // u: a character outside the BMP is one '_', not two
const MAX_NAME = 80;

/**
 * An original file name reduced to what a bag path may hold (LAYOUT.md): every character outside
 * [A-Za-z0-9._-] becomes '_', at most 80 characters (the end is kept: it holds the extension),
 * and names made only of dots become underscores (no '.' or '..' path segments). '' is allowed.
 *
 * @example
 *   safeName('IMG 0001 (copy).JPG') // 'IMG_0001__copy_.JPG'
 */
export function safeName(name: string): string {
  let s = name.replace(NAME_CHARS, '_');
  if (s.length > MAX_NAME) s = s.slice(s.length - MAX_NAME);
  return /^\.+$/.test(s) ? s.replace(/\./g, '_') : s;
}

/**
 * `data/items/<item-id>-<safe name>`: the item id makes the path unique whatever the name.
 *
 * @example
 *   itemBagPath('01J0ABC', 'شهيد.jpg') // 'data/items/01J0ABC-____.jpg'
 */
export function itemBagPath(itemId: string, originalName: string): string {
  return `data/items/${itemId}-${safeName(originalName)}`;
}

/**
 * RFC 8493 §2.1.3 / §2.2.1 manifest text: "<hex>  <path>\n" per file, sorted by path in byte
 * order (our paths are ASCII, so UTF-16 order is byte order), the form `sha256sum -c` reads.
 *
 * @example
 *   formatManifest([{ path: 'data/b', sha256: 'aa…' }, { path: 'data/a', sha256: 'bb…' }])
 *   // 'bb…  data/a\naa…  data/b\n'
 */
export function formatManifest(lines: readonly ManifestLine[]): string {
  const sorted = [...lines].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.path === sorted[i - 1]?.path)
      throw new Error(`duplicate manifest path ${sorted[i]?.path ?? ''}`);
  }
  for (const l of sorted) {
    if (!/^[0-9a-f]{64}$/.test(l.sha256) || !/^[A-Za-z0-9._/-]+$/.test(l.path)) {
      throw new Error(`manifest line cannot be written as is: ${l.path}`);
    }
  }
  return sorted.map((l) => `${l.sha256}  ${l.path}\n`).join('');
}

/**
 * RFC 8493 §2.2.2 Payload-Oxum: "<octet count>.<stream count>" of the payload.
 *
 * @example
 *   payloadOxum([10, 5]) // '15.2'
 */
export function payloadOxum(sizes: readonly number[]): string {
  return `${sizes.reduce((a, b) => a + b, 0)}.${sizes.length}`;
}

export interface BagInfo {
  sourceOrganization: string;
  /** YYYY-MM-DD. */
  baggingDate: string;
  payloadOxum: string;
  treeSize: number;
  rootHex: string;
  description: string;
  softwareVersion: string;
  origin: string;
  selection: string;
}

/**
 * bag-info.txt (RFC 8493 §2.2.2), the fields of LAYOUT.md in a fixed order. A value is one line:
 * line breaks in a given value are folded to spaces (a label's value may continue on an indented
 * line, but a verifier need not cope with that, so we never write one).
 *
 * @example
 *   formatBagInfo({ …, treeSize: 42, rootHex: 'ab…' }) // '…External-Identifier: 42/ab…\n…'
 */
export function formatBagInfo(info: BagInfo): string {
  const fields: [string, string][] = [
    ['Source-Organization', info.sourceOrganization],
    ['Bagging-Date', info.baggingDate],
    ['Payload-Oxum', info.payloadOxum],
    ['External-Identifier', `${info.treeSize}/${info.rootHex}`],
    ['External-Description', info.description],
    ['Bag-Software-Agent', `custody ${info.softwareVersion}`],
    ['Custody-Origin', info.origin],
    ['Custody-Tree-Size', String(info.treeSize)],
    ['Custody-Root', info.rootHex],
    ['Custody-Selection', info.selection],
  ];
  // eslint-disable-next-line no-control-regex -- folding control characters is the point
  return fields.map(([k, v]) => `${k}: ${v.replace(/[\x00-\x1f\x7f]+/g, ' ').trim()}\n`).join('');
}

/** The UTC date of `ms` as YYYY-MM-DD (Bagging-Date). */
export function baggingDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
