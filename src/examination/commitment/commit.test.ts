import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import {
  DEFAULT_CODEBOOK,
  parseExaminationForm,
  type ExaminationAnswer,
} from '../codebook/index.js';
import { SALT_BYTES, commit, verifyReveal } from './index.js';

function answerWith(findings: Record<string, unknown>, rest: Record<string, unknown> = {}) {
  const all: Record<string, unknown> = {};
  for (const f of DEFAULT_CODEBOOK.findings) all[f.code] = { value: 'absent' };
  const input = { sex: 'female', age_band: '18-29', findings: { ...all, ...findings }, ...rest };
  return parseExaminationForm(DEFAULT_CODEBOOK, input);
}

const ANSWER = answerWith({
  burns: { value: 'present', regions: ['chest', 'back'] },
  decomposition: { value: 'cannot_assess' },
});
/** Fixed salt 00 01 02 … 1f, so the commitment is a known-answer test. */
const FIXED_SALT = Uint8Array.from({ length: 32 }, (_, i) => i);
const fixedRandom = (n: number) => FIXED_SALT.slice(0, n);

// The canonical JSON (RFC 8785) of ANSWER, written out so the layout is checked independently
// of canonical-json.ts; the pinned commitment was also computed with Python's hashlib.
const ANSWER_JCS =
  '{"age_band":"18-29","findings":{"blunt_force_injury":{"value":"absent"},' +
  '"burns":{"regions":["back","chest"],"value":"present"},' +
  '"decomposition":{"value":"cannot_assess"},"electrical_injury":{"value":"absent"},' +
  '"emaciation":{"value":"absent"},"eye_injury":{"value":"absent"},' +
  '"gunshot_wound":{"value":"absent"},"ligature_mark_neck":{"value":"absent"},' +
  '"patterned_injury":{"value":"absent"},"restraint_marks":{"value":"absent"},' +
  '"sharp_force_injury":{"value":"absent"},"untreated_wounds":{"value":"absent"}},' +
  '"sex":"female"}';
const KNOWN_COMMITMENT = '9bc152a98a5f033720cea3de1b366f2321164d34b4d45a101b18c744d70b3cf8';
const KNOWN_SALT = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

describe('commit', () => {
  it('matches the known answer: SHA-256(canonical JSON bytes || 32 raw salt bytes)', () => {
    const c = commit(ANSWER, fixedRandom);
    expect(c).toEqual({ commitment: KNOWN_COMMITMENT, salt: KNOWN_SALT });
    const byHand = createHash('sha256')
      .update(Buffer.from(ANSWER_JCS, 'utf8'))
      .update(FIXED_SALT)
      .digest('hex');
    expect(byHand).toBe(KNOWN_COMMITMENT);
  });

  it('asks the random source for 32 bytes and draws a fresh salt each time by default', () => {
    const asked: number[] = [];
    commit(ANSWER, (n) => (asked.push(n), fixedRandom(n)));
    expect(asked).toEqual([SALT_BYTES]);
    const a = commit(ANSWER);
    const b = commit(ANSWER);
    expect(a.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(a.salt).not.toBe(b.salt);
    expect(a.commitment).not.toBe(b.commitment);
  });

  it('refuses a random source that returns the wrong number of bytes', () => {
    expect(() => commit(ANSWER, () => new Uint8Array(31))).toThrow(
      expect.objectContaining({ code: 'COMMITMENT_RANDOM_INVALID' }),
    );
    const bad = (() => 'abc') as unknown as (n: number) => Uint8Array;
    try {
      commit(ANSWER, bad);
      expect.unreachable();
    } catch (e) {
      expect(hasCode(e, 'COMMITMENT_RANDOM_INVALID')).toBe(true);
    }
  });
});

describe('verifyReveal', () => {
  const { commitment, salt } = commit(ANSWER, fixedRandom);

  it('accepts the revealed answer and salt', () => {
    expect(verifyReveal(commitment, ANSWER, salt)).toBe(true);
    expect(verifyReveal(KNOWN_COMMITMENT, ANSWER, KNOWN_SALT)).toBe(true);
  });

  it('rejects a changed answer', () => {
    const changed: ExaminationAnswer[] = [
      answerWith({ burns: { value: 'present', regions: ['back'] } }),
      answerWith(
        { burns: { value: 'present', regions: ['chest', 'back'] } },
        { age_band: '30-39' },
      ),
      { ...ANSWER, notes: 'added later' },
      { ...ANSWER, sex: 'male' },
    ];
    for (const answer of changed) expect(verifyReveal(commitment, answer, salt)).toBe(false);
  });

  it('rejects a changed salt', () => {
    const flipped = `${salt.slice(0, 63)}${salt.endsWith('f') ? 'e' : 'f'}`;
    expect(verifyReveal(commitment, ANSWER, flipped)).toBe(false);
    expect(verifyReveal(commitment, ANSWER, '00'.repeat(32))).toBe(false);
  });

  it('rejects a changed commitment', () => {
    const flipped = `${commitment[0] === '0' ? '1' : '0'}${commitment.slice(1)}`;
    expect(verifyReveal(flipped, ANSWER, salt)).toBe(false);
  });

  it('rejects malformed input instead of throwing', () => {
    expect(verifyReveal(commitment.toUpperCase(), ANSWER, salt)).toBe(false);
    expect(verifyReveal(commitment.slice(2), ANSWER, salt)).toBe(false);
    expect(verifyReveal(commitment, ANSWER, salt.slice(2))).toBe(false);
    expect(verifyReveal(commitment, ANSWER, `${salt}00`)).toBe(false);
    const floaty = { ...ANSWER, notes: 1.5 } as unknown as ExaminationAnswer;
    expect(verifyReveal(commitment, floaty, salt)).toBe(false);
  });
});
