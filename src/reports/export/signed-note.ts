import { parseVerifierKey, verifyCheckpoint, type Checkpoint } from '../../core/index.js';
import { ExportError } from './errors.js';

export interface SplitNote {
  /** What was signed: the note text, every line up to the blank line, each with its "\n". */
  body: Buffer;
  /** The 64 raw Ed25519 signature bytes over `body` by the archive's key (no key ID). */
  signature: Buffer;
  checkpoint: Checkpoint;
}

const SIG_PREFIX = '\u2014 '; // "— ", signed-note "Format"

/**
 * Splits a signed checkpoint note (C2SP signed-note) into the two files `openssl pkeyutl -verify
 * -rawin` needs: the signed text and the bare signature of the archive's key. The note is first
 * verified with that key (core/checkpoint), so a bag never carries a body and signature that do
 * not verify. The signature line is "— <name> base64(4-byte key ID || 64-byte signature)";
 * the line whose name and key ID are the verifier key's is the one taken.
 *
 * @example
 *   splitSignedNote(note, 'custody.invalid/archive/x+1a2b3c4d+AQ…').signature.length // 64
 */
export function splitSignedNote(note: string, verifierKey: string): SplitNote {
  const verifier = parseVerifierKey(verifierKey);
  let checkpoint: Checkpoint;
  try {
    checkpoint = verifyCheckpoint(note, verifier);
  } catch (cause) {
    throw new ExportError(
      'EXPORT_CHECKPOINT_INVALID',
      'the checkpoint note does not verify under the archive key',
      { cause },
    );
  }
  const split = note.lastIndexOf('\n\n');
  const body = Buffer.from(note.slice(0, split + 1), 'utf8');
  for (const line of note.slice(split + 2).split('\n')) {
    if (!line.startsWith(`${SIG_PREFIX}${verifier.name} `)) continue;
    const decoded = Buffer.from(line.slice(SIG_PREFIX.length + verifier.name.length + 1), 'base64');
    if (decoded.length === 68 && decoded.subarray(0, 4).equals(verifier.keyId)) {
      return { body, signature: decoded.subarray(4), checkpoint };
    }
  }
  // verifyCheckpoint succeeded, so a signature by this key exists; reaching here is a bug.
  throw new Error('a verified note without a signature line of its key');
}
