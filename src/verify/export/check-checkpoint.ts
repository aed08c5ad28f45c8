/**
 * Check 3 of LAYOUT.md: the checkpoint is signed by the archive's key, and it is the checkpoint
 * bag-info.txt and export.json speak of. With a trusted checkpoint, the bag's checkpoint must also
 * be that checkpoint or provably extend it (RFC 9162 §2.1.4.2).
 */
import {
  fromHex,
  openNote,
  parseCheckpoint,
  toHex,
  verifyConsistency,
  type Checkpoint,
  type NoteVerifier,
} from '../../core/index.js';
import { valuesOf, type TagElement } from '../bagit/index.js';
import type { StepFindings } from './findings.js';
import { pemKey, parsePinnedKey, signatureNames, type VerifierKey } from './keys.js';
import { parseExportJson, parseJsonObject } from './layout.js';

/** What check 3 reads from the bag (bytes as found; undefined when absent). */
export interface CheckpointFiles {
  note?: Uint8Array;
  body?: Uint8Array;
  sig?: Uint8Array;
  verifierKey?: Uint8Array;
  verifierPem?: Uint8Array;
  exportJson?: Uint8Array;
  consistency?: Uint8Array;
  bagInfo: readonly TagElement[];
}

export interface CheckpointOptions {
  /** A key pinned from an independent channel. */
  pinnedKey?: VerifierKey;
  /** The text of a signed checkpoint note obtained from an independent channel. */
  trustedCheckpoint?: string;
}

export type KeySource = 'pinned key' | 'trusted checkpoint' | 'bag';

export interface CheckpointResult {
  /** The checkpoint's content; present even when its signature failed (for checks 4 and 5). */
  checkpoint?: Checkpoint;
  keySource: KeySource;
  detail: string;
}

export const UNPINNED_WARNING =
  'the verifier key was taken from the bag itself; pin it from an independent channel ' +
  '(--key with the key the archive published, or --trusted-checkpoint)';

const utf8 = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

export function checkCheckpoint(files: CheckpointFiles, options: CheckpointOptions, out: StepFindings): CheckpointResult {
  const bagKey = readBagKey(files, out);
  const key = options.pinnedKey ?? bagKey;
  if (files.note === undefined) {
    out.error('EXPORT_LAYOUT_INVALID', 'custody/checkpoint.txt is missing', 'custody/checkpoint.txt');
    return { keySource: 'bag', detail: '' };
  }
  const note = utf8(files.note);
  const names = signatureNames(note);
  if (options.pinnedKey !== undefined && bagKey !== undefined && names[0] !== undefined) {
    if (options.pinnedKey.asVerifierKey(names[0]) !== bagKey.asVerifierKey(names[0])) {
      out.error('EXPORT_KEY_MISMATCH', 'custody/verifier-key.txt is not the pinned key: this bag was signed by someone else', 'custody/verifier-key.txt');
    }
  }
  const verifiers = key?.verifiers(names) ?? [];
  const checkpoint = openCheckpoint(note, verifiers, out);
  if (checkpoint === undefined) return { keySource: 'bag', detail: '' };
  checkDetachedSignature(files, note, verifiers, out);
  checkAgainstBag(checkpoint, files, out);
  let keySource: KeySource = options.pinnedKey !== undefined ? 'pinned key' : 'bag';
  if (options.trustedCheckpoint !== undefined) {
    if (checkTrusted(checkpoint, options.trustedCheckpoint, verifiers, files.consistency, out) && keySource === 'bag') {
      keySource = 'trusted checkpoint';
    }
  }
  if (keySource === 'bag') out.warn('EXPORT_KEY_NOT_PINNED', UNPINNED_WARNING, 'custody/verifier-key.txt');
  const by = key === undefined ? 'no usable key' : names.join(', ');
  const detail = `${checkpoint.origin} at size ${checkpoint.size}, root ${toHex(checkpoint.root)}, signed by ${by} (key from: ${keySource})`;
  return { checkpoint, keySource, detail };
}

/** custody/verifier-key.txt, and custody/verifier-key.pem holding the same key (for openssl). */
function readBagKey(files: CheckpointFiles, out: StepFindings): VerifierKey | undefined {
  if (files.verifierKey === undefined) {
    out.error('EXPORT_LAYOUT_INVALID', 'custody/verifier-key.txt is missing', 'custody/verifier-key.txt');
    return undefined;
  }
  let key: VerifierKey;
  try {
    key = parsePinnedKey(utf8(files.verifierKey));
    if (key.kind !== 'vkey') throw new Error('not a verifier key line (name+keyid+key)');
  } catch (e) {
    out.error('EXPORT_KEY_INVALID', `custody/verifier-key.txt: ${(e as Error).message}`, 'custody/verifier-key.txt');
    return undefined;
  }
  if (files.verifierPem === undefined) {
    out.error('EXPORT_LAYOUT_INVALID', 'custody/verifier-key.pem is missing', 'custody/verifier-key.pem');
  } else {
    try {
      const name = key.describe.slice(0, key.describe.indexOf('+'));
      if (pemKey(utf8(files.verifierPem)).asVerifierKey(name) !== key.describe) {
        out.error('EXPORT_KEY_MISMATCH', 'custody/verifier-key.pem and custody/verifier-key.txt hold different keys', 'custody/verifier-key.pem');
      }
    } catch (e) {
      out.error('EXPORT_KEY_INVALID', `custody/verifier-key.pem: ${(e as Error).message}`, 'custody/verifier-key.pem');
    }
  }
  return key;
}

/** Verifies the note; on failure still parses its body so that checks 4 and 5 can run. */
function openCheckpoint(note: string, verifiers: readonly NoteVerifier[], out: StepFindings): Checkpoint | undefined {
  try {
    return parseCheckpoint(openNote(note, verifiers).text);
  } catch (e) {
    out.error('EXPORT_CHECKPOINT_SIGNATURE_INVALID', `custody/checkpoint.txt: ${(e as Error).message}`, 'custody/checkpoint.txt');
  }
  try {
    return parseCheckpoint(note.slice(0, note.lastIndexOf('\n\n') + 1));
  } catch (e) {
    out.error('EXPORT_LAYOUT_INVALID', `custody/checkpoint.txt: ${(e as Error).message}`, 'custody/checkpoint.txt');
    return undefined;
  }
}

/** checkpoint.body and checkpoint.sig are what `openssl pkeyutl -verify` checks: they must be the note's. */
function checkDetachedSignature(files: CheckpointFiles, note: string, verifiers: readonly NoteVerifier[], out: StepFindings): void {
  const text = Buffer.from(note.slice(0, note.lastIndexOf('\n\n') + 1), 'utf8');
  if (files.body === undefined || files.sig === undefined) {
    out.error('EXPORT_LAYOUT_INVALID', 'custody/checkpoint.body or custody/checkpoint.sig is missing');
    return;
  }
  if (!text.equals(files.body)) {
    out.error('EXPORT_CHECKPOINT_MISMATCH', 'custody/checkpoint.body is not the text of custody/checkpoint.txt', 'custody/checkpoint.body');
  }
  const sig = Buffer.from(files.sig);
  if (verifiers.length > 0 && !verifiers.some((v) => v.verify(Buffer.from(files.body ?? []), sig))) {
    out.error('EXPORT_CHECKPOINT_SIGNATURE_INVALID', 'custody/checkpoint.sig is not a signature of custody/checkpoint.body by the key', 'custody/checkpoint.sig');
  }
}

/** bag-info.txt (Custody-Origin, -Tree-Size, -Root, External-Identifier) and export.json name this checkpoint. */
function checkAgainstBag(cp: Checkpoint, files: CheckpointFiles, out: StepFindings): void {
  const root = toHex(cp.root);
  const expected: [string, string][] = [
    ['Custody-Origin', cp.origin],
    ['Custody-Tree-Size', String(cp.size)],
    ['Custody-Root', root],
    ['External-Identifier', `${cp.size}/${root}`],
  ];
  for (const [label, want] of expected) {
    const got = valuesOf(files.bagInfo, label);
    if (got.length !== 1 || got[0] !== want) {
      out.error('EXPORT_CHECKPOINT_MISMATCH', `bag-info.txt ${label} is ${JSON.stringify(got.join(', '))}, the checkpoint says ${want}`, 'bag-info.txt');
    }
  }
  const parsed = files.exportJson === undefined ? 'custody/export.json is missing' : parseJsonObject(files.exportJson, 'custody/export.json');
  const ej = typeof parsed === 'string' ? parsed : parseExportJson(parsed);
  if (typeof ej === 'string') out.error('EXPORT_LAYOUT_INVALID', ej, 'custody/export.json');
  else if (ej.origin !== cp.origin || ej.tree_size !== cp.size || ej.root !== root) {
    out.error('EXPORT_CHECKPOINT_MISMATCH', 'custody/export.json names another origin, tree size or root than the checkpoint', 'custody/export.json');
  }
}

/**
 * The trusted checkpoint must verify with the key in use; the bag's checkpoint must equal it or be
 * linked to it by custody/consistency.json (either direction). True when all of that holds.
 */
function checkTrusted(
  cp: Checkpoint,
  trustedNote: string,
  verifiers: readonly NoteVerifier[],
  consistencyBytes: Uint8Array | undefined,
  out: StepFindings,
): boolean {
  let trusted: Checkpoint;
  try {
    trusted = parseCheckpoint(openNote(trustedNote, verifiers).text);
  } catch (e) {
    out.error('EXPORT_TRUSTED_CHECKPOINT_INVALID', `the trusted checkpoint does not verify with the key: ${(e as Error).message}`);
    return false;
  }
  if (trusted.origin !== cp.origin) {
    out.error('EXPORT_CHECKPOINT_MISMATCH', `the trusted checkpoint is of ${trusted.origin}, the bag of ${cp.origin}`);
    return false;
  }
  if (trusted.size === cp.size) {
    if (trusted.root.equals(cp.root)) return true;
    out.error('EXPORT_CHECKPOINT_MISMATCH', `the trusted checkpoint and the bag's have size ${cp.size} and different roots: the log forked`);
    return false;
  }
  const [older, newer] = trusted.size < cp.size ? [trusted, cp] : [cp, trusted];
  if (consistencyBytes === undefined) {
    out.error('EXPORT_CHECKPOINT_MISMATCH', `the trusted checkpoint has size ${trusted.size}, the bag's ${cp.size}, and the bag has no custody/consistency.json`);
    return false;
  }
  const c = parseJsonObject(consistencyBytes, 'custody/consistency.json');
  const proof = typeof c === 'string' || !Array.isArray(c.proof) ? undefined : c.proof;
  const hex = (v: unknown): Buffer | undefined => (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v) ? fromHex(v) : undefined);
  const path = proof?.map(hex);
  if (typeof c === 'string' || path === undefined || path.some((p) => p === undefined)) {
    out.error('EXPORT_LAYOUT_INVALID', 'custody/consistency.json is not {"old_size","old_root","new_size","new_root","proof":[hex]}', 'custody/consistency.json');
    return false;
  }
  const matches = c.old_size === older.size && c.new_size === newer.size && hex(c.old_root)?.equals(older.root) === true && hex(c.new_root)?.equals(newer.root) === true;
  if (!matches || !verifyConsistency(older.size, newer.size, older.root, newer.root, path as Buffer[])) {
    out.error('EXPORT_CONSISTENCY_INVALID', `custody/consistency.json does not prove size ${older.size} is a prefix of size ${newer.size}`, 'custody/consistency.json');
    return false;
  }
  return true;
}
