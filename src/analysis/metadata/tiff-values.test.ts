import { describe, expect, it } from 'vitest';
import { clip, dateValue, integerValue, textValue } from './tiff-values.js';

describe('TIFF value readers', () => {
  it('cuts ASCII at the first NUL as ExifTool does, and refuses non-text', () => {
    const warnings: string[] = [];
    const warn = (m: string): void => void warnings.push(m);
    expect(textValue('ION230\0F', 'Model', warn)).toBe('ION230');
    expect(textValue('\0\0', 'Model', warn)).toBeNull();
    expect(textValue(42, 'Make', warn)).toBeNull();
    expect(warnings).toEqual(['EXIF Make: expected ASCII text, found number 42']);
  });

  it('keeps dates literal, warning when they are not YYYY:MM:DD HH:MM:SS', () => {
    const warnings: string[] = [];
    expect(dateValue('2008:10:22 16:28:39', 'DateTimeOriginal', (m) => warnings.push(m))).toBe(
      '2008:10:22 16:28:39',
    );
    expect(dateValue('2008-10-22T16:28:39Z', 'DateTimeOriginal', (m) => warnings.push(m))).toBe(
      '2008-10-22T16:28:39Z',
    );
    expect(warnings).toHaveLength(1);
  });

  it('takes the first of several integers with a warning, and refuses fractions', () => {
    const warnings: string[] = [];
    expect(integerValue(new Uint16Array([100, 0]), 'ExifImageWidth', (m) => warnings.push(m))).toBe(
      100,
    );
    expect(integerValue(2.5, 'Orientation', (m) => warnings.push(m))).toBeNull();
    expect(warnings).toHaveLength(2);
  });

  it('clips and escapes attacker text in warnings', () => {
    expect(clip('a\nb\u0000')).toBe('a\\x0ab\\x00');
    expect(clip('x'.repeat(100))).toHaveLength(81);
  });
});
