import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { caseCodeKey, caseIdKey, openCaseFacts, openCaseId, planSealingKey, sealCaseFacts, sealCaseId } from './plan-key.js';

const planKey = randomBytes(32);

describe('sealed case ids (issue 12, blinded cases)', () => {
  it('a sealed id opens with the case-id key, under its own plan and code only', () => {
    const key = caseIdKey(planKey);
    const sealed = sealCaseId(key, 'S1', 'k-0123456789ab', 'subj-7');
    expect(openCaseId(key, 'S1', 'k-0123456789ab', sealed)).toBe('subj-7');
    expect(openCaseId(key, 'S1', 'k-ffffffffffff', sealed)).toBeNull();
    expect(openCaseId(key, 'S2', 'k-0123456789ab', sealed)).toBeNull();
    expect(openCaseId(caseCodeKey(planKey), 'S1', 'k-0123456789ab', sealed)).toBeNull();
    const flipped = Buffer.from(sealed, 'base64');
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    expect(openCaseId(key, 'S1', 'k-0123456789ab', flipped.toString('base64'))).toBeNull();
  });

  it('ids of different lengths seal to the same length, and the keys differ from the answers key', () => {
    const key = caseIdKey(planKey);
    const a = sealCaseId(key, 'S1', 'k-a', 'x');
    const b = sealCaseId(key, 'S1', 'k-b', '01J0000000000000000000000A');
    expect(Buffer.from(a, 'base64').length).toBe(Buffer.from(b, 'base64').length);
    expect(openCaseId(key, 'S1', 'k-b', b)).toBe('01J0000000000000000000000A');
    expect(key.equals(planSealingKey(planKey))).toBe(false);
    expect(key.equals(caseCodeKey(planKey))).toBe(false);
  });
});

describe('sealed case facts', () => {
  it('open under their plan, code and examiner only', () => {
    const key = caseIdKey(planKey);
    const sealed = sealCaseFacts(key, 'S1', 'k-a', 'dr-a', { photos: 3, opened_unblurred: ['01JITEM'] });
    expect(openCaseFacts(key, 'S1', 'k-a', 'dr-a', sealed)).toEqual({ photos: 3, opened_unblurred: ['01JITEM'] });
    expect(openCaseFacts(key, 'S1', 'k-a', 'dr-b', sealed)).toBeNull();
    expect(openCaseFacts(key, 'S1', 'k-b', 'dr-a', sealed)).toBeNull();
  });
});
