import { describe, expect, it } from 'vitest';
import { checkPath, decodeManifestPath, isSpecialSystemFile } from './paths.js';

describe('manifest paths (RFC 8493 §2.1.3, §5)', () => {
  it('decodes only %0A, %0D and %25', () => {
    expect(decodeManifestPath('data/a%0Ab%0dc%25d')).toBe('data/a\nb\rc%d');
    expect(decodeManifestPath('data/%7Etest1.txt')).toBe('data/%7Etest1.txt');
    expect(decodeManifestPath('data/%test2.txt')).toBe('data/%test2.txt');
    expect(decodeManifestPath('data/%2525')).toBe('data/%25'); // decoded once, not twice
  });

  it('accepts plain relative paths and strips "./"', () => {
    expect(checkPath('data/dir/file name.txt')).toEqual({ ok: true, path: 'data/dir/file name.txt', dotPrefix: false });
    expect(checkPath('./data/x')).toEqual({ ok: true, path: 'data/x', dotPrefix: true });
    expect(checkPath('data/~tilde-inside.txt')).toMatchObject({ ok: true });
  });

  it.each([
    ['../../../README.md', /\.\./],
    ['data/../../x', /\.\./],
    ['data/%2E%2E/x', undefined], // '%2E' is not decoded: a literal, harmless name
    ['/tmp/foo', /absolute/],
    ['~/foo', /~/],
    ['~root/foo', /~/],
    ['C:\\Windows\\x', /drive/],
    ['\\\\?\\UNC\\server\\x', /backslash/],
    ['data/a\\..\\..\\x', /backslash/],
    ['data//x', /normalized/],
    ['data/./x', /normalized/],
    ['data/x\0', /NUL/],
    ['', /empty/],
  ])('judges %j', (raw, refusal) => {
    const result = checkPath(raw);
    if (refusal === undefined) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, reason: expect.stringMatching(refusal) as unknown });
  });

  it('knows operating-system litter', () => {
    expect(isSpecialSystemFile('data/sub/.DS_Store')).toBe(true);
    expect(isSpecialSystemFile('data/Thumbs.db')).toBe(true);
    expect(isSpecialSystemFile('data/._photo.jpg')).toBe(true);
    expect(isSpecialSystemFile('data/photo.jpg')).toBe(false);
  });
});
