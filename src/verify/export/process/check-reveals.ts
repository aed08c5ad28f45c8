/**
 * Part of check 7: each reveal follows its rule (examination/blind/reveal-rule.ts, the same check
 * `custody verify` makes). A reveal is a system act that no person signs: what makes it legitimate
 * is that every assigned examiner had submitted before it, and that it opens exactly the case's
 * submissions, each with the commitment that submission made. Pure.
 */
import { sameActor } from '../../../core/index.js';
import { revealProblem, type RevealProblem } from '../../../examination/blind/index.js';
import type { ReplayedIndex } from './replay.js';

export interface RevealRuleBreach extends RevealProblem {
  sample: string;
  case: string;
  reveal_seq: number;
}

/** Every reveal entry of the bag's ledger that breaks the rule. */
export function checkRevealRule(index: ReplayedIndex): RevealRuleBreach[] {
  const out: RevealRuleBreach[] = [];
  for (const e of index.entries) {
    const d = e.details;
    if (e.type !== 'examination' || d.action !== 'examination.reveal' || typeof d.sample !== 'string' || typeof d.case !== 'string' || !Array.isArray(d.answers)) continue;
    const sample = d.sample;
    const kase = d.case;
    const answers = d.answers.map((a) => {
      const r = typeof a === 'object' && a !== null && !Array.isArray(a) ? a : {};
      return { examiner: typeof r.examiner === 'string' ? r.examiner : '', commitment: typeof r.commitment === 'string' ? r.commitment : undefined };
    });
    const assigned = index.assignments.filter((a) => a.sample_id === sample && a.case_id === kase).map((a) => a.examiner);
    const submissions = index.submissions.filter((s) => s.sample_id === sample && s.case_id === kase).map((s) => ({ examiner: s.examiner, seq: s.submit_seq, commitment: s.commitment }));
    const problem = revealProblem({ seq: e.seq, answers }, assigned, submissions, sameActor);
    if (problem !== null) out.push({ ...problem, sample, case: kase, reveal_seq: e.seq });
  }
  return out;
}
