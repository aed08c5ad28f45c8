// `custody key enrol|revoke` (issue 12, per-person signing keys): the key is made here, on the
// person's side, stored encrypted under their key password, and enrolled by a self-signed entry.
import { unlink } from 'node:fs/promises';
import type { Archive } from '../app.js';
import { resolveAccountId } from '../accounts/accounts.service.js';
import { createPersonKey, openPersonKey, signBytes, signPersonAct } from '../accounts/person-key-file.adapter.js';
import { activePersonKey, type PersonSigner } from '../examination/blind/index.js';
import { enrolmentFields, enrolPersonKey, revokePersonKey, type PersonKeysPorts } from '../accounts/person-keys.service.js';
import { printJson, str, UsageError, type Io, type ParsedArgs } from './command.js';
import { passphraseFrom, wantsJson, withArchive } from './context.js';

function ports(a: Archive, actor: string): PersonKeysPorts {
  return {
    listAccounts: () => a.index.listAccounts(),
    listPersonKeys: () => a.index.listPersonKeys(),
    async commit(details) {
      const [e] = await a.commit([{ actor, type: 'cataloguing', items: [], objects: [], details }]);
      return e?.entry.seq ?? -1;
    },
  };
}

/** The key password: never the login password, never the archive's passphrase. */
export function keyPasswordFrom(args: ParsedArgs, io: Io): string | undefined {
  return passphraseFrom(args, io.env, { file: 'key-password-file', fd: 'key-password-fd' });
}

export async function personKeyAction(action: 'enrol' | 'revoke', args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const user = str(args, 'user');
  if (user === undefined) throw new UsageError(`name the person: --user NAME\nusage: ${usage}`);
  if (action === 'revoke') {
    const reason = str(args, 'reason');
    if (reason === undefined || reason.trim() === '') throw new UsageError(`say why: --reason TEXT\nusage: ${usage}`);
    const r = await withArchive(args, io, 'write', 'key revoke', async (a) => {
      const id = await resolveAccountId({ listAccounts: () => a.index.listAccounts(), sealingKey: a.sealingKey }, user);
      return revokePersonKey(ports(a, a.config.actor), id, reason);
    });
    if (wantsJson(args)) printJson(io, r);
    else io.stdout(`key ${r.key_id} revoked (entry ${r.seq})\n`);
    return 0;
  }
  const password = keyPasswordFrom(args, io);
  if (password === undefined) throw new UsageError(`the key is stored under a key password of its own: --key-password-file FILE or --key-password-fd N\nusage: ${usage}`);
  const r = await withArchive(args, io, 'write', 'key enrol', async (a) => {
    const id = await resolveAccountId({ listAccounts: () => a.index.listAccounts(), sealingKey: a.sealingKey }, user);
    const made = await createPersonKey(a.config.archiveDir, id, password);
    try {
      const signature = signPersonAct(made.privateKey, 'key enrol', enrolmentFields(id, made.publicKey));
      // Self-signed: recorded as the person's own act.
      return { account: id, ...(await enrolPersonKey(ports(a, id), { account: id, publicKey: made.publicKey, signature })) };
    } catch (e) {
      await unlink(made.path).catch(() => undefined);
      throw e;
    }
  });
  if (wantsJson(args)) printJson(io, r);
  else {
    io.stdout(`key ${r.key_id} enrolled for account ${r.account} (entry ${r.seq})${r.replaces === null ? '' : `, replacing key ${r.replaces}`}\n`);
    io.stdout(`fingerprint (confirm it on the signed enrolment form): ${r.fingerprint}\n`);
  }
  return 0;
}

/**
 * The examiner's or adjudicator's signer, when they give their key password: their valid key, opened here (on
 * their side) and used to sign the bytes the service builds. Without a key password, none: the
 * service then refuses if the examiner has an enrolled key (EXAMINATION_SIGNATURE_REQUIRED).
 */
export async function signerFor(a: Archive, args: ParsedArgs, io: Io, actor: string): Promise<PersonSigner | undefined> {
  const password = keyPasswordFrom(args, io);
  if (password === undefined) return undefined;
  const key = activePersonKey(await a.index.listPersonKeys(), actor);
  if (key === undefined) throw new UsageError(`a key password was given but ${actor} has no enrolled signing key (custody key enrol)`);
  const privateKey = await openPersonKey(a.config.archiveDir, key.account_id, key.key_id, password);
  return { keyId: key.key_id, sign: (message) => Promise.resolve(signBytes(privateKey, message)) };
}

