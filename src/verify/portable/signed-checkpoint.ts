import { bytesEqual, bytesOfBase64, hexOf, utf8 } from './bytes.js';
import type { ProofCrypto } from './proof-crypto.js';

// C2SP signed notes (https://c2sp.org/signed-note) carrying tlog checkpoints
// (https://c2sp.org/tlog-checkpoint), Ed25519 only: the rules of core/checkpoint.ts, over an
// injected crypto and without Buffer, returning a result instead of throwing so that a page can
// show what failed. The tests run both on the same notes and keys.

export type CheckpointFailure =
  'KEY_MALFORMED' | 'NOTE_MALFORMED' | 'NOTE_NO_VALID_SIGNATURE' | 'CHECKPOINT_MALFORMED';

export type CheckpointCheck =
  | {
      ok: true;
      origin: string;
      size: number;
      root: Uint8Array;
      extensions: string[];
      signedBy: string;
    }
  | { ok: false; code: CheckpointFailure; message: string };

export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
}

const SIG_TYPE_ED25519 = 0x01;
const SIG_PREFIX = '\u2014 '; // em dash, space (signed-note "Format")
const MAX_SIGNATURES = 100;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const KEY_NAME_RE = /^[^\p{White_Space}+\x00-\x1f\p{Cs}]+$/u;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_RE = /[\x00-\x09\x0b-\x1f\p{Cs}]/u;
const SIZE_RE = /^(?:0|[1-9][0-9]*)$/;

class Refusal extends Error {
  constructor(
    readonly code: CheckpointFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The key ID of signed-note "Ed25519 signatures": SHA-256(name || 0x0A || 0x01 || key)[:4]. */
export function keyIdWith(crypto: ProofCrypto, name: string, publicKey: Uint8Array): Uint8Array {
  return crypto.sha256(utf8(`${name}\n`), Uint8Array.of(SIG_TYPE_ED25519), publicKey).slice(0, 4);
}

/**
 * Parses `<name>+<hex key ID>+<base64(0x01 || public key)>` strictly (the key ID must match).
 *
 * @example
 *   parseVerifierKeyWith(nobleProofCrypto, 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW').name
 */
export function parseVerifierKeyWith(crypto: ProofCrypto, vkey: string): VerifierKey {
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) throw new Refusal('KEY_MALFORMED', 'verifier key is not <name>+<key id>+<key>');
  const [name, idHex] = [vkey.slice(0, first), vkey.slice(first + 1, second)];
  if (!KEY_NAME_RE.test(name)) throw new Refusal('KEY_MALFORMED', 'invalid key name');
  const key = bytesOfBase64(vkey.slice(second + 1));
  if (!/^[0-9a-f]{8}$/.test(idHex) || key === undefined)
    throw new Refusal('KEY_MALFORMED', 'malformed verifier key');
  if (key.length !== 33 || key[0] !== SIG_TYPE_ED25519) {
    throw new Refusal('KEY_MALFORMED', 'verifier key is not an Ed25519 (type 0x01) key');
  }
  const publicKey = key.slice(1);
  const keyId = keyIdWith(crypto, name, publicKey);
  if (hexOf(keyId) !== idHex) throw new Refusal('KEY_MALFORMED', 'key ID does not match the key');
  return { name, keyId, publicKey };
}

/**
 * Opens a signed checkpoint note (untrusted input) with one verifier key, by the rules of
 * signed-note "Signatures" (unknown keys ignored; a known key's signature must verify; at least
 * one must) and parses its body by tlog-checkpoint "Note text". The caller still compares
 * `origin` with the log it expects.
 *
 * @example
 *   const r = verifyCheckpointWith(nobleProofCrypto, note, vkey);
 *   if (r.ok) hexOf(r.root);
 */
export function verifyCheckpointWith(
  crypto: ProofCrypto,
  note: string,
  vkey: string,
): CheckpointCheck {
  try {
    const key = parseVerifierKeyWith(crypto, vkey);
    const text = openNote(crypto, note, key);
    return { ok: true, ...parseCheckpointBody(text), signedBy: key.name };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, code: e.code, message: e.message };
    throw e;
  }
}

function openNote(crypto: ProofCrypto, note: string, key: VerifierKey): string {
  if (FORBIDDEN_RE.test(note))
    throw new Refusal('NOTE_MALFORMED', 'note contains control characters or invalid text');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Refusal('NOTE_MALFORMED', 'no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '' || !block.endsWith('\n'))
    throw new Refusal('NOTE_MALFORMED', 'signature block must end in "\\n"');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES)
    throw new Refusal('NOTE_MALFORMED', `more than ${MAX_SIGNATURES} signatures`);
  const message = utf8(text);
  let verified = false;
  for (const line of lines) {
    const { name, keyId, signature } = parseSignatureLine(line);
    if (name !== key.name || !bytesEqual(keyId, key.keyId)) continue;
    if (!crypto.ed25519Verify(signature, message, key.publicKey)) {
      throw new Refusal(
        'NOTE_NO_VALID_SIGNATURE',
        `signature by ${key.name}+${hexOf(key.keyId)} is invalid`,
      );
    }
    verified = true;
  }
  if (!verified) throw new Refusal('NOTE_NO_VALID_SIGNATURE', 'no signature from the known key');
  return text;
}

function parseSignatureLine(line: string): {
  name: string;
  keyId: Uint8Array;
  signature: Uint8Array;
} {
  if (!line.startsWith(SIG_PREFIX))
    throw new Refusal('NOTE_MALFORMED', 'signature line must start with "— "');
  const rest = line.slice(SIG_PREFIX.length);
  const space = rest.indexOf(' ');
  const name = rest.slice(0, space);
  const decoded = space < 0 ? undefined : bytesOfBase64(rest.slice(space + 1));
  if (!KEY_NAME_RE.test(name) || decoded === undefined || decoded.length < 5) {
    throw new Refusal('NOTE_MALFORMED', 'malformed signature line');
  }
  return { name, keyId: decoded.subarray(0, 4), signature: decoded.subarray(4) };
}

function parseCheckpointBody(body: string): {
  origin: string;
  size: number;
  root: Uint8Array;
  extensions: string[];
} {
  if (!body.endsWith('\n') || FORBIDDEN_RE.test(body)) {
    throw new Refusal(
      'CHECKPOINT_MALFORMED',
      'checkpoint must be newline-terminated text without control characters',
    );
  }
  const lines = body.slice(0, -1).split('\n');
  const [origin, sizeLine, rootLine, ...extensions] = lines;
  if (origin === undefined || sizeLine === undefined || rootLine === undefined) {
    throw new Refusal('CHECKPOINT_MALFORMED', 'checkpoint needs origin, size and root lines');
  }
  if (lines.some((l) => l === ''))
    throw new Refusal('CHECKPOINT_MALFORMED', 'checkpoint lines must be non-empty');
  const size = Number(sizeLine);
  if (!SIZE_RE.test(sizeLine) || !Number.isSafeInteger(size)) {
    throw new Refusal('CHECKPOINT_MALFORMED', 'tree size is not canonical');
  }
  const root = bytesOfBase64(rootLine);
  if (root?.length !== 32)
    throw new Refusal('CHECKPOINT_MALFORMED', 'root hash is not canonical base64 of 32 bytes');
  return { origin, size, root, extensions };
}
