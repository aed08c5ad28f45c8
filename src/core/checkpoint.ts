import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { CoreError } from './errors.js';
import { sha256, toHex } from './sha256.js';

/**
 * Signed checkpoints of the custody ledger: C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint)
 * bodies inside C2SP signed notes (https://c2sp.org/signed-note), signed with Ed25519 (type 0x01).
 * Interoperable with golang.org/x/mod/sumdb/note: its published example verifies byte for byte.
 */
export interface Checkpoint {
  /** The log identity; non-empty (tlog-checkpoint "Note text" 1). */
  origin: string;
  /** Number of leaves (a safe integer here; the spec allows up to 2^64-1). */
  size: number;
  /** RFC 9162 root hash at `size`, 32 bytes. */
  root: Buffer;
  /** Opaque, non-empty extra lines; NOT RECOMMENDED by the spec, kept for interoperability. */
  extensions: string[];
}

export interface NoteSigner {
  readonly name: string;
  /** The 4-byte key ID of signed-note "Signatures". */
  readonly keyId: Buffer;
  /** Signs the note text bytes; returns the bare signature (without the key ID). */
  sign(message: Buffer): Buffer;
}

export interface NoteVerifier {
  readonly name: string;
  readonly keyId: Buffer;
  verify(message: Buffer, signature: Buffer): boolean;
}

const SIG_TYPE_ED25519 = 0x01;
const SIG_PREFIX = '\u2014 '; // em dash, space (signed-note "Format")
const MAX_SIGNATURES = 100; // the spec asks for a limit of at least 16; Go's reference uses 100
// Key names: non-empty, no Unicode spaces, no '+' (signed-note "Format"); we also refuse the
// control characters and lone surrogates a note may not contain, so every name can be signed.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const KEY_NAME_RE = /^[^\p{White_Space}+\x00-\x1f\p{Cs}]+$/u;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_RE = /[\x00-\x09\x0b-\x1f\p{Cs}]/u; // controls except \n; \p{Cs}: invalid UTF-8
const B64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SIZE_RE = /^(?:0|[1-9][0-9]*)$/;

/**
 * A signer for `name` from an Ed25519 private key. Key ID per signed-note "Ed25519 signatures":
 * SHA-256(name || 0x0A || 0x01 || 32-byte public key)[:4].
 *
 * @example
 *   const { privateKey } = generateKeyPairSync('ed25519');
 *   const signer = createEd25519Signer('custody.example/ledger', privateKey);
 */
export function createEd25519Signer(name: string, privateKey: KeyObject): NoteSigner {
  checkKeyName(name);
  if (privateKey.type !== 'private') throw keyError('expected an Ed25519 private key');
  const keyId = keyIdOf(name, rawPublicKey(createPublicKey(privateKey)));
  return Object.freeze({ name, keyId, sign: (message: Buffer) => sign(null, message, privateKey) });
}

/**
 * A verifier for `name` from an Ed25519 public key (same key ID rule as the signer).
 *
 * @example
 *   const verifier = createEd25519Verifier('custody.example/ledger', publicKey);
 */
export function createEd25519Verifier(name: string, publicKey: KeyObject): NoteVerifier {
  checkKeyName(name);
  if (publicKey.type !== 'public') throw keyError('expected an Ed25519 public key');
  const keyId = keyIdOf(name, rawPublicKey(publicKey));
  const check = (message: Buffer, signature: Buffer): boolean => {
    if (signature.length !== 64) return false;
    try {
      return verify(null, message, publicKey, signature);
    } catch {
      return false;
    }
  };
  return Object.freeze({ name, keyId, verify: check });
}

/**
 * The verifier key string `<name>+<hex key ID>+<base64(0x01 || public key)>`, as written by
 * golang.org/x/mod/sumdb/note and the signed-note specification.
 *
 * @example
 *   formatVerifierKey('PeterNeumann', pub) // 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'
 */
export function formatVerifierKey(name: string, publicKey: KeyObject): string {
  checkKeyName(name);
  const raw = rawPublicKey(publicKey);
  const encoded = Buffer.concat([Uint8Array.of(SIG_TYPE_ED25519), raw]).toString('base64');
  return `${name}+${toHex(keyIdOf(name, raw))}+${encoded}`;
}

/**
 * Parses a verifier key string (trusted configuration, but still checked strictly): the name must
 * be valid, the key ID 8 lowercase hex digits matching the key, the key Ed25519 (type 0x01).
 * Throws `KEY_MALFORMED`.
 *
 * @example
 *   parseVerifierKey('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW').name // 'PeterNeumann'
 */
export function parseVerifierKey(vkey: string): NoteVerifier {
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) throw keyError('verifier key is not <name>+<key id>+<key>');
  const [name, idHex] = [vkey.slice(0, first), vkey.slice(first + 1, second)];
  checkKeyName(name);
  const key = decodeBase64(vkey.slice(second + 1));
  if (!/^[0-9a-f]{8}$/.test(idHex) || key === undefined) throw keyError('malformed verifier key');
  if (key.length !== 33 || key[0] !== SIG_TYPE_ED25519) {
    throw keyError('verifier key is not an Ed25519 (type 0x01) key');
  }
  const raw = key.subarray(1);
  if (toHex(keyIdOf(name, raw)) !== idHex) throw keyError('key ID does not match the key');
  let publicKey: KeyObject;
  try {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') };
    publicKey = createPublicKey({ key: jwk, format: 'jwk' });
  } catch (cause) {
    throw new CoreError('KEY_MALFORMED', 'not a usable Ed25519 public key', { cause });
  }
  return createEd25519Verifier(name, publicKey);
}

/**
 * The checkpoint body (the note text) of tlog-checkpoint "Note text": origin, decimal size,
 * base64 root, then extension lines, each ending in a newline. Throws `CHECKPOINT_MALFORMED`.
 *
 * @example
 *   formatCheckpoint({ origin: 'example.com/log', size: 3, root, extensions: [] })
 *   // 'example.com/log\n3\nrra8/idLcKFPsGel5VeCZNsPqbUa9eC6FZFY8yngbnc=\n'
 */
export function formatCheckpoint(cp: Checkpoint): string {
  const lines = [cp.origin, ...cp.extensions];
  if (lines.some((l) => l === '' || l.includes('\n') || FORBIDDEN_RE.test(l))) {
    throw checkpointError('origin and extension lines must be non-empty single lines of text');
  }
  if (!Number.isSafeInteger(cp.size) || cp.size < 0) throw checkpointError('bad tree size');
  if (!(cp.root instanceof Uint8Array) || cp.root.length !== 32) {
    throw checkpointError('root hash must be 32 bytes');
  }
  const root = Buffer.from(cp.root).toString('base64');
  return [cp.origin, String(cp.size), root, ...cp.extensions].map((l) => `${l}\n`).join('');
}

/**
 * Parses a checkpoint body strictly (tlog-checkpoint "Note text"): at least three lines, each
 * ending in "\n" and non-empty; size in canonical decimal (no sign, no leading zeros; at most
 * 2^53-1 here); root canonical padded base64 of 32 bytes. Throws `CHECKPOINT_MALFORMED`.
 * Untrusted input: call it on the text {@link openNote} returned, never on unverified text.
 *
 * @example
 *   parseCheckpoint('example.com/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n').size // 0
 */
export function parseCheckpoint(body: string): Checkpoint {
  if (!body.endsWith('\n') || FORBIDDEN_RE.test(body)) {
    throw checkpointError('checkpoint must be newline-terminated text without control characters');
  }
  const lines = body.slice(0, -1).split('\n');
  const [origin, sizeLine, rootLine, ...extensions] = lines;
  if (origin === undefined || sizeLine === undefined || rootLine === undefined) {
    throw checkpointError('checkpoint needs origin, size and root lines');
  }
  if (lines.some((l) => l === '')) throw checkpointError('checkpoint lines must be non-empty');
  const size = Number(sizeLine);
  if (!SIZE_RE.test(sizeLine) || !Number.isSafeInteger(size)) {
    throw checkpointError(`tree size ${JSON.stringify(sizeLine.slice(0, 40))} is not canonical`);
  }
  const root = decodeBase64(rootLine);
  if (root?.length !== 32) throw checkpointError('root hash is not canonical base64 of 32 bytes');
  return { origin, size, root, extensions };
}

/**
 * Signs `text` (which must end in "\n") with every signer: the text, a blank line, then one
 * line "— <name> base64(key ID || signature)" per signer (signed-note "Format", "Signatures").
 *
 * @example
 *   signNote('hello\n', [signer]) // 'hello\n\n— custody.example/ledger AbCd…=\n'
 */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  if (!text.endsWith('\n') || FORBIDDEN_RE.test(text)) {
    throw noteError('note text must end in a newline and contain no control characters');
  }
  if (signers.length === 0 || signers.length > MAX_SIGNATURES) {
    throw noteError(`a note needs 1 to ${MAX_SIGNATURES} signatures`);
  }
  const message = Buffer.from(text, 'utf8');
  const lines = signers.map((s) => {
    checkKeyName(s.name);
    if (s.keyId.length !== 4) throw keyError('key ID must be 4 bytes');
    const signature = Buffer.concat([s.keyId, s.sign(message)]).toString('base64');
    return `${SIG_PREFIX}${s.name} ${signature}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

/**
 * Opens a signed note (untrusted input) per signed-note "Signatures": signatures from unknown
 * keys (name and key ID not both matching) are ignored; a known key's signature MUST verify, and
 * one that fails rejects the whole note; at least one must verify. Throws `NOTE_MALFORMED` or
 * `NOTE_NO_VALID_SIGNATURE`. `verifiedBy` lists the names of the keys that verified, once each.
 *
 * @example
 *   openNote(signNote('hello\n', [signer]), [verifier]) // { text: 'hello\n', verifiedBy: [signer.name] }
 */
export function openNote(
  note: string,
  verifiers: readonly NoteVerifier[],
): { text: string; verifiedBy: string[] } {
  if (FORBIDDEN_RE.test(note)) throw noteError('note contains control characters or invalid text');
  // The text ends at the last blank line; it keeps its final newline (signed-note "Format").
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw noteError('no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) throw noteError('signature block must end in "\\n"');
  const sigLines = block.slice(0, -1).split('\n');
  if (sigLines.length > MAX_SIGNATURES) throw noteError(`more than ${MAX_SIGNATURES} signatures`);
  const message = Buffer.from(text, 'utf8');
  const verifiedBy = new Set<string>();
  for (const line of sigLines) {
    const { name, keyId, signature } = parseSignatureLine(line);
    const known = verifiers.filter((v) => v.name === name && v.keyId.equals(keyId));
    for (const v of known) {
      if (!v.verify(message, signature)) {
        throw new CoreError('NOTE_NO_VALID_SIGNATURE', `signature by ${describeKey(v)} is invalid`);
      }
      verifiedBy.add(name);
    }
  }
  if (verifiedBy.size === 0) {
    throw new CoreError('NOTE_NO_VALID_SIGNATURE', 'no signature from a known key');
  }
  return { text, verifiedBy: [...verifiedBy] };
}

/**
 * Formats and signs a checkpoint; the log's key name SHOULD equal the origin (tlog-checkpoint
 * "Signatures").
 *
 * @example
 *   signCheckpoint({ origin: signer.name, size: tree.size, root: tree.root(), extensions: [] }, signer)
 */
export function signCheckpoint(cp: Checkpoint, signer: NoteSigner): string {
  return signNote(formatCheckpoint(cp), [signer]);
}

/**
 * Opens a signed checkpoint with the log's verifier and parses its body. The caller still checks
 * that `origin` is the log it expects: a verified signature only says who signed.
 *
 * @example
 *   verifyCheckpoint(note, parseVerifierKey(vkey)).size // 42
 */
export function verifyCheckpoint(note: string, verifier: NoteVerifier): Checkpoint {
  return parseCheckpoint(openNote(note, [verifier]).text);
}

function parseSignatureLine(line: string): { name: string; keyId: Buffer; signature: Buffer } {
  if (!line.startsWith(SIG_PREFIX)) throw noteError('signature line must start with "— "');
  const rest = line.slice(SIG_PREFIX.length);
  const space = rest.indexOf(' ');
  const name = rest.slice(0, space);
  const decoded = space < 0 ? undefined : decodeBase64(rest.slice(space + 1));
  if (!KEY_NAME_RE.test(name) || decoded === undefined || decoded.length < 5) {
    throw noteError('malformed signature line');
  }
  return { name, keyId: decoded.subarray(0, 4), signature: decoded.subarray(4) };
}

function keyIdOf(name: string, rawKey: Uint8Array): Buffer {
  const header = Buffer.from(`${name}\n`, 'utf8');
  return Buffer.from(sha256(header, Uint8Array.of(SIG_TYPE_ED25519), rawKey).subarray(0, 4));
}

function rawPublicKey(key: KeyObject): Buffer {
  if (key.asymmetricKeyType !== 'ed25519') throw keyError('expected an Ed25519 key');
  const { x } = key.export({ format: 'jwk' });
  const raw = Buffer.from(x ?? '', 'base64url');
  if (raw.length !== 32) throw keyError('Ed25519 public key must be 32 bytes');
  return raw;
}

/** Strict RFC 4648 §4 base64: padded, canonical trailing bits; undefined otherwise. */
function decodeBase64(s: string): Buffer | undefined {
  if (!B64_RE.test(s)) return undefined;
  const bytes = Buffer.from(s, 'base64');
  return bytes.toString('base64') === s ? bytes : undefined;
}

function checkKeyName(name: string): void {
  if (!KEY_NAME_RE.test(name)) throw keyError(`invalid key name ${JSON.stringify(name)}`);
}

function describeKey(v: { name: string; keyId: Buffer }): string {
  return `${v.name}+${toHex(v.keyId)}`;
}

function keyError(message: string): CoreError {
  return new CoreError('KEY_MALFORMED', message);
}

function noteError(message: string): CoreError {
  return new CoreError('NOTE_MALFORMED', message);
}

function checkpointError(message: string): CoreError {
  return new CoreError('CHECKPOINT_MALFORMED', message);
}
