import { describe, expect, it } from 'vitest';
import { decimalString, degreesValue, gpsFromBlock, timeStampValue } from './gps-fields.js';

const collect = (): { warn: (m: string) => void; warnings: string[] } => {
  const warnings: string[] = [];
  return { warn: (m) => warnings.push(m), warnings };
};

describe('GPS fields (EXIF 2.32 §4.6.6)', () => {
  it('converts degrees/minutes/seconds to signed decimal strings with 7 decimals', () => {
    const { warn, warnings } = collect();
    expect(degreesValue([41, 0, 55.08], 'N', 'Latitude', 'S', 90, warn)).toBe('41.0153000');
    expect(degreesValue([0, 22.278, 0], 'S', 'Latitude', 'S', 90, warn)).toBe('-0.3713000');
    expect(degreesValue([73, 59, 9.3], 'w', 'Longitude', 'W', 180, warn)).toBe('-73.9859167');
    expect(warnings).toEqual([]);
  });

  it('warns instead of guessing: missing Ref, zero denominators, wrong shapes, out of range', () => {
    const { warn, warnings } = collect();
    expect(degreesValue([10, 30, 0], undefined, 'Latitude', 'S', 90, warn)).toBe('10.5000000');
    expect(degreesValue([10, Infinity, 0], 'N', 'Latitude', 'S', 90, warn)).toBeNull();
    expect(degreesValue('12.5', 'N', 'Latitude', 'S', 90, warn)).toBeNull();
    expect(degreesValue([95, 0, 0], 'N', 'Latitude', 'S', 90, warn)).toBe('95.0000000');
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/GPSLatitudeRef is missing/);
  });

  it('formats GPSTimeStamp as ExifTool -n does (GPS.pm ConvertTimeStamp)', () => {
    const { warn } = collect();
    expect(timeStampValue([14, 57, 41.37], warn)).toBe('14:57:41.37');
    expect(timeStampValue([9, 5, 7], warn)).toBe('09:05:07');
    expect(timeStampValue([23, 59, 59.9999999999], warn)).toBe('24:00:00'); // ExifTool's own carry
    expect(timeStampValue([0, 90, 0], warn)).toBe('01:30:00');
    expect(timeStampValue([1, 2], warn)).toBeNull();
  });

  it('signs altitude by GPSAltitudeRef and never prints -0', () => {
    const { warn } = collect();
    expect(gpsFromBlock({ '5': new Uint8Array([1]), '6': 12.5 }, warn)?.altitude).toBe('-12.500');
    expect(gpsFromBlock({ '5': new Uint8Array([0]), '6': 0.0004 }, warn)?.altitude).toBe('0.000');
    expect(decimalString(-0.00000001, 7)).toBe('0.0000000');
    expect(gpsFromBlock({ '0': new Uint8Array([2, 2, 0, 0]) }, warn)).toBeNull();
  });
});
