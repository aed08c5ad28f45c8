import { CustodyError } from '../../core/index.js';

export type ExamErrorCode =
  /** No such case in the sample. */
  | 'EXAMINATION_CASE_NOT_FOUND'
  /** Assignment asked wrongly: fewer than two examiners per case, already assigned, no manifest. */
  | 'EXAMINATION_ASSIGN_INVALID'
  /** The acting examiner is not assigned to this case. */
  | 'EXAMINATION_NOT_ASSIGNED'
  /** This examiner already submitted for this case; a commitment cannot be changed. */
  | 'EXAMINATION_ALREADY_SUBMITTED'
  /** A line of a batch file cannot be read as a case and its form or decisions, or names a case twice. */
  | 'EXAMINATION_BATCH_INVALID'
  /** Answers asked for before every assigned examiner submitted (blindness, enforced here). */
  | 'EXAMINATION_SEALED'
  /** Adjudication asked for before the case's answers were revealed. */
  | 'EXAMINATION_CASE_UNFINISHED'
  /** The examiners agree on every field: there is nothing to adjudicate. */
  | 'EXAMINATION_NOTHING_TO_ADJUDICATE'
  | 'EXAMINATION_ALREADY_ADJUDICATED'
  /** An examiner of the case may not adjudicate it. */
  | 'EXAMINATION_ADJUDICATOR_IS_EXAMINER'
  /** A revealed answer and salt do not hash to the commitment made earlier: the ledger was altered. */
  | 'EXAMINATION_REVEAL_MISMATCH'
  /** The codebook recorded with the plan does not match its digest. */
  | 'EXAMINATION_CODEBOOK_MISMATCH'
  /** An examiner of a plan asked to read its subjects' catalogue, ledger or items before finishing their cases. */
  | 'BLIND_REFUSED'
  /** An administrator (the archive's key holder), or an account without the role, named as examiner or adjudicator. */
  | 'ASSIGNMENT_ROLE_REFUSED'
  /** An examiner asked for revealed answers of a plan before finishing all of their own cases in it. */
  | 'EXAMINATION_REVEAL_WITHHELD'
  /** Closing a plan whose cases are not all final, or one closed already. */
  | 'EXAMINATION_CLOSE_REFUSED'
  /** The examiner or adjudicator has an enrolled key: their act must be signed with it. */
  | 'EXAMINATION_SIGNATURE_REQUIRED'
  /** A signature that does not verify with the person's key valid now, or made with another key. */
  | 'EXAMINATION_SIGNATURE_INVALID';

export class ExamError extends CustodyError<ExamErrorCode> {}
