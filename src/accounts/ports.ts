import type { AccountDetails } from '../ledger/index.js';
import type { AccountsTable } from '../db/index.js';
import type { Role } from './permissions.js';

/** An account as the index holds it (projected from the ledger): the name is ciphertext. */
export type AccountRecord = AccountsTable;

/** What the accounts service needs; the CLI (later the server) builds it per command or request. */
export interface AccountsPorts {
  readonly actor: string;
  /**
   * The acting account's role: account management needs `accounts.manage` (requirePermission).
   * A CLI command run with file access and the archive key is the administrator's.
   */
  readonly role: Role;
  newId(): string;
  /** The archive's sealing key (write mode); each account's name key is derived from it. */
  readonly sealingKey: Buffer | null;
  listAccounts(): Promise<AccountRecord[]>;
  /** The index's account_passwords table: never the ledger. */
  getPasswordHash(accountId: string): Promise<string | undefined>;
  setPasswordHash(accountId: string, hash: string): Promise<void>;
  /** Appends one `cataloguing` entry with these details; returns its seq. */
  commit(details: AccountDetails): Promise<number>;
}
