import { clip, textValue, type RawBlock, type Warn } from './tiff-values.js';

/**
 * GPS position as recorded by the camera (EXIF 2.32 §4.6.6, GPS IFD). The ledger takes only
 * integers and strings, so rationals become decimal strings: degrees with 7 decimals (about
 * 1 cm), signed by their Ref tag; altitude in metres with 3 decimals, negative below sea level.
 */
export interface GpsFields {
  /** Decimal degrees, e.g. '43.4644550'; negative for GPSLatitudeRef 'S'. */
  latitude: string | null;
  /** Decimal degrees; negative for GPSLongitudeRef 'W'. */
  longitude: string | null;
  /** Metres, e.g. '123.400'; negative when GPSAltitudeRef is 1. */
  altitude: string | null;
  /** 0x001D literal, 'YYYY:MM:DD' (UTC). */
  dateStamp: string | null;
  /** 0x0007 as ExifTool prints it with -n: 'HH:MM:SS' plus up to 9 decimals, e.g. '14:57:41.37' (UTC). */
  timeStamp: string | null;
}

export const GPS_TAGS = {
  latitudeRef: 0x0001,
  latitude: 0x0002,
  longitudeRef: 0x0003,
  longitude: 0x0004,
  altitudeRef: 0x0005,
  altitude: 0x0006,
  timeStamp: 0x0007,
  dateStamp: 0x001d,
} as const;

/** The GPS fields of one raw GPS IFD, or null when it holds none of them. */
export function gpsFromBlock(gps: RawBlock, warn: Warn): GpsFields | null {
  const out: GpsFields = {
    latitude: degreesValue(
      gps[GPS_TAGS.latitude],
      gps[GPS_TAGS.latitudeRef],
      'Latitude',
      'S',
      90,
      warn,
    ),
    longitude: degreesValue(
      gps[GPS_TAGS.longitude],
      gps[GPS_TAGS.longitudeRef],
      'Longitude',
      'W',
      180,
      warn,
    ),
    altitude: altitudeValue(gps[GPS_TAGS.altitude], gps[GPS_TAGS.altitudeRef], warn),
    dateStamp: textValue(gps[GPS_TAGS.dateStamp], 'GPSDateStamp', warn),
    timeStamp: timeStampValue(gps[GPS_TAGS.timeStamp], warn),
  };
  return Object.values(out).every((v) => v === null) ? null : out;
}

/**
 * Degrees + minutes/60 + seconds/3600, negated when the Ref starts with `negativeRef`
 * (ExifTool's Composite:GPSLatitude does the same: `$ref =~ /^S/i ? -$val : $val`).
 */
export function degreesValue(
  v: unknown,
  refValue: unknown,
  name: string,
  negativeRef: 'S' | 'W',
  limit: number,
  warn: Warn,
): string | null {
  if (v === undefined || v === null) return null;
  const parts = numbers(v);
  if (parts === null || parts.length === 0 || parts.length > 3) {
    warn(`EXIF GPS${name}: expected 3 rationals, found ${typeof v}`);
    return null;
  }
  if (parts.length !== 3) warn(`EXIF GPS${name}: ${parts.length} rationals where 3 are expected`);
  const [d = 0, m = 0, s = 0] = parts;
  let degrees = d + m / 60 + s / 3600;
  if (!Number.isFinite(degrees)) {
    warn(`EXIF GPS${name}: not a finite number (a zero denominator?)`);
    return null;
  }
  const ref = textValue(refValue, `GPS${name}Ref`, warn);
  if (ref === null)
    warn(`EXIF GPS${name}Ref is missing: the ${name.toLowerCase()} is reported unsigned`);
  else if (ref.toUpperCase().startsWith(negativeRef)) degrees = -degrees;
  else if (!/^[NSEW]/i.test(ref)) warn(`EXIF GPS${name}Ref: unexpected '${clip(ref)}'`);
  if (Math.abs(degrees) > limit) warn(`EXIF GPS${name}: ${degrees} is outside ±${limit}`);
  return decimalString(degrees, 7);
}

function altitudeValue(v: unknown, refValue: unknown, warn: Warn): string | null {
  if (v === undefined || v === null) return null;
  const parts = numbers(v);
  const metres = parts?.[0];
  if (metres === undefined || !Number.isFinite(metres)) {
    warn('EXIF GPSAltitude: expected one finite rational');
    return null;
  }
  const ref = numbers(refValue)?.[0] ?? 0;
  return decimalString(ref === 1 ? -metres : metres, 3);
}

/** ExifTool's GPS.pm ConvertTimeStamp, the -n value of GPSTimeStamp, ported line by line. */
export function timeStampValue(v: unknown, warn: Warn): string | null {
  if (v === undefined || v === null) return null;
  const parts = numbers(v);
  if (parts === null || parts.length !== 3 || !parts.every(Number.isFinite)) {
    warn('EXIF GPSTimeStamp: expected 3 finite rationals');
    return null;
  }
  const [h = 0, m = 0, s = 0] = parts;
  let f = (h * 60 + m) * 60 + s;
  let hours = Math.trunc(f / 3600);
  f -= hours * 3600;
  let minutes = Math.trunc(f / 60);
  f -= minutes * 60;
  let ss = f.toFixed(9).padStart(12, '0'); // sprintf('%012.9f')
  if (Number(ss) >= 60) {
    ss = '00';
    if (++minutes >= 60) {
      minutes -= 60;
      hours += 1;
    }
  } else ss = ss.replace(/\.?0+$/, '');
  return `${pad2(hours)}:${pad2(minutes)}:${ss}`;
}

/** toFixed without a '-0.000' for values that round to zero. */
export function decimalString(x: number, decimals: number): string {
  const s = x.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

function pad2(n: number): string {
  return n < 0 ? `-${String(-n).padStart(2, '0')}` : String(n).padStart(2, '0');
}

/** exifr gives one rational as a number and several as an array (typed for integer types). */
function numbers(v: unknown): number[] | null {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const list = Array.from(v as ArrayLike<unknown>);
    return list.every((x): x is number => typeof x === 'number') ? list : null;
  }
  return null;
}
