// Sealed submissions (commit, then reveal) and the adjudication of disagreements between examiners.
export { SALT_BYTES, commit, commitmentBytes, verifyReveal } from './commit.js';
export type { Commitment, RandomSource } from './commit.js';
export { applyAdjudication, disagreements } from './adjudication.js';
export type { AdjudicationDecision, Disagreement, ExaminerAnswer } from './adjudication.js';
