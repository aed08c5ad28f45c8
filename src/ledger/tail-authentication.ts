import {
  verifyCheckpoint,
  type Checkpoint,
  type NoteVerifier,
  type MerkleTree,
  hint,
} from '../core/index.js';
import { decodeIntent, matchIntent, type BatchIntent } from './batch-intent.js';
import { CheckpointFileError, type CheckpointFiles } from './checkpoint-files.adapter.js';
import { LedgerError } from './errors.js';

export interface TailAuthenticationInput {
  tree: MerkleTree;
  origin: string;
  verifier: NoteVerifier;
  checkpoints: CheckpointFiles;
  /** Checkpoints published outside the archive (`custody checkpoint --publish`), if configured. */
  published: CheckpointFiles | null;
  /** The bytes of each batch-intent slot, and the key that authenticates them. */
  intentSlots: Buffer[];
  intentKey: Buffer;
}

export interface TailAuthentication {
  /** The newest signed checkpoint that verifies and matches the ledger (0: none). */
  checkpointSize: number;
  /** The published checkpoint newer than every local one, to restore locally (its note). */
  restore: { size: number; note: string } | null;
  /** Entries from checkpointSize to the end that no intent authenticates (null: none). */
  unauthenticated: { from: number; to: number } | null;
  /** The slot whose intent authenticated the tail, if one did. */
  slotInForce: number | null;
  warnings: string[];
}

/**
 * Decides, before a writer appends or signs anything, whether every entry in the ledger file is
 * one the archive's key holder wrote. The newest stored checkpoint (and the newest published one)
 * must verify with the archive's key and match the ledger's root at its size; the entries after
 * it (the unsigned tail) must be exactly those a batch intent announced. Untrusted input: the
 * ledger, the checkpoints and the intent slots are all files anyone with disk access can edit.
 */
export async function authenticateTail(input: TailAuthenticationInput): Promise<TailAuthentication> {
  const { tree } = input;
  const warnings: string[] = [];
  const local = await newestCheckpoint(input.checkpoints, input, 'stored');
  let checkpointSize = local?.size ?? 0;
  let restore: TailAuthentication['restore'] = null;
  if (input.published !== null) {
    const pub = await newestCheckpoint(input.published, input, 'published').catch((e: unknown) => {
      // The folder is outside the archive (a share that may be unmounted): not reachable is a
      // warning. A checkpoint there that does not verify or match is an error (LedgerError).
      if (!(e instanceof CheckpointFileError)) throw e;
      warnings.push(`the checkpoint publication folder cannot be read (${(e as Error).message}): this run could not check the archive against its published checkpoints`);
      return null;
    });
    if (pub !== null && pub.size > checkpointSize) {
      restore = { size: pub.size, note: pub.note };
      warnings.push(`the newest signed checkpoint (size ${pub.size}) was missing from the archive and is restored from its published copy`);
      checkpointSize = pub.size;
    }
  }

  let unauthenticated: TailAuthentication['unauthenticated'] = null;
  let slotInForce: number | null = null;
  const intents = input.intentSlots.map((b) => decodeIntent(b, input.intentKey, input.origin));
  if (tree.size > checkpointSize) {
    let found: { slot: number; intent: BatchIntent; landed: number } | null = null;
    for (const [slot, intent] of intents.entries()) {
      if (intent === null) continue;
      const m = matchIntent(tree, intent);
      if (m.kind === 'authenticated' && (found === null || intent.baseSize > found.intent.baseSize)) found = { slot, intent, landed: m.landed };
    }
    if (found === null) unauthenticated = { from: checkpointSize, to: tree.size };
    else {
      slotInForce = found.slot;
      if (found.landed < found.intent.leaves.length) {
        warnings.push(
          found.landed === 0
            ? `a batch of ${found.intent.leaves.length} entries announced by an interrupted run never reached the ledger; its intent is discarded`
            : `an append of ${found.intent.leaves.length} entries was cut short after ${found.landed}; the ${found.landed} that landed are adopted`,
        );
      }
    }
  } else {
    for (const intent of intents) {
      if (intent !== null && intent.baseSize === tree.size && intent.leaves.length > 0 && matchIntent(tree, intent).kind === 'authenticated') {
        warnings.push(`a batch of ${intent.leaves.length} entries announced by an interrupted run never reached the ledger; its intent is discarded`);
        break;
      }
    }
  }
  return { checkpointSize, restore, unauthenticated, slotInForce, warnings };
}

async function newestCheckpoint(
  files: CheckpointFiles,
  input: TailAuthenticationInput,
  where: 'stored' | 'published',
): Promise<{ size: number; note: string } | null> {
  const size = (await files.sizes()).at(-1);
  if (size === undefined) return null;
  const note = (await files.read(size)) ?? '';
  let cp: Checkpoint;
  try {
    cp = verifyCheckpoint(note, input.verifier);
  } catch (e) {
    throw new LedgerError('LEDGER_CHECKPOINT_INVALID', `the ${where} checkpoint for size ${size} does not verify with the archive's key (${(e as Error).message}); nothing was written`, { cause: e, details: hint({ remedy: ['verify'] }) });
  }
  if (cp.size !== size || cp.origin !== input.origin) {
    throw new LedgerError('LEDGER_CHECKPOINT_INVALID', `the ${where} checkpoint file for size ${size} is for size ${cp.size} of ${cp.origin}; nothing was written`, { details: hint({ remedy: ['verify'] }) });
  }
  if (size > input.tree.size) {
    const code = where === 'published' ? 'LEDGER_ROLLED_BACK' : 'LEDGER_TRUNCATED';
    throw new LedgerError(code, `the ${where} signed checkpoint covers ${size} entries but the ledger holds ${input.tree.size}: entries were removed; nothing was written`, { details: hint({ remedy: ['verify'] }) });
  }
  if (!input.tree.root(size).equals(cp.root)) {
    throw new LedgerError('LEDGER_CHECKPOINT_MISMATCH', `the ledger's first ${size} entries no longer hash to the root of the ${where} signed checkpoint: entries it covers were edited; nothing was written`, { details: hint({ remedy: ['verify'] }) });
  }
  return { size, note };
}
