import { CustodyError } from '../core/index.js';

export type AccountErrorCode =
  | 'ACCOUNT_EXISTS'
  | 'ACCOUNT_NOT_FOUND'
  | 'ACCOUNT_INVALID'
  | 'ACCOUNT_ROLE_UNKNOWN'
  | 'ACCOUNT_DISABLED'
  | 'ACCOUNT_PASSWORD_WEAK'
  | 'ACCOUNT_KEY_REQUIRED'
  | 'ACCOUNT_FORBIDDEN';
export class AccountError extends CustodyError<AccountErrorCode> {}
