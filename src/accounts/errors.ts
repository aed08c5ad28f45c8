import { CustodyError } from '../core/index.js';

export type AccountErrorCode =
  | 'ACCOUNT_EXISTS'
  | 'ACCOUNT_NOT_FOUND'
  | 'ACCOUNT_INVALID'
  | 'ACCOUNT_ROLE_UNKNOWN'
  | 'ACCOUNT_DISABLED'
  | 'ACCOUNT_PASSWORD_WEAK'
  | 'ACCOUNT_KEY_REQUIRED'
  | 'ACCOUNT_FORBIDDEN'
  /** An enrolment whose self-signature does not verify, or a key already enrolled. */
  | 'PERSON_KEY_INVALID'
  /** Keys are for examiners and adjudicators. */
  | 'PERSON_KEY_ROLE_REFUSED'
  /** No active key to revoke or to sign with. */
  | 'PERSON_KEY_NOT_FOUND';
export class AccountError extends CustodyError<AccountErrorCode> {}
