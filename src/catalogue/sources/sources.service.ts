import { normaliseActor, type JsonValue, CustodyError,
  hint,
  type OperationContext,
} from '../../core/index.js';
import type { EntryDraft, SourceDetails } from '../../ledger/index.js';
import type { StoredEntry } from '../../ledger/ledger.service.js';
import type { IndexReads } from '../ports.js';
import {
  openIdentity,
  sealIdentity,
  SourceCryptoError,
  type SealedIdentity,
} from './identity-crypto.js';

/** What the source registry reads and appends. */
export interface SourcesPorts
  extends IndexReads<'getSource' | 'getSourceRole' | 'listDeliveries' | 'listSourceReads' | 'listSources'> {
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
}
/** Who acts (the ledger's actor, and the one whose custodian role is checked). */
type Actor = Pick<OperationContext, 'actor'>;

export type SourceErrorCode =
  | 'SOURCE_EXISTS'
  | 'SOURCE_NOT_FOUND'
  | 'SOURCE_FORBIDDEN'
  | 'SOURCE_INVALID'
  | 'SOURCE_NOT_INITIALISED'
  | 'SOURCE_NOT_REGISTERED';
export class SourceError extends CustodyError<SourceErrorCode> {}

/** The role that may read real identities. */
export const CUSTODIAN = 'source-custodian';
/** Reserved record holding a known plaintext, so that a wrong passphrase is caught before use. */
const KEY_CHECK = '@key-check';
const CODENAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function need(passphrase: string | null): string {
  if (passphrase === null || passphrase === '')
    throw new SourceCryptoError(
      'SOURCE_KEY_REQUIRED',
      'this needs the sources passphrase (CUSTODY_SOURCES_PASSPHRASE)',
    );
  return passphrase;
}

async function checkKey(archive: SourcesPorts, passphrase: string | null): Promise<string> {
  const p = need(passphrase);
  const check = await archive.index.getSource(KEY_CHECK);
  if (check?.identity_json == null)
    throw new SourceError(
      'SOURCE_NOT_INITIALISED',
      'the sources key is not set yet',
      { details: hint({ remedy: ['init-sources'] }) },
    );
  openIdentity(p, KEY_CHECK, JSON.parse(check.identity_json) as SealedIdentity);
  return p;
}

async function commit(archive: SourcesPorts, ctx: Actor, details: SourceDetails): Promise<number> {
  const [e] = await archive.commit([
    { actor: ctx.actor, type: 'cataloguing', items: [], objects: [], details },
  ]);
  return e?.entry.seq ?? -1;
}

/** Sets the sources key (by its passphrase) and makes the acting administrator its first custodian. */
export async function initSources(archive: SourcesPorts, ctx: Actor, passphrase: string | null): Promise<void> {
  const p = need(passphrase);
  if ((await archive.index.getSource(KEY_CHECK)) !== undefined)
    throw new SourceError('SOURCE_EXISTS', 'the sources key is already set');
  await commit(archive, ctx, {
    action: 'source.register',
    codename: KEY_CHECK,
    identity: sealIdentity(p, KEY_CHECK, 'custody sources key check') as unknown as JsonValue,
  });
  await commit(archive, ctx, { action: 'source.grant', grantee: ctx.actor, role: CUSTODIAN });
}

/** Registers a source by codename, with its identity sealed when one is given. */
export async function registerSource(
  archive: SourcesPorts,
  ctx: Actor,
  codename: string,
  identity: string | null,
  passphrase: string | null,
): Promise<void> {
  if (!CODENAME_RE.test(codename))
    throw new SourceError('SOURCE_INVALID', 'a codename is 1–64 letters, digits, - or _');
  if ((await archive.index.getSource(codename)) !== undefined)
    throw new SourceError('SOURCE_EXISTS', `source ${codename} is already registered`);
  const sealed =
    identity === null
      ? null
      : sealIdentity(await checkKey(archive, passphrase), codename, identity);
  await commit(archive, ctx, {
    action: 'source.register',
    codename,
    identity: sealed as unknown as JsonValue,
  });
}

/**
 * The source a delivery names must be registered, so that a typo does not silently make a new
 * source. `register` (ingest --new-source) registers it first, without an identity. A codename
 * that earlier deliveries already carry (archives from before registration was required) is
 * accepted as it is. Writes nothing: returns the registration to make (with --new-source), or
 * null, so that intake registers the source only once its own refusals have passed (an ingest
 * refused for its paths writes nothing at all).
 */
export async function requireSource(archive: SourcesPorts, ctx: Actor, codename: string, register: boolean): Promise<(() => Promise<void>) | null> {
  if (!CODENAME_RE.test(codename))
    throw new SourceError('SOURCE_INVALID', 'a codename is 1–64 letters, digits, - or _');
  if ((await archive.index.getSource(codename)) !== undefined) return null;
  if ((await archive.index.listDeliveries()).some((d) => d.source === codename)) return null;
  if (!register)
    throw new SourceError(
      'SOURCE_NOT_REGISTERED',
      `source ${codename} is not registered: check the codename`,
      { details: { codename, ...hint({ remedy: ['list-sources', 'new-source'] }) } },
    );
  return () => registerSource(archive, ctx, codename, null, null);
}

export async function grantRole(
  archive: SourcesPorts,
  ctx: Actor,
  grantee: string,
  revoke: boolean,
  passphrase: string | null,
): Promise<void> {
  await requireCustodian(archive, ctx);
  await checkKey(archive, passphrase);
  await commit(archive, ctx, {
    action: revoke ? 'source.revoke' : 'source.grant',
    // The recorded form (NFC, trimmed, validated), the same form the acting actor is compared in.
    grantee: normaliseActor(grantee, 'the grantee'),
    role: CUSTODIAN,
  });
}

/**
 * Reads a real identity: only a custodian, only with the key, and the read is written to the
 * ledger (actor, source, reason) before the identity is shown.
 */
export async function readIdentity(
  archive: SourcesPorts,
  ctx: Actor,
  codename: string,
  reason: string,
  passphrase: string | null,
): Promise<{ codename: string; identity: string; read_seq: number }> {
  if (reason.trim() === '')
    throw new SourceError(
      'SOURCE_INVALID',
      'say why the identity is read: the read is recorded',
      { details: hint({ field: 'reason' }) },
    );
  await requireCustodian(archive, ctx);
  const p = await checkKey(archive, passphrase);
  const s = await archive.index.getSource(codename);
  if (s === undefined || codename === KEY_CHECK)
    throw new SourceError('SOURCE_NOT_FOUND', `no source ${codename}`);
  if (s.identity_json === null)
    throw new SourceError('SOURCE_NOT_FOUND', `source ${codename} has no identity on record`);
  const identity = openIdentity(p, codename, JSON.parse(s.identity_json) as SealedIdentity);
  const seq = await commit(archive, ctx, { action: 'source.read', codename, reason });
  return { codename, identity, read_seq: seq };
}

async function requireCustodian(archive: SourcesPorts, ctx: Actor): Promise<void> {
  const role = await archive.index.getSourceRole(ctx.actor);
  if (role?.role !== CUSTODIAN)
    throw new SourceError(
      'SOURCE_FORBIDDEN',
      `${ctx.actor} does not hold the ${CUSTODIAN} role`,
    );
}

export async function listSources(
  archive: SourcesPorts,
): Promise<{ codename: string; identity_on_record: boolean; deliveries: number; reads: number }[]> {
  const deliveries = await archive.index.listDeliveries();
  const reads = await archive.index.listSourceReads();
  return (await archive.index.listSources())
    .filter((s) => s.codename !== KEY_CHECK)
    .map((s) => ({
      codename: s.codename,
      identity_on_record: s.identity_json !== null,
      deliveries: deliveries.filter((d) => d.source === s.codename).length,
      reads: reads.filter((r) => r.codename === s.codename).length,
    }));
}
