// Per-person signing keys (issue 12): an examiner or adjudicator enrols an Ed25519 key made on
// their side. The enrolment is self-signed (`custody key enrol v1`, core/person-signature.ts), so
// the ledger records a public key its holder proved to hold; the person confirms the printed
// fingerprint on a signed paper form. A new enrolment replaces the active key (rotation); a
// revocation ends it. `custody verify` checks that each signed act used a key valid at its seq.
import { personKeyFingerprint, personKeyId, personSignedBytes, verifyPersonSignature } from '../core/index.js';
import type { AccountKeyEnrolDetails, AccountKeyRevokeDetails } from '../ledger/index.js';
import type { AccountsTable, PersonKeysTable } from '../db/index.js';
import { AccountError } from './errors.js';

export interface PersonKeysPorts {
  listAccounts(): Promise<AccountsTable[]>;
  listPersonKeys(): Promise<PersonKeysTable[]>;
  /** Appends one `cataloguing` entry with these details; returns its seq. */
  commit(details: AccountKeyEnrolDetails | AccountKeyRevokeDetails): Promise<number>;
}

export interface EnrolRequest {
  account: string;
  /** The raw 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  /** Ed25519 signature over personSignedBytes('key enrol', {account, key_id, public_key}). */
  signature: Uint8Array;
}

/** The fields an enrolment signs, for the signer (CLI or browser) to sign. */
export function enrolmentFields(account: string, publicKey: Uint8Array): { account: string; key_id: string; public_key: string } {
  return { account, key_id: personKeyId(publicKey), public_key: Buffer.from(publicKey).toString('base64') };
}

function activeKey(keys: readonly PersonKeysTable[], account: string): PersonKeysTable | undefined {
  return keys.find((k) => k.account_id === account && k.ended_seq === null);
}

export async function enrolPersonKey(ports: PersonKeysPorts, req: EnrolRequest): Promise<{ key_id: string; fingerprint: string; replaces: string | null; seq: number }> {
  const account = (await ports.listAccounts()).find((a) => a.id === req.account);
  if (account === undefined) throw new AccountError('ACCOUNT_NOT_FOUND', `no account ${req.account}`);
  if (account.disabled_seq !== null) throw new AccountError('ACCOUNT_DISABLED', 'the account is disabled');
  if (account.role !== 'examiner' && account.role !== 'adjudicator')
    throw new AccountError('PERSON_KEY_ROLE_REFUSED', `signing keys are for examiners and adjudicators; account ${account.id} has the ${account.role} role`);
  const fields = enrolmentFields(account.id, req.publicKey);
  if (!verifyPersonSignature(req.publicKey, personSignedBytes('key enrol', fields), req.signature))
    throw new AccountError('PERSON_KEY_INVALID', 'the enrolment is not signed by the key it enrols');
  const keys = await ports.listPersonKeys();
  if (keys.some((k) => k.key_id === fields.key_id)) throw new AccountError('PERSON_KEY_INVALID', `key ${fields.key_id} is already enrolled`);
  const replaces = activeKey(keys, account.id)?.key_id ?? null;
  const fingerprint = personKeyFingerprint(req.publicKey);
  const seq = await ports.commit({
    action: 'account.key.enrol',
    ...fields,
    algorithm: 'Ed25519',
    fingerprint,
    replaces,
    signature: Buffer.from(req.signature).toString('base64'),
  });
  return { key_id: fields.key_id, fingerprint, replaces, seq };
}

export async function revokePersonKey(ports: PersonKeysPorts, account: string, reason: string): Promise<{ key_id: string; seq: number }> {
  if (reason.trim() === '') throw new AccountError('ACCOUNT_INVALID', 'say why: the reason is recorded', { details: { field: 'reason' } });
  const key = activeKey(await ports.listPersonKeys(), account);
  if (key === undefined) throw new AccountError('PERSON_KEY_NOT_FOUND', `account ${account} has no active signing key`);
  const seq = await ports.commit({ action: 'account.key.revoke', account, key_id: key.key_id, reason });
  return { key_id: key.key_id, seq };
}
