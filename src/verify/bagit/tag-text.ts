/**
 * Text tag files of RFC 8493: the bag declaration (§2.1.1), the text tag file format (§2.2.2 for
 * bag-info.txt) and the character encodings a bag may declare. Untrusted input throughout: every
 * byte here comes from the bag.
 */

export type TagEncoding = 'utf-8' | 'latin1' | 'utf-16';

/** Line endings of RFC 8493 §2.1.1/§2.2.2: LF, CRLF or CR. A missing final newline is tolerated. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The encoding named by Tag-File-Character-Encoding, or undefined if we cannot decode it.
 * Names are case-insensitive (IANA charset registry); the suite uses UTF-8, ISO-8859-1 and UTF-16.
 *
 * @example
 *   encodingFromName('iso-8859-1') // 'latin1'
 */
export function encodingFromName(name: string): TagEncoding | undefined {
  const n = name.trim().toLowerCase();
  if (n === 'utf-8' || n === 'utf8') return 'utf-8';
  if (n === 'iso-8859-1' || n === 'latin1' || n === 'us-ascii') return 'latin1';
  if (n === 'utf-16') return 'utf-16';
  return undefined;
}

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes a tag file. UTF-8 must be valid (a leading BOM is dropped); UTF-16 follows its BOM and
 * is big-endian without one (RFC 2781 §4.3). Throws on invalid UTF-8.
 *
 * @example
 *   decodeTagText(Buffer.from('Payload-Oxum: 5.1\n'), 'utf-8') // 'Payload-Oxum: 5.1\n'
 */
export function decodeTagText(bytes: Uint8Array, encoding: TagEncoding): string {
  if (encoding === 'utf-8') return UTF8_STRICT.decode(bytes);
  if (encoding === 'latin1') return Buffer.from(bytes).toString('latin1');
  let body = Buffer.from(bytes);
  let littleEndian = false;
  if (body[0] === 0xff && body[1] === 0xfe) [littleEndian, body] = [true, body.subarray(2)];
  else if (body[0] === 0xfe && body[1] === 0xff) body = body.subarray(2);
  if (body.length % 2 !== 0) throw new Error('UTF-16 text has an odd number of bytes');
  const le = littleEndian ? body : Buffer.from(body).swap16();
  return le.toString('utf16le');
}

export interface Declaration {
  /** [major, minor] as declared, e.g. [1, 0]. */
  version: [number, number];
  /** The declared encoding name, as written. */
  encodingName: string;
  /** Departures from §2.1.1 that still let us read the declaration (reported as errors). */
  problems: string[];
}

const VERSION_LINE = /^BagIt-Version([ \t]*):([ \t]*)([^ \t]*)([ \t]*)$/;
const ENCODING_LINE = /^Tag-File-Character-Encoding([ \t]*):([ \t]*)([^ \t]*)([ \t]*)$/;

/**
 * Parses bagit.txt (RFC 8493 §2.1.1): exactly "BagIt-Version: M.N" then
 * "Tag-File-Character-Encoding: ENCODING", UTF-8 without a byte-order mark. Returns the
 * declaration with `problems` for recoverable departures (a BOM, stray whitespace), or a string
 * saying why it cannot be read at all.
 *
 * @example
 *   parseDeclaration(Buffer.from('BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n')).version // [1, 0]
 */
export function parseDeclaration(bytes: Uint8Array): Declaration | string {
  const problems: string[] = [];
  let body = bytes;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    problems.push('bagit.txt begins with a byte-order mark, which RFC 8493 §2.1.1 forbids');
    body = bytes.subarray(3);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return 'bagit.txt is not valid UTF-8';
  }
  const lines = splitLines(text);
  const version = lines[0]?.match(VERSION_LINE);
  const encoding = lines[1]?.match(ENCODING_LINE);
  if (!version) return 'the first line of bagit.txt is not "BagIt-Version: M.N"';
  if (!encoding) return 'the second line of bagit.txt is not "Tag-File-Character-Encoding: ENCODING"';
  if (lines.length > 2) problems.push('bagit.txt has lines after the two the declaration allows');
  for (const m of [version, encoding]) {
    if (m[1] !== '' || m[2] !== ' ') problems.push(`${JSON.stringify(m[0])}: the separator must be exactly ": "`);
    if (m[4] !== '') problems.push(`${JSON.stringify(m[0])} ends in whitespace`);
  }
  const numbers = /^(0|[1-9][0-9]*)\.(0|[0-9]+)$/.exec(version[3] ?? '');
  if (!numbers) return `BagIt-Version "${version[3] ?? ''}" is not of the form M.N`;
  const encodingName = encoding[3] ?? '';
  if (encodingName === '') return 'Tag-File-Character-Encoding is empty';
  return { version: [Number(numbers[1]), Number(numbers[2])], encodingName, problems };
}

/** One "Label: value" element of a text tag file; labels keep their case, repeats are kept. */
export type TagElement = [label: string, value: string];

/**
 * Parses a text tag file such as bag-info.txt (RFC 8493 §2.2.2): "Label: value" lines, a value
 * continued on lines that start with linear whitespace, repeated labels allowed. Whitespace
 * around the colon is tolerated (the LoC suite's "uncommon-metadata-separators" bag is valid).
 * Returns the elements and the 1-based numbers of lines that are neither.
 *
 * @example
 *   parseTagElements('A: 1\n  more\nA: 2\n').elements // [['A', '1 more'], ['A', '2']]
 */
export function parseTagElements(text: string): { elements: TagElement[]; badLines: number[] } {
  const elements: TagElement[] = [];
  const badLines: number[] = [];
  splitLines(text).forEach((line, i) => {
    const last = elements.at(-1);
    if (/^[ \t]/.test(line) && last !== undefined) {
      last[1] = `${last[1]} ${line.trim()}`;
      return;
    }
    const colon = line.indexOf(':');
    const label = colon < 0 ? '' : line.slice(0, colon).trim();
    if (label === '') badLines.push(i + 1);
    else elements.push([label, line.slice(colon + 1).trim()]);
  });
  return { elements, badLines };
}

/** Every value for `label` (case-insensitive, as bag-info labels are). */
export function valuesOf(elements: readonly TagElement[], label: string): string[] {
  const want = label.toLowerCase();
  return elements.filter(([l]) => l.toLowerCase() === want).map(([, v]) => v);
}
