// The reveal is a system act, not a person's (issue 12, "Signed bytes are domain-separated ... for
// reveals"). No one chooses to reveal: the answers of a case are opened by rule the moment the last
// assigned examiner's sealed answer is in (or, after an interrupted run, at the next open for
// writing), and only the writer can open them (the plan key is wrapped by the archive's KEK). A
// person's signature on it would be a false statement: the last examiner would vouch for
// colleagues' answers they must not see, and the catch-up has no person at all. So a reveal entry:
//   - is recorded under the system actor, with the rule it follows as its reason;
//   - states which commitments it opens (each answer carries the commitment of its submission);
//   - is authenticated like every system act, by the archive key's signed checkpoint that covers it
//     (`custody verify` refuses an unsigned tail; verify-export proves each line against it);
//   - and both verifiers check the rule itself (revealProblem): every assigned examiner had
//     submitted before it, it opens exactly the case's submissions, each with its own commitment.

/** Who a reveal is recorded as: no person asked for it. */
export const SYSTEM_ACTOR = 'custody (system)';

/** The rule a reveal follows, stated in its entry. */
export const REVEAL_RULE = 'every assigned examiner of the case had submitted: the sealed answers are opened by rule, not by a person';

/** Why a reveal breaks the rule: `early` (blindness broken), `commitments` (it does not open what was committed). */
export interface RevealProblem {
  kind: 'early' | 'commitments';
  message: string;
}

/**
 * Checks one reveal against what came before it: the examiners assigned to the case (names as
 * assigned) and the submissions before the reveal. Names compare through `same` (case-folded).
 *
 * @example
 *   revealProblem({ seq: 9, answers: [{ examiner: 'a', commitment: 'c1' }] }, ['a', 'b'], [{ examiner: 'a', seq: 7, commitment: 'c1' }], eq)
 *   // { kind: 'early', ... }: b had not submitted
 */
export function revealProblem(
  reveal: { seq: number; answers: readonly { examiner: string; commitment?: string | undefined }[] },
  assigned: readonly string[],
  submissions: readonly { examiner: string; seq: number; commitment: string }[],
  same: (a: string, b: string) => boolean,
): RevealProblem | null {
  const before = submissions.filter((s) => s.seq < reveal.seq);
  const missing = assigned.filter((a) => !before.some((s) => same(s.examiner, a)));
  if (assigned.length > 0 && missing.length > 0)
    return { kind: 'early', message: `entry ${reveal.seq} opens the case's answers before ${missing.join(', ')} had submitted: the reveal broke the seal early` };
  const unopened = before.filter((s) => !reveal.answers.some((a) => same(a.examiner, s.examiner)));
  const wrong = reveal.answers.filter((a) => {
    const s = before.find((x) => same(x.examiner, a.examiner));
    return s === undefined || (a.commitment !== undefined && a.commitment !== s.commitment);
  });
  if (unopened.length === 0 && wrong.length === 0) return null;
  const parts = [
    ...(unopened.length > 0 ? [`leaves ${unopened.map((s) => s.examiner).join(', ')}'s submission unopened`] : []),
    ...(wrong.length > 0 ? [`states for ${wrong.map((a) => a.examiner).join(', ')} a commitment no earlier submission made`] : []),
  ];
  return { kind: 'commitments', message: `entry ${reveal.seq} ${parts.join(' and ')}` };
}
