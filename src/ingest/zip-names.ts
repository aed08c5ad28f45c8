/**
 * Decoding and describing ZIP member names. Pure: no I/O.
 *
 * Names come from archives handed over by sources and are hostile until described here
 * (attacker-controlled bytes). Nothing is refused for its name alone: Custody stores members by
 * hash and never writes to the path, so a name is only ever displayed and flagged.
 */
import { TextDecoder } from 'node:util';
import { crc32 } from 'node:zlib';

export type ZipNameEncoding = 'utf8' | 'cp437' | 'windows-1256';

export interface DecodedZipName {
  /** Display form. Backslashes are kept as they are; `describeHostilePath` treats them as separators. */
  path: string;
  encoding: ZipNameEncoding;
  /** True when `path` comes from a valid Info-ZIP Unicode Path extra field (0x7075), not from the raw bytes. */
  fromUnicodePathField: boolean;
  /** The raw bytes decoded with `encoding`; equals `path` unless `fromUnicodePathField`. */
  rawDecoded: string;
}

/** APPNOTE 6.3.10 §4.4.4: general-purpose bit 11, "Language encoding flag (EFS)": name and comment are UTF-8. */
const EFS_FLAG = 0x800;

/** CP437, the ZIP default (APPNOTE 6.3.10 appendix D), upper half 0x80–0xFF. The lower half is ASCII. */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐' +
  '└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Null when this Node was built without full ICU; then windows-1256 is never guessed. */
const win1256: TextDecoder | null = (() => {
  try {
    return new TextDecoder('windows-1256', { ignoreBOM: true });
  } catch {
    return null;
  }
})();

/** For each high byte 0x80–0xFF: does windows-1256 map it to an Arabic-script character? */
const WIN1256_ARABIC: readonly boolean[] = Array.from({ length: 128 }, (_, i) => {
  if (win1256 === null) return false;
  return /\p{Script=Arabic}/u.test(win1256.decode(Uint8Array.of(0x80 + i)));
});

/** CP437 to a string, byte by byte. */
export function decodeCp437(raw: Uint8Array): string {
  let out = '';
  for (const b of raw) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH.charAt(b - 0x80);
  return out;
}

function isValidUtf8(raw: Uint8Array): boolean {
  try {
    utf8Strict.decode(raw);
    return true;
  } catch {
    return false;
  }
}

/**
 * Guesses the legacy code page of a name that is not UTF-8. Windows-1256 wins when most high
 * bytes are Arabic letters there *and* at least two of them are adjacent (Arabic words are runs of
 * letters; a CP437 "Müller" has one isolated 0x81, which windows-1256 happens to read as "پ").
 */
export function guessLegacyEncoding(raw: Uint8Array): 'cp437' | 'windows-1256' {
  let high = 0;
  let arabic = 0;
  let adjacentArabic = false;
  let previousArabic = false;
  for (const b of raw) {
    const isArabic = b >= 0x80 && WIN1256_ARABIC[b - 0x80] === true;
    if (b >= 0x80) high += 1;
    if (isArabic) arabic += 1;
    if (isArabic && previousArabic) adjacentArabic = true;
    previousArabic = isArabic;
  }
  return high > 0 && arabic * 2 > high && adjacentArabic ? 'windows-1256' : 'cp437';
}

function decodeAs(raw: Uint8Array, encoding: ZipNameEncoding): string {
  if (encoding === 'utf8')
    return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  if (encoding === 'windows-1256' && win1256 !== null) return win1256.decode(raw);
  return decodeCp437(raw);
}

/**
 * Info-ZIP Unicode Path extra field (0x7075, APPNOTE 6.3.10 §4.6.9): version 1, CRC-32 of the raw
 * name, then the UTF-8 name. Used only when the CRC matches the raw name and the UTF-8 is valid.
 */
function readUnicodePathField(field: Uint8Array, raw: Uint8Array): string | null {
  if (field.length < 6 || field[0] !== 1) return null;
  const view = new DataView(field.buffer, field.byteOffset, field.byteLength);
  if (view.getUint32(1, true) !== crc32(raw)) return null;
  const name = field.subarray(5);
  return isValidUtf8(name)
    ? Buffer.from(name.buffer, name.byteOffset, name.byteLength).toString('utf8')
    : null;
}

/**
 * Decodes a member name from its exact central-directory bytes.
 *
 * @example
 *   decodeZipName(Uint8Array.of(0x4d, 0x81, 0x6c), 0).path // 'Mül' (cp437)
 */
export function decodeZipName(
  raw: Uint8Array,
  generalPurposeBitFlag: number,
  unicodePathField?: Uint8Array,
): DecodedZipName {
  const encoding: ZipNameEncoding =
    (generalPurposeBitFlag & EFS_FLAG) !== 0 || isValidUtf8(raw)
      ? 'utf8'
      : guessLegacyEncoding(raw);
  const rawDecoded = decodeAs(raw, encoding);
  if (encoding !== 'utf8' && unicodePathField !== undefined) {
    const unicode = readUnicodePathField(unicodePathField, raw);
    if (unicode !== null)
      return { path: unicode, encoding: 'utf8', fromUnicodePathField: true, rawDecoded };
  }
  return { path: rawDecoded, encoding, fromUnicodePathField: false, rawDecoded };
}

/**
 * Flags for names that would be dangerous if anyone wrote them to a file system. Backslashes
 * count as separators (Windows tools write them, APPNOTE §4.4.17 forbids them).
 *
 * @example
 *   describeHostilePath('..\\..\\etc/passwd') // ['zip-slip-path']
 *   describeHostilePath('C:/x')               // ['absolute-path']
 */
export function describeHostilePath(path: string): string[] {
  const flags: string[] = [];
  if (path.split(/[\\/]/).includes('..')) flags.push('zip-slip-path');
  if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) flags.push('absolute-path');
  if (path.includes('\0')) flags.push('nul-in-name');
  if (path.length === 0) flags.push('empty-name');
  return flags;
}

/** A directory entry, by the ZIP convention of a trailing separator (APPNOTE §4.3.8). */
export function isDirectoryName(path: string): boolean {
  return path.endsWith('/') || path.endsWith('\\');
}
