import { type KeyObject } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import {
  parseCanonical,
  formatVerifierKey,
  parseVerifierKey,
  verifyCheckpoint,
  CustodyError,
  hint,
} from '../core/index.js';
import { fieldsOf, parseEntry } from '../ledger/index.js';
import { rawPublicKey } from './key-envelope.js';
import { ArchiveError } from './errors.js';
import type { ArchiveManifest } from './layout.js';
import { openSigningKeyFile, signingKeyFilePublicKey } from './signing-key.adapter.js';

const { O_NOFOLLOW, O_NONBLOCK, O_RDONLY } = constants;

/**
 * The archive's key of record is the `creation` entry at ledger seq 0 (`details.verifier_key`):
 * it is a leaf of every signed checkpoint. `keys/checkpoint-verifier.txt` is only a copy, and the
 * key file only claims to hold the matching private key; both are checked against the record.
 */
export interface KeyRecordPaths {
  ledger: string;
  privateKey: string;
  publicKey: string;
}

/** The creation entry is small; a first line longer than this is not one. */
const MAX_FIRST_LINE = 64 * 1024;

/**
 * Refuses to write with a signing key that is not the archive's (KEY_MISMATCH), or while the
 * verifier key copy on disk differs from the record (KEY_VERIFIER_FILE_MISMATCH). Called on every
 * open for writing, right after the key is opened and before anything is appended or signed.
 * `allowEmptyLedger` is for `init` only, which opens the archive before writing the creation entry.
 */
export async function assertSigningKeyMatches(paths: KeyRecordPaths, privateKey: KeyObject, opts: { allowEmptyLedger?: boolean } = {}): Promise<void> {
  const recorded = await readRecordedVerifierKey(paths.ledger);
  if (recorded === null) {
    if (opts.allowEmptyLedger === true) return;
    throw noRecord('the ledger has no creation entry');
  }
  const mine = verifierKeyFor(recorded, privateKey);
  if (mine !== recorded) {
    throw new ArchiveError(
      'KEY_MISMATCH',
      `the signing key (${keyIdOf(mine)}) is not the archive's key recorded at creation (${keyIdOf(recorded)}): nothing was written; use the archive's own key file`,
      { details: { subject: 'signing-key', recorded, found: mine } },
    );
  }
  await assertVerifierFileMatches(paths.publicKey, recorded);
}

/**
 * For `custody key --public`: the verifier key of record, once the copy on disk, the key file's
 * public half (and, when `passphrase` is given, its private key) and the newest checkpoint
 * (`newestCheckpoint`, if any) all agree with it. Throws KEY_RECORD_MISSING,
 * KEY_VERIFIER_FILE_MISMATCH or KEY_MISMATCH otherwise.
 */
export async function checkedVerifierKey(paths: KeyRecordPaths, opts: { passphrase: string | null; newestCheckpoint: string | null }): Promise<string> {
  const recorded = await readRecordedVerifierKey(paths.ledger);
  if (recorded === null) throw noRecord('the ledger has no creation entry');
  await assertVerifierFileMatches(paths.publicKey, recorded);
  const recordedRaw = rawFromVerifierKey(recorded);
  let filePublic: Buffer | null = null;
  try {
    if (opts.passphrase !== null) filePublic = rawPublicKey((await openSigningKeyFile(paths.privateKey, opts.passphrase)).privateKey);
    else filePublic = (await signingKeyFilePublicKey(paths.privateKey)).publicKey;
  } catch (e) {
    // A verifier may hold a copy of the archive without its private key: nothing to compare.
    if (!(e instanceof ArchiveError && e.code === 'KEY_UNREADABLE' && opts.passphrase === null)) throw e;
  }
  if (filePublic !== null && !filePublic.equals(recordedRaw)) {
    throw new ArchiveError('KEY_MISMATCH', `the signing key file ${paths.privateKey} holds another key than the one recorded at creation (${keyIdOf(recorded)})`, {
      details: { subject: 'key-file', recorded },
    });
  }
  if (opts.newestCheckpoint !== null) {
    try {
      verifyCheckpoint(opts.newestCheckpoint, parseVerifierKey(recorded));
    } catch (e) {
      throw new ArchiveError('KEY_MISMATCH', `the newest checkpoint is not signed by the key recorded at creation (${keyIdOf(recorded)})`, {
        cause: e,
        details: { subject: 'checkpoint', recorded, ...hint({ remedy: ['verify'] }) },
      });
    }
  }
  return recorded;
}

/** The verifier key in the creation entry (line 0 of the ledger), or null if there is no line 0 yet. */
export async function readRecordedVerifierKey(ledgerPath: string): Promise<string | null> {
  const line = await readFirstLine(ledgerPath);
  if (line === null) return null;
  let vkey: unknown;
  try {
    const entry = parseEntry(parseCanonical(line), 0);
    if (entry.type !== 'creation') throw noRecord(`the ledger's first entry is a "${entry.type}" entry, not the creation entry`);
    vkey = fieldsOf(entry, 'creation').verifier_key;
  } catch (e) {
    if (e instanceof ArchiveError) throw e;
    throw noRecord(`the ledger's first entry cannot be read (${e instanceof CustodyError ? e.code : 'malformed'})`, e);
  }
  if (typeof vkey !== 'string') throw noRecord('the creation entry records no verifier key');
  try {
    parseVerifierKey(vkey);
  } catch (e) {
    throw noRecord('the creation entry records a malformed verifier key', e);
  }
  return vkey;
}

async function assertVerifierFileMatches(path: string, recorded: string): Promise<void> {
  let onDisk: string;
  try {
    onDisk = (await readSmall(path, 4096)).toString('utf8').trim();
  } catch (e) {
    onDisk = `(unreadable: ${(e as Error).message})`;
  }
  if (onDisk !== recorded) {
    throw new ArchiveError(
      'KEY_VERIFIER_FILE_MISMATCH',
      `${path} does not hold the verifier key recorded in the ledger's creation entry (${keyIdOf(recorded)}): the copy was altered; restore it from your own record of the key`,
      { details: { subject: 'verifier-file', recorded } },
    );
  }
}

function verifierKeyFor(recorded: string, privateKey: KeyObject): string {
  return formatVerifierKey(recorded.slice(0, recorded.indexOf('+')), privateKey);
}

function rawFromVerifierKey(vkey: string): Buffer {
  return Buffer.from(vkey.slice(vkey.indexOf('+', vkey.indexOf('+') + 1) + 1), 'base64').subarray(1);
}

function keyIdOf(vkey: string): string {
  return `key id ${vkey.split('+')[1] ?? '?'}`;
}

function noRecord(why: string, cause?: unknown): ArchiveError {
  return new ArchiveError('KEY_RECORD_MISSING', `cannot check the signing key against the archive's record: ${why}`, { cause, details: hint({ remedy: ['verify'] }) });
}

/** Line 0 of the ledger without its newline; null when there is no complete line yet (a new archive). */
async function readFirstLine(path: string): Promise<Buffer | null> {
  let head: Buffer;
  try {
    head = await readSmall(path, MAX_FIRST_LINE);
  } catch (e) {
    throw noRecord(`the ledger cannot be read (${(e as Error).message})`, e);
  }
  const nl = head.indexOf(0x0a);
  if (nl >= 0) return head.subarray(0, nl);
  if (head.length >= MAX_FIRST_LINE) throw noRecord('the first line of the ledger is too long to be a creation entry');
  return null;
}

/** Up to `max` bytes from the start of a regular file, never following a link or blocking on a FIFO. */
export async function readSmall(path: string, max: number): Promise<Buffer> {
  const fh = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    if (!(await fh.stat()).isFile()) throw new Error('not a regular file');
    const buf = Buffer.alloc(max);
    const { bytesRead } = await fh.read(buf, 0, max, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The archive's manifest (custody.json), bounded and checked: ARCHIVE_NOT_FOUND where there is none. */
export async function readManifest(path: string, dir: string): Promise<ArchiveManifest> {
  let text: string;
  try {
    text = (await readSmall(path, 64 * 1024)).toString('utf8'); // bounded: no link, no FIFO
  } catch (e) {
    if (
      (e as NodeJS.ErrnoException).code === 'ENOENT' ||
      (e as NodeJS.ErrnoException).code === 'ENOTDIR'
    ) {
      throw new ArchiveError('ARCHIVE_NOT_FOUND', `no archive at ${dir}`, {
        details: { dir, ...hint({ remedy: ['init-archive'] }) },
      });
    }
    throw new ArchiveError('ARCHIVE_INVALID', `cannot read ${path}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  let m: Partial<ArchiveManifest>;
  try {
    m = JSON.parse(text) as Partial<ArchiveManifest>;
  } catch {
    throw new ArchiveError('ARCHIVE_INVALID', `${path} is damaged: not valid JSON`);
  }
  if (
    m.format !== 'custody-archive' ||
    m.version !== 1 ||
    typeof m.origin !== 'string' ||
    typeof m.id !== 'string'
  ) {
    throw new ArchiveError('ARCHIVE_INVALID', `${path} is not a Custody archive manifest`);
  }
  return m as ArchiveManifest;
}
