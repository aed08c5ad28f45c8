/**
 * Part of check 7: every person's signature in the bag's ledger lines (issue 12): self-signed key
 * enrolments, submissions and adjudications, each with the key that was the person's valid key at
 * the entry's seq. The reading is `custody verify`'s own (examination/blind/signed-acts.ts); only
 * what a bag can lack is said here: a signature whose key enrolment the bag does not carry (a
 * partial export, or an entry withheld) cannot be checked, and is reported as such
 * (EXPORT_SIGNATURE_UNVERIFIABLE), never passed.
 */
import { PersonSignatureChecks, type SignatureProblem } from '../../examination/blind/index.js';
import type { ProvenLedger } from './check-ledger.js';
import type { ExportCode } from './findings.js';
import type { StepFindings } from './findings.js';

const LEDGER = 'custody/ledger.jsonl';

/** Checks the signatures and reports to `out`; returns how many verified and how many did not. */
export function checkSignatures(ledger: ProvenLedger, out: StepFindings): { verified: number; failed: number } {
  const problems: SignatureProblem[] = [];
  const checks = new PersonSignatureChecks((p) => problems.push(p));
  for (const entry of ledger.entries) checks.collect(entry);
  for (const p of problems) {
    const { code, message } = p.kind === 'key-unknown' ? unknownKey(ledger, p) : { code: CODE[p.kind], message: p.message };
    out.error(code, message, LEDGER, { seq: p.seq, act: p.act, person: p.person, key_id: p.keyId });
  }
  return { verified: checks.verified, failed: problems.length };
}

const CODE: Record<Exclude<SignatureProblem['kind'], 'key-unknown'>, ExportCode> = {
  'enrolment-invalid': 'EXPORT_PERSON_KEY_INVALID',
  'signature-invalid': 'EXPORT_SIGNATURE_INVALID',
  'signature-missing': 'EXPORT_SIGNATURE_MISSING',
};

/**
 * A key the bag's lines never enrol: with the full ledger and no key entry withheld before it, it
 * was never enrolled (a forged signature); otherwise the bag only lacks the entry, so the
 * signature cannot be checked from this bag.
 */
function unknownKey(ledger: ProvenLedger, p: SignatureProblem): { code: ExportCode; message: string } {
  const withheld = [...ledger.withheld].filter(([seq, w]) => seq < p.seq && (w.action === 'account.key.enrol' || (w.type === 'cataloguing' && w.action === null))).map(([seq]) => seq);
  const what = `entry ${p.seq} (${p.act} by ${p.person}) is signed by key ${p.keyId ?? ''}`;
  if (ledger.full && withheld.length === 0)
    return { code: 'EXPORT_SIGNATURE_INVALID', message: `${what}, which the full ledger never enrols` };
  const why =
    withheld.length > 0
      ? `its enrolment may be among the entries withheld from this bag (${withheld.slice(0, 5).join(', ')}${withheld.length > 5 ? ', …' : ''})`
      : `${LEDGER} is not the full ledger and does not carry that key's enrolment (account.key.enrol)`;
  return { code: 'EXPORT_SIGNATURE_UNVERIFIABLE', message: `${what}, but ${why}: the signature cannot be checked from this bag` };
}
