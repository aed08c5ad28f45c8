import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Intent slots are small (a batch's leaf hashes); anything larger is not ours. */
const MAX_SLOT_BYTES = 64 << 20;
const SLOT_NAMES = ['batch-intent.a', 'batch-intent.b'] as const;

/**
 * Two alternating files beside the ledger that hold batch intents (see batch-intent.ts).
 * Each new intent is written over the slot that does NOT hold the intent currently in force,
 * then fdatasynced, so a write torn by a crash leaves the previous intent intact in the other
 * slot. One fdatasync per batch; no rename, no directory sync after the slots exist.
 */
export class BatchIntentSlots {
  private readonly handles: (FileHandle | null)[] = [null, null];
  private next = 0;

  constructor(private readonly ledgerDir: string) {}

  static forLedger(ledgerPath: string): BatchIntentSlots {
    return new BatchIntentSlots(dirname(ledgerPath));
  }

  /**
   * The bytes of both slots (empty for a missing one). Opened without following links and
   * without blocking, and only regular files are read: a FIFO or a link planted here is
   * treated as an empty slot.
   */
  async readAll(): Promise<Buffer[]> {
    const out: Buffer[] = [];
    for (const name of SLOT_NAMES) out.push(await readSlot(join(this.ledgerDir, name)));
    return out;
  }

  /** The slot holding the intent in force (from `readAll`'s index): the next write goes to the other one. */
  inForce(slot: number): void {
    this.next = slot === 0 ? 1 : 0;
  }

  /**
   * Writes `bytes` (one intent line, ending in its newline) to the slot not in force and makes
   * it durable. Written over the slot's start, not truncated: an intent is its first line
   * (decodeIntent reads up to the first newline), so an older, longer intent's remaining bytes
   * after it are never read as one. The slot then keeps its size once it has held the largest
   * batch, and the fdatasync flushes data only, not a size change through the journal (one
   * system call and one journal commit fewer per batch).
   */
  async write(bytes: Buffer): Promise<void> {
    if (bytes.indexOf(10) !== bytes.length - 1) throw new Error('a batch intent is one line ending in a newline');
    const slot = this.next;
    const fh = await this.handle(slot);
    let written = 0;
    while (written < bytes.length) written += (await fh.write(bytes, written, bytes.length - written, written)).bytesWritten;
    await fh.datasync();
    this.next = slot === 0 ? 1 : 0;
  }

  /** Empties both slots once their batches are covered by a signed checkpoint. */
  async clear(): Promise<void> {
    for (let slot = 0; slot < SLOT_NAMES.length; slot++) {
      const fh = this.handles[slot] ?? null;
      if (fh === null) {
        const bytes = await readSlot(join(this.ledgerDir, SLOT_NAMES[slot] ?? ''));
        if (bytes.length === 0) continue;
      }
      const h = fh ?? (await this.handle(slot));
      await h.truncate(0);
      await h.datasync();
    }
    this.next = 0;
  }

  async close(): Promise<void> {
    for (const h of this.handles) await h?.close().catch(() => undefined);
    this.handles.fill(null);
  }

  private async handle(slot: number): Promise<FileHandle> {
    const existing = this.handles[slot];
    if (existing) return existing;
    const path = join(this.ledgerDir, SLOT_NAMES[slot] ?? '');
    const fh = await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o640);
    if (!(await fh.stat()).isFile()) {
      await fh.close();
      throw new Error(`${path} is not a regular file`);
    }
    this.handles[slot] = fh;
    const dh = await open(this.ledgerDir, 'r');
    try {
      await dh.sync(); // the slot's name is durable before any intent in it counts
    } finally {
      await dh.close();
    }
    return fh;
  }
}

async function readSlot(path: string): Promise<Buffer> {
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return Buffer.alloc(0); // missing, a link, unreadable: no intent here
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > MAX_SLOT_BYTES) return Buffer.alloc(0);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}
