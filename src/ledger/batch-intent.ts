import { createHmac, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import {
  canonicalBytes,
  parseCanonical,
  type JsonValue,
  type MerkleTree,
  fromHex,
  isSha256Hex,
  toHex,
} from '../core/index.js';

/**
 * A batch intent: what a writer is about to append, written and fsynced BEFORE the append.
 *
 * An unsigned tail (entries after the last signed checkpoint) is what a run leaves when it is
 * killed between appending and signing. Without the key nobody can sign, but anybody with file
 * access can append a line; a writer that adopted and signed any unsigned tail would sign such a
 * line. The intent tells the two apart: it is authenticated (HMAC-SHA256) under a key derived by
 * HKDF-SHA256 from the signing key with its own label, so whoever can sign can write one and
 * nobody else can. It states the tree the batch builds on (size and root, RFC 9162 §2.1.1) and
 * the leaf hash of every entry in the batch. On open, a tail is adopted only when it is exactly
 * those leaves (or, after an append cut short, a prefix of them) on top of that root.
 *
 * It is deliberately not a C2SP checkpoint and never lives in `checkpoints/`: a signed root
 * for a size that never landed would look like equivocation to anyone holding it.
 */
export interface BatchIntent {
  origin: string;
  baseSize: number;
  baseRoot: Buffer;
  leaves: Buffer[];
  /** The tree the batch makes: size baseSize + leaves.length and its root. */
  newSize: number;
  newRoot: Buffer;
}

const FORMAT = 'custody-batch-intent';
const VERSION = 1;
const HKDF_INFO = 'custody ledger batch intent v1';

/** The intent MAC key: HKDF-SHA256 over the Ed25519 private key's 32-byte seed, salted with the archive id. */
export function deriveIntentKey(privateKey: KeyObject, archiveId: string): Buffer {
  const { d } = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(d ?? '', 'base64url');
  return Buffer.from(hkdfSync('sha256', seed, Buffer.from(archiveId, 'utf8'), HKDF_INFO, 32));
}

/** One line of canonical JSON with its MAC, as written to an intent slot. */
export function encodeIntent(intent: BatchIntent, key: Buffer): Buffer {
  const body = intentBody(intent);
  const mac = createHmac('sha256', key).update(canonicalBytes(body)).digest('hex');
  return Buffer.concat([canonicalBytes({ ...body, mac }), Buffer.from('\n')]);
}

/**
 * Parses and authenticates an intent slot's bytes. Untrusted input: the slot is a file anyone
 * with disk access can write. Returns null for anything that is not a complete, well-formed
 * intent for this origin carrying a valid MAC (an empty slot, a torn write, a forgery).
 */
export function decodeIntent(bytes: Buffer, key: Buffer, origin: string): BatchIntent | null {
  const nl = bytes.indexOf(10);
  if (nl < 0) return null;
  let v: JsonValue;
  try {
    v = parseCanonical(bytes.subarray(0, nl));
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const { mac, ...body } = v;
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return null;
  const expected = createHmac('sha256', key).update(canonicalBytes(body)).digest();
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return null;
  const { format, version, origin: o, base_size, base_root, leaves, new_size, new_root } = body;
  if (format !== FORMAT || version !== VERSION || o !== origin) return null;
  if (typeof base_size !== 'number' || !Number.isSafeInteger(base_size) || base_size < 0) return null;
  if (!isHex(base_root) || !isHex(new_root) || !Array.isArray(leaves) || !leaves.every(isHex)) return null;
  if (new_size !== base_size + leaves.length) return null;
  return {
    origin,
    baseSize: base_size,
    baseRoot: fromHex(base_root),
    leaves: leaves.map((l) => fromHex(l)),
    newSize: new_size,
    newRoot: fromHex(new_root),
  };
}

export type TailMatch =
  /** Every entry from the intent's base to the ledger's end is one the intent announced. */
  | { kind: 'authenticated'; intent: BatchIntent; landed: number }
  | { kind: 'none' };

/**
 * Whether `intent` authenticates the whole ledger `tree`: the tree's root at the intent's base
 * size is the intent's base root (which covers every earlier entry), and the entries after it are
 * the announced leaves in order, all of them or (an append cut short) a prefix.
 */
export function matchIntent(tree: MerkleTree, intent: BatchIntent): TailMatch {
  if (intent.baseSize > tree.size) return { kind: 'none' };
  const landed = tree.size - intent.baseSize;
  if (landed > intent.leaves.length) return { kind: 'none' };
  if (!tree.root(intent.baseSize).equals(intent.baseRoot)) return { kind: 'none' };
  for (let k = 0; k < landed; k++) {
    if (!tree.leafHash(intent.baseSize + k).equals(intent.leaves[k] ?? Buffer.alloc(0))) return { kind: 'none' };
  }
  return { kind: 'authenticated', intent, landed };
}

function intentBody(i: BatchIntent): { [k: string]: JsonValue } {
  return {
    format: FORMAT,
    version: VERSION,
    origin: i.origin,
    base_size: i.baseSize,
    base_root: toHex(i.baseRoot),
    leaves: i.leaves.map(toHex),
    new_size: i.newSize,
    new_root: toHex(i.newRoot),
  };
}

function isHex(v: unknown): v is string {
  return typeof v === 'string' && isSha256Hex(v);
}
