/**
 * The verifier key of an export: pinned by the person verifying (a signed-note verifier key line,
 * https://c2sp.org/signed-note, or an Ed25519 SPKI PEM), or taken from the bag's
 * custody/verifier-key.txt. A key taken from the bag proves only that the bag is self-consistent:
 * a forger who rebuilds the whole bag signs it with a key of their own.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  CoreError,
  createEd25519Verifier,
  formatVerifierKey,
  parseVerifierKey,
  type NoteVerifier,
} from '../../core/index.js';

export interface VerifierKey {
  /** 'vkey': a verifier key line (name+keyid+key); 'pem': a bare public key, name taken from the note. */
  kind: 'vkey' | 'pem';
  /** For messages: the verifier key line, or "PEM key <fingerprint of the vkey form>". */
  describe: string;
  /** The note verifiers to try for signature lines carrying these key names. */
  verifiers(names: readonly string[]): NoteVerifier[];
  /** The key as a verifier key line for `name` (to compare with custody/verifier-key.txt). */
  asVerifierKey(name: string): string;
}

/**
 * Parses a pinned key: a verifier key line (surrounding whitespace ignored) or a PEM public key.
 * Throws `KEY_MALFORMED` for anything else.
 *
 * @example
 *   parsePinnedKey('custody.example/ledger+c74f20a3+ARpc…\n').kind // 'vkey'
 *   parsePinnedKey(readFileSync('verifier-key.pem', 'utf8')).kind  // 'pem'
 */
export function parsePinnedKey(text: string): VerifierKey {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return pemKey(trimmed);
  if (trimmed.includes('\n')) throw new CoreError('KEY_MALFORMED', 'a verifier key is one line');
  const verifier = parseVerifierKey(trimmed);
  return {
    kind: 'vkey',
    describe: trimmed,
    verifiers: () => [verifier],
    asVerifierKey: () => trimmed,
  };
}

/** An Ed25519 SPKI PEM public key (as `openssl pkey -pubout` and custody/verifier-key.pem write it). */
export function pemKey(pem: string): VerifierKey {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new CoreError('KEY_MALFORMED', 'not a PEM public key', { cause });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CoreError('KEY_MALFORMED', 'the PEM key is not an Ed25519 key');
  return {
    kind: 'pem',
    describe: 'an Ed25519 PEM public key',
    verifiers: (names) => names.flatMap((n) => tryVerifier(n, key)),
    asVerifierKey: (name) => formatVerifierKey(name, key),
  };
}

function tryVerifier(name: string, key: KeyObject): NoteVerifier[] {
  try {
    return [createEd25519Verifier(name, key)];
  } catch {
    return []; // a name the signed-note format does not allow: no verifier for it
  }
}

/** The key names on a note's signature lines ("— <name> <base64>"), for PEM keys. */
export function signatureNames(note: string): string[] {
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return [];
  const names = note
    .slice(split + 2)
    .split('\n')
    .filter((l) => l.startsWith('\u2014 '))
    .map((l) => l.slice(2, l.indexOf(' ', 2) < 0 ? undefined : l.indexOf(' ', 2)));
  return [...new Set(names)];
}
