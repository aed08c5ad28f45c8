import { CustodyError } from '../core/errors.js';

export type LedgerErrorCode =
  | 'LEDGER_ENTRY_MALFORMED'
  | 'LEDGER_SEQ_MISMATCH'
  | 'LEDGER_LOCKED'
  | 'LEDGER_TORN_TAIL'
  | 'LEDGER_WRITE_FAILED'
  | 'LEDGER_NO_CHECKPOINT'
  | 'LEDGER_PROOF_INVALID'
  | 'LEDGER_BAD_RANGE'
  | 'LEDGER_DB_AHEAD';

export class LedgerError extends CustodyError<LedgerErrorCode> {}
