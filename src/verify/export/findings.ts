import type { BagitCode } from '../bagit/index.js';

/**
 * Finding codes of the export verifier (LAYOUT.md, "Checks, in order"), next to the BagIt codes
 * that checks 1 and 2 report. Stable: scripts and tests branch on them.
 */
export type ExportCode =
  | 'EXPORT_LAYOUT_INVALID' // a file LAYOUT.md requires is missing or does not parse
  | 'EXPORT_KEY_NOT_PINNED' // warning: the verifier key came from the bag itself
  | 'EXPORT_KEY_INVALID' // custody/verifier-key.txt or .pem is not a usable Ed25519 key
  | 'EXPORT_KEY_MISMATCH' // the bag's key is not the pinned key, or its .txt and .pem differ
  | 'EXPORT_CHECKPOINT_SIGNATURE_INVALID' // checkpoint.txt is not signed by the key in use
  | 'EXPORT_CHECKPOINT_MISMATCH' // bag-info / export.json / checkpoint.body|.sig / trusted checkpoint disagree
  | 'EXPORT_TRUSTED_CHECKPOINT_INVALID' // the --trusted-checkpoint note does not verify with the key
  | 'EXPORT_CONSISTENCY_INVALID' // custody/consistency.json does not prove the trusted checkpoint
  | 'EXPORT_PROOF_MISSING' // an exported item without custody/proofs/<item-id>.json
  | 'EXPORT_PROOF_INVALID' // leaf hash or inclusion proof does not recompute the checkpoint root
  | 'EXPORT_ENTRY_MISMATCH' // the entry is not this item's ingestion, or its object is not the file
  | 'EXPORT_ENTRY_UNPROVEN' // a custody/ledger.jsonl line no proof covers, or a full ledger that does not recompute the root
  | 'EXPORT_PROCESS_INCOMPLETE' // warning: not the full ledger, so what is shown is authentic but not proven complete
  | 'EXPORT_RECEIPT_INVALID' // --receipt: not signed by the key, a proof fails, or its entry is not this bag's
  | 'EXPORT_SELECTION_INCOMPLETE' // --receipt: the recorded items differ from the bag's, or a delivery's count
  | 'EXPORT_TABLE_MISMATCH' // a table differs from the one derived from the ledger entries (details: table, row, column, bag, derived)
  | 'EXPORT_SAMPLE_MISMATCH' // the sample redrawn from frame and seed differs from the manifest or samples.json (details: sample, position, bag, derived)
  | 'EXPORT_COMMITMENT_MISMATCH' // a revealed answer does not open its submission's commitment (details: sample, case, examiner, reveal_seq, submit_seq)
  | 'EXPORT_PERSON_KEY_INVALID' // a key enrolment whose self-signature does not verify, or whose key id is not its key's (details: seq, act, person, key_id)
  | 'EXPORT_SIGNATURE_INVALID' // a person's signature that does not verify, or by a key not theirs or not valid at the entry's seq, or never enrolled (full ledger)
  | 'EXPORT_SIGNATURE_MISSING' // an unsigned submission or adjudication by a person who had a valid enrolled key at its seq
  | 'EXPORT_SIGNATURE_UNVERIFIABLE' // a signature whose key enrolment the bag does not carry (partial ledger, or withheld): not checkable from the bag
  | 'EXPORT_REVEAL_EARLY'; // a reveal before every assigned examiner of the case had submitted (details: sample, case, reveal_seq)

export type FindingCode = ExportCode | BagitCode;

export interface ExportFinding {
  code: FindingCode;
  severity: 'error' | 'warning';
  /** Which check found it. */
  step: StepNumber;
  path?: string;
  message: string;
  /** Where exactly, for scripts: e.g. {seq} of a ledger line, {line} of a malformed one. */
  details?: Record<string, unknown>;
}

export type StepNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface StepReport {
  step: StepNumber;
  name: string;
  ok: boolean;
  /** One line for a person: what was checked, or what failed first. */
  detail: string;
}

export const STEP_NAMES: Readonly<Record<StepNumber, string>> = {
  1: 'BagIt completeness and validity (RFC 8493 §3)',
  2: 'manifests: sha256 of every payload and tag file',
  3: 'checkpoint signature and bag-info',
  4: 'inclusion proofs (RFC 9162 §2.1.3.2)',
  5: 'evidence files against their ingestion entries',
  6: 'ledger: every line of custody/ledger.jsonl proven',
  7: 'process: tables re-derived from the ledger, sample redrawn, reveals opened, statistics recomputed, people\'s signatures checked',
  8: 'completeness: the export receipt (--receipt)',
};

/** Collects the findings of one step. */
export class StepFindings {
  readonly findings: ExportFinding[] = [];
  constructor(readonly step: StepNumber) {}

  error(code: FindingCode, message: string, path?: string, details?: Record<string, unknown>): void {
    this.push(code, 'error', message, path, details);
  }

  warn(code: FindingCode, message: string, path?: string, details?: Record<string, unknown>): void {
    this.push(code, 'warning', message, path, details);
  }

  private push(code: FindingCode, severity: ExportFinding['severity'], message: string, path?: string, details?: Record<string, unknown>): void {
    this.findings.push({ code, severity, step: this.step, message, ...(path === undefined ? {} : { path }), ...(details === undefined ? {} : { details }) });
  }

  get ok(): boolean {
    return !this.findings.some((f) => f.severity === 'error');
  }

  /** The step's report: `detail` on success, the first error's message otherwise. */
  report(detail: string): StepReport {
    const first = this.findings.find((f) => f.severity === 'error');
    const errors = this.findings.filter((f) => f.severity === 'error').length;
    const more = errors > 1 ? ` (and ${errors - 1} more)` : '';
    return { step: this.step, name: STEP_NAMES[this.step], ok: this.ok, detail: first ? `${first.message}${more}` : detail };
  }
}
