import { describe, expect, it } from 'vitest';
import { sameActor } from '../../core/index.js';
import { revealProblem } from './reveal-rule.js';

const subs = [
  { examiner: 'dr-a', seq: 5, commitment: 'c-a' },
  { examiner: 'dr-b', seq: 7, commitment: 'c-b' },
];
const both = [
  { examiner: 'dr-a', commitment: 'c-a' },
  { examiner: 'dr-b', commitment: 'c-b' },
];

describe('the reveal rule (a system act)', () => {
  it('a reveal after every assigned examiner submitted, opening exactly their commitments, is fine (names compared case-folded)', () => {
    expect(revealProblem({ seq: 8, answers: both }, ['DR-A', 'dr-b'], subs, sameActor)).toBeNull();
  });
  it('old reveals whose answers state no commitment are still fine', () => {
    expect(revealProblem({ seq: 8, answers: [{ examiner: 'dr-a' }, { examiner: 'dr-b' }] }, ['dr-a', 'dr-b'], subs, sameActor)).toBeNull();
  });
  it('a reveal before the last assigned examiner submitted is early', () => {
    expect(revealProblem({ seq: 6, answers: both.slice(0, 1) }, ['dr-a', 'dr-b'], subs, sameActor)?.kind).toBe('early');
  });
  it('a reveal that leaves a submission unopened, or states another commitment, does not open what was committed', () => {
    expect(revealProblem({ seq: 8, answers: both.slice(0, 1) }, ['dr-a', 'dr-b'], subs, sameActor)?.kind).toBe('commitments');
    expect(revealProblem({ seq: 8, answers: [both[0]!, { examiner: 'dr-b', commitment: 'c-x' }] }, ['dr-a', 'dr-b'], subs, sameActor)?.message).toContain('dr-b');
  });
});
