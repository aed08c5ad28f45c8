import type { JsonValue } from '../core/index.js';

/** An account as the index holds it (projected from the ledger): the name is ciphertext. */
export interface AccountRecord {
  id: string;
  role: string;
  org: string | null;
  /** Canonical JSON of a SealedIdentity (catalogue/sources/identity-crypto.ts). */
  name_sealed: string;
  created_seq: number;
  updated_seq: number;
  disabled_seq: number | null;
  disabled_reason: string | null;
}

/** What the accounts service needs; the CLI (later the server) builds it per command or request. */
export interface AccountsPorts {
  readonly actor: string;
  newId(): string;
  /** The archive's sealing key (write mode); each account's name key is derived from it. */
  readonly sealingKey: Buffer | null;
  listAccounts(): Promise<AccountRecord[]>;
  /** The index's account_passwords table: never the ledger. */
  getPasswordHash(accountId: string): Promise<string | undefined>;
  setPasswordHash(accountId: string, hash: string): Promise<void>;
  /** Appends one `cataloguing` entry with these details; returns its seq. */
  commit(details: { [k: string]: JsonValue }): Promise<number>;
}
