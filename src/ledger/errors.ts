import { CustodyError } from '../core/index.js';

export type LedgerErrorCode =
  | 'LEDGER_ENTRY_MALFORMED'
  | 'LEDGER_SEQ_MISMATCH'
  | 'LEDGER_LOCKED'
  | 'LEDGER_TORN_TAIL'
  | 'LEDGER_WRITE_FAILED'
  | 'LEDGER_NO_CHECKPOINT'
  | 'LEDGER_PROOF_INVALID'
  | 'LEDGER_BAD_RANGE'
  | 'LEDGER_DB_AHEAD'
  | 'LEDGER_CHANGED_UNDER_WRITER'
  | 'LEDGER_TAIL_UNAUTHENTICATED'
  | 'LEDGER_CHECKPOINT_INVALID'
  | 'LEDGER_CHECKPOINT_MISMATCH'
  | 'LEDGER_TRUNCATED'
  | 'LEDGER_ROLLED_BACK'
  | 'LEDGER_NO_UNAUTHENTICATED_TAIL'
  | 'LEDGER_NOT_REGULAR'
  /** An entry's bytes do not hash to its leaf in the authenticated tree, or the leaf index disagrees with the entries. */
  | 'LEDGER_LEAVES_MISMATCH'
  /** A read handle's refresh found the ledger it had read replaced, cut or edited. */
  | 'LEDGER_CHANGED_UNDER_READER';

export class LedgerError extends CustodyError<LedgerErrorCode> {}
