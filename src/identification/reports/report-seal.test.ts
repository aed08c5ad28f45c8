import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import { newDataKey, openReport, reportKek, sealedDigest, sealReport, unwrapDataKey, wrapDataKey } from './report-seal.js';

const kek = reportKek(randomBytes(32));
const plain = Buffer.from('{"name_ar":"زيدون"}', 'utf8');

describe('report sealing and key wrapping', () => {
  it('round-trips, and the ciphertext holds nothing of the plaintext', () => {
    const key = newDataKey();
    const { sealed, digest } = sealReport(key, 'R1', 'Org A', plain);
    expect(digest).toBe(sealedDigest(sealed));
    expect(Buffer.from(sealed.ciphertext, 'base64').includes(Buffer.from('زيدون'))).toBe(false);
    const wrapped = wrapDataKey(kek, 'R1', digest, key);
    expect(wrapped).not.toContain(key.toString('base64'));
    expect(openReport(unwrapDataKey(kek, 'R1', digest, wrapped), 'R1', 'Org A', sealed)).toEqual(plain);
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
    expect(refused(() => unwrapDataKey(kek, 'R2', digest, text))).toBe(true);
    expect(refused(() => unwrapDataKey(kek, 'R1', '0'.repeat(64), text))).toBe(true);
    expect(refused(() => unwrapDataKey(reportKek(randomBytes(32)), 'R1', digest, text))).toBe(true);
    const o = JSON.parse(text) as Record<string, string>;
    const flipped = Buffer.from(o.wrapped ?? '', 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(refused(() => unwrapDataKey(kek, 'R1', digest, JSON.stringify({ ...o, wrapped: flipped.toString('base64') })))).toBe(true);
    expect(refused(() => unwrapDataKey(kek, 'R1', digest, JSON.stringify({ ...o, extra: 1 })))).toBe(true);
    expect(refused(() => unwrapDataKey(kek, 'R1', digest, 'not json'))).toBe(true);
    expect(unwrapDataKey(kek, 'R1', digest, text)).toEqual(key);
  });
});
