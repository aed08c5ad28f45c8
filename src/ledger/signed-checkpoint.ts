// Which tree sizes may be called "signed": a checkpoint file under that size's name is not enough
// (anyone with file access can make one). Its signature must verify with the archive's key, and
// its root must be the ledger's root at that size, as `custody verify` checks for every one.
// This is the ledger's one index-integrity rule (ledger/signed-root.ts), the same that decides
// whether the leaf index may be used on open; the entries replayed at that size are each checked
// against their leaf as they are read (Ledger.read), so the figure is never one of edited bytes.
import { parseVerifierKey, CustodyError } from '../core/index.js';
import type { Ledger } from './ledger.service.js';

export interface SignedCheckpointContext {
  ledger: Ledger;
  verifierKey: string;
  origin: string;
}

/** True when the stored checkpoint at `size` verifies with the archive key and matches the ledger. */
export async function isSignedCheckpoint(ctx: SignedCheckpointContext, size: number): Promise<boolean> {
  if (!Number.isSafeInteger(size) || size < 1 || size > ctx.ledger.size) return false;
  try {
    return ctx.ledger.matchesSignedRoot(size, await ctx.ledger.checkpointAt(size), parseVerifierKey(ctx.verifierKey), ctx.origin);
  } catch (e) {
    if (e instanceof CustodyError) return false; // a bad signature, a FIFO in its place: not signed
    throw e;
  }
}

/** The largest tree size whose stored checkpoint is signed (see above), or null when none is. */
export async function latestSignedCheckpoint(ctx: SignedCheckpointContext): Promise<number | null> {
  const sizes = await ctx.ledger.checkpointSizes();
  for (let i = sizes.length - 1; i >= 0; i--) {
    const size = sizes[i] as number;
    if (await isSignedCheckpoint(ctx, size)) return size;
  }
  return null;
}
