import type { ImageFacts, ItemReceipt } from './image-facts.js';

// Small validating parsers and grouping keys. Every input here comes from EXIF/XMP written by
// whoever produced the file (attacker-controlled): anything malformed yields null, never a throw,
// so one bad file cannot stop the analysis of a collection.

const DAY_MS = 86_400_000;
export { DAY_MS };

/** Trimmed, whitespace-collapsed, lower-cased text; null for absent or blank. */
export function textKey(s: string | null | undefined): string | null {
  if (s === null || s === undefined) return null;
  // EXIF ASCII fields are NUL-padded by some firmware (EXIF 2.32 §4.6.2, type ASCII).
  const t = s.replace(/\0/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  return t === '' ? null : t;
}

/** The camera model: make + model (make may be absent). Null when the model is absent. */
export function modelKey(f: Pick<ImageFacts, 'make' | 'model'>): string | null {
  const model = textKey(f.model);
  return model === null ? null : `${textKey(f.make) ?? ''}|${model}`;
}

/** One camera body: model + serial (when known). Null when the model is absent. */
export function cameraKey(f: ImageFacts): string | null {
  const model = modelKey(f);
  return model === null ? null : `${model}|${textKey(f.bodySerial) ?? ''}`;
}

function clean(s: string | null): string {
  return (s ?? '').replace(/\0/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A person-readable name of the camera model, e.g. 'NIKON CORPORATION NIKON D750'. */
export function modelLabel(f: ImageFacts): string {
  const parts = [clean(f.make), clean(f.model)].filter((p) => p !== '');
  return parts.length === 0 ? 'unknown camera' : parts.join(' ');
}

/** A person-readable name of the camera body, e.g. 'NIKON CORPORATION NIKON D750 #6021345'. */
export function cameraLabel(f: ImageFacts): string {
  const serial = clean(f.bodySerial);
  return serial === '' ? modelLabel(f) : `${modelLabel(f)} #${serial}`;
}

const EXIF_DATE = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A literal EXIF date-time ('YYYY:MM:DD HH:MM:SS', EXIF 2.32 §4.6.4 tag 0x9003) as milliseconds
 * on a clock with no time zone (computed as if UTC). Null when malformed, impossible (Feb 30) or
 * the "unknown" form with zeros / blanks that EXIF allows.
 */
export function parseExifDateTime(s: string | null): number | null {
  const m = s === null ? null : EXIF_DATE.exec(s.replace(/\0/g, '').trim());
  if (m === null) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  // Reject day overflow (Date.UTC turns Feb 30 into Mar 2).
  if (new Date(ms).getUTCDate() !== d) return null;
  return ms;
}

/** 'YYYY-MM-DD' of the literal date, or null. No time-zone conversion: the day the camera showed. */
export function exifDay(s: string | null): string | null {
  const ms = parseExifDateTime(s);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** DateTimeOriginal plus SubSecTimeOriginal (EXIF 2.32 tag 0x9291, a decimal fraction), in ms. */
export function originalTimeMs(f: ImageFacts): number | null {
  const ms = parseExifDateTime(f.dateTimeOriginal);
  if (ms === null) return null;
  const sub = (f.subSecTimeOriginal ?? '').trim();
  return /^\d{1,9}$/.test(sub) ? ms + Math.floor(Number(`0.${sub}`) * 1000) : ms;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 §5.6 date-time to epoch ms; null when malformed. */
export function parseRfc3339(s: string): number | null {
  if (!RFC3339.test(s)) return null;
  const ms = Date.parse(s.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}

export interface NamePattern {
  /** E.g. 'DSC_####' — the prefix upper-cased and one '#' per counter digit; extension ignored. */
  key: string;
  number: number;
  /** Counter width: a 4-digit counter wraps after 9999. */
  digits: number;
}

// Camera file names (DCF 2.0 §3.2.1: four characters then a 4-digit number; many bodies use other
// widths or prefixes such as '_DSC'). 3–5 digits only, so dates such as IMG_20230101 never count.
const COUNTER_NAME = /^([A-Za-z_-]{1,8})(\d{3,5})(\.[A-Za-z0-9]{1,5})?$/;

export function namePattern(name: string): NamePattern | null {
  const m = COUNTER_NAME.exec(name.trim());
  if (m === null) return null;
  const prefix = (m[1] as string).toUpperCase();
  const digits = (m[2] as string).length;
  return { key: prefix + '#'.repeat(digits), number: Number(m[2]), digits };
}

/** The folder an item was delivered in: delivery plus directory part of its relative path. */
export function folderKey(item: ItemReceipt): string {
  const path = item.relativePath.replace(/\\/g, '/');
  const slash = path.lastIndexOf('/');
  return `${item.delivery}:${slash < 0 ? '' : path.slice(0, slash)}`;
}

/** Dimensions with w×h and h×w treated as the same (rotation); null when unknown. */
export function dimsKey(f: ImageFacts): string | null {
  const { width: w, height: h } = f;
  if (w === null || h === null || w <= 0 || h <= 0) return null;
  return `${Math.max(w, h)}x${Math.min(w, h)}`;
}

/** Long side over short side to three decimals, e.g. '1.500' for 3:2. */
export function aspectKey(f: ImageFacts): string | null {
  const { width: w, height: h } = f;
  if (w === null || h === null || w <= 0 || h <= 0) return null;
  return (Math.max(w, h) / Math.min(w, h)).toFixed(3);
}

/** Bit distance between two PDQ hashes in hex (pdq/README.md); null when either is malformed. */
export function pdqDistance(a: string | null, b: string | null): number | null {
  const hex = /^[0-9a-fA-F]{64}$/;
  if (a === null || b === null || !hex.test(a) || !hex.test(b)) return null;
  let d = 0;
  for (let i = 0; i < 64; i += 8) {
    let x = (parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0;
    for (; x !== 0; d++) x &= x - 1;
  }
  return d;
}

/** The EXIF fields whose absence EXIF_MISSING reports. */
export function missingCameraFields(f: ImageFacts): string[] {
  const missing: string[] = [];
  if (!f.exifPresent) missing.push('EXIF');
  if (textKey(f.make) === null) missing.push('Make');
  if (textKey(f.model) === null) missing.push('Model');
  if (parseExifDateTime(f.dateTimeOriginal) === null) missing.push('DateTimeOriginal');
  return missing;
}
