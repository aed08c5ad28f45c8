import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import { legacyReportKek, newDataKey, openReport, sealedDigest, sealReport, unwrapDataKey, wrapDataKey, wrapDataKeyV1, type ReportKeys } from './report-seal.js';

const kekOf = (id: string): ReportKeys['kek'] => ({ id, key: randomBytes(32) });
const keys: ReportKeys = { kek: kekOf('aaaaaaaaaaaaaaaa'), legacy: legacyReportKek(randomBytes(32)) };
const kek = keys.kek;
const plain = Buffer.from('{"name_ar":"زيدون"}', 'utf8');

describe('report sealing and key wrapping', () => {
  it('round-trips, and the ciphertext holds nothing of the plaintext', () => {
    const key = newDataKey();
    const { sealed, digest } = sealReport(key, 'R1', 'Org A', plain);
    expect(digest).toBe(sealedDigest(sealed));
    expect(Buffer.from(sealed.ciphertext, 'base64').includes(Buffer.from('زيدون'))).toBe(false);
    const wrapped = wrapDataKey(kek, 'R1', digest, key);
    expect(wrapped).not.toContain(key.toString('base64'));
    expect(openReport(unwrapDataKey(keys, 'R1', digest, wrapped), 'R1', 'Org A', sealed)).toEqual(plain);
  });

  it('a note sealed under the report key opens only for its purpose: not as the report, not for another subject', () => {
    const key = newDataKey();
    const note = sealReport(key, 'R1', 'Org A', plain, ['missing.subject-review', 'S1']).sealed;
    expect(openReport(key, 'R1', 'Org A', note, ['missing.subject-review', 'S1'])).toEqual(plain);
    const invalid = expect.objectContaining({ code: 'MISSING_REPORT_KEY_INVALID' }) as Error;
    expect(() => openReport(key, 'R1', 'Org A', note)).toThrow(invalid);
    expect(() => openReport(key, 'R1', 'Org A', note, ['missing.subject-review', 'S2'])).toThrow(invalid);
    expect(() => openReport(key, 'R1', 'Org A', note, ['missing.viewing', 'S1'])).toThrow(invalid);
    const content = sealReport(key, 'R1', 'Org A', plain).sealed;
    expect(() => openReport(key, 'R1', 'Org A', content, ['missing.subject-review', 'S1'])).toThrow(invalid);
  });

  it('a ciphertext does not open under another report id or organisation (bound as additional data)', () => {
    const key = newDataKey();
    const { sealed } = sealReport(key, 'R1', 'Org A', plain);
    expect(() => openReport(key, 'R2', 'Org A', sealed)).toThrow(expect.objectContaining({ code: 'MISSING_REPORT_KEY_INVALID' }) as Error);
    expect(() => openReport(key, 'R1', 'Org B', sealed)).toThrow(expect.objectContaining({ code: 'MISSING_REPORT_KEY_INVALID' }) as Error);
  });

  it('a key file opens only for its report and digest, under its archive key; an edited one is refused', () => {
    const key = newDataKey();
    const { digest } = sealReport(key, 'R1', 'Org A', plain);
    const text = wrapDataKey(kek, 'R1', digest, key);
    const refused = (f: () => unknown): boolean => {
      try {
        f();
        return false;
      } catch (e) {
        return hasCode(e, 'MISSING_REPORT_KEY_INVALID');
      }
    };
    expect(refused(() => unwrapDataKey(keys, 'R2', digest, text))).toBe(true);
    expect(refused(() => unwrapDataKey(keys, 'R1', '0'.repeat(64), text))).toBe(true);
    // another KEK: refused by name (a swapped KEK file), and under the same name but another key (a forged id)
    expect(refused(() => unwrapDataKey({ kek: kekOf('bbbbbbbbbbbbbbbb'), legacy: null }, 'R1', digest, text))).toBe(true);
    expect(refused(() => unwrapDataKey({ kek: kekOf(kek.id), legacy: null }, 'R1', digest, text))).toBe(true);
    // the old derived key does not open a version 2 file, nor may the file be relabelled version 1
    expect(refused(() => unwrapDataKey(keys, 'R1', digest, JSON.stringify({ ...(JSON.parse(text) as object), version: 1 })))).toBe(true);
    const o = JSON.parse(text) as Record<string, string>;
    const flipped = Buffer.from(o.wrapped ?? '', 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(refused(() => unwrapDataKey(keys, 'R1', digest, JSON.stringify({ ...o, wrapped: flipped.toString('base64') })))).toBe(true);
    expect(refused(() => unwrapDataKey(keys, 'R1', digest, JSON.stringify({ ...o, extra: 1 })))).toBe(true);
    expect(refused(() => unwrapDataKey(keys, 'R1', digest, 'not json'))).toBe(true);
    expect(unwrapDataKey(keys, 'R1', digest, text)).toEqual(key);
  });

  it('a version 1 key file (wrapped under the key derived from the sealing key) opens only with that key, and never without the report KEK given', () => {
    const key = newDataKey();
    const { digest } = sealReport(key, 'R1', 'Org A', plain);
    const old = wrapDataKeyV1(keys.legacy!, 'R1', digest, key);
    expect(JSON.parse(old)).toMatchObject({ version: 1 });
    expect(unwrapDataKey(keys, 'R1', digest, old)).toEqual(key);
    const refusedWith = (k: ReportKeys): boolean => {
      try {
        unwrapDataKey(k, 'R1', digest, old);
        return false;
      } catch (e) {
        return hasCode(e, 'MISSING_REPORT_KEY_INVALID');
      }
    };
    expect(refusedWith({ kek, legacy: null })).toBe(true);
    expect(refusedWith({ kek, legacy: legacyReportKek(randomBytes(32)) })).toBe(true);
  });
});
