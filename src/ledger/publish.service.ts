import { verifyCheckpoint, type NoteVerifier } from '../core/index.js';
import type { CheckpointFiles } from './checkpoint-files.adapter.js';
import type { Ledger } from './ledger.service.js';

export interface PublishResult {
  folder: string;
  /** Sizes newly written to the folder. */
  published: number[];
  /** Sizes already there with the same bytes. */
  present: number[];
  /** Sizes not published, with why (a checkpoint that does not verify, a differing copy there). */
  refused: { size: number; reason: string }[];
}

/**
 * `custody checkpoint --publish DIR`: copies every signed checkpoint the folder lacks. Only
 * checkpoints that verify with the archive's key AND match the ledger's root at their size are
 * published (a file planted in checkpoints/ is never passed on as ours). A copy already in the
 * folder with other bytes is never overwritten: it is reported, for `verify --trusted-checkpoint`.
 */
export async function publishCheckpoints(ledger: Ledger, verifier: NoteVerifier, origin: string, target: CheckpointFiles, folder: string): Promise<PublishResult> {
  const out: PublishResult = { folder, published: [], present: [], refused: [] };
  await target.ensureDir();
  for (const size of await ledger.checkpointSizes()) {
    const note = (await ledger.checkpointAt(size)) ?? '';
    try {
      const cp = verifyCheckpoint(note, verifier);
      if (cp.origin !== origin || cp.size !== size) throw new Error(`it is for size ${cp.size} of ${cp.origin}`);
      if (size > ledger.size || !ledger.root(size).equals(cp.root)) throw new Error('it does not match the ledger');
    } catch (e) {
      out.refused.push({ size, reason: `the stored checkpoint does not verify: ${(e as Error).message}` });
      continue;
    }
    const there = await target.read(size);
    if (there === null) {
      await target.write(size, note);
      out.published.push(size);
    } else if (there === note) out.present.push(size);
    else out.refused.push({ size, reason: 'the folder already holds a different checkpoint for this size' });
  }
  return out;
}
