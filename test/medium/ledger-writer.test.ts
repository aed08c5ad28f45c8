// Issue 12, "LedgerWriter as a long-lived component": it holds the writer lock for its life,
// commits under the batch-intent rule, signs at least every 1,000 entries or every 10 s while
// alive (a clock and a ticker injected: no timing here) and at close, and adopts nothing it did
// not write.
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CustodyError } from '../../src/core/errors.js';
import { LedgerLock } from '../../src/ledger/ledger-lock.adapter.js';
import { LedgerWriter, SERVICE_CADENCE } from '../../src/ledger/ledger-writer.js';
import { CheckpointFiles } from '../../src/ledger/checkpoint-files.adapter.js';
import { manualTime } from '../support/manual-time.js';
import { drafts, makeLedgerDir, openTestLedger, type LedgerDir } from '../support/ledger-kit.js';

async function lockOf(d: LedgerDir): Promise<LedgerLock> {
  return LedgerLock.acquire({ ledger: d.ledgerPath, holder: join(d.dir, 'writer.lock') }, { timeoutMs: 0, command: 'test', kind: 'exclusive' });
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CustodyError) return String((e as CustodyError<string>).code);
    throw e;
  }
  return 'no error';
}

const sizes = (d: LedgerDir): Promise<number[]> => new CheckpointFiles(d.checkpointsDir).sizes();

describe('LedgerWriter: checkpoint cadence while alive', () => {
  it('signs every 1,000 entries (count cadence), and at close', async () => {
    const d = await makeLedgerDir('writer-count');
    const time = manualTime(); // never fired: only the count signs
    const w = new LedgerWriter({ ledger: await openTestLedger(d, 'write'), lock: await lockOf(d), clock: time.clock, cadence: SERVICE_CADENCE, ticker: time.ticker, closeLedger: true });
    for (let from = 0; from < 2500; from += 100) await w.commit(drafts(from, 100));
    expect(await sizes(d)).toEqual([1000, 2000]);
    await w.close();
    expect(await sizes(d)).toEqual([1000, 2000, 2500]);
  });

  it('signs unsigned entries once they are 10 s old on the injected clock, not before', async () => {
    const d = await makeLedgerDir('writer-clock');
    const time = manualTime();
    const w = new LedgerWriter({ ledger: await openTestLedger(d, 'write'), lock: await lockOf(d), clock: time.clock, cadence: SERVICE_CADENCE, ticker: time.ticker, tickMs: 1000, closeLedger: true });
    expect(time.intervals).toEqual([1000]);
    await w.commit(drafts(0, 5));
    time.now.t += 8_999; // the next tick (≤ 1 s later) would still be inside 10 s
    time.fire();
    await w.idle();
    expect(await sizes(d)).toEqual([]);
    time.now.t += 1; // 9 s old: by the tick after this one it would be more than 10 s
    time.fire();
    await w.idle();
    expect(await sizes(d)).toEqual([5]);
    // Nothing unsigned: ticks sign nothing more, however much time passes.
    time.now.t += 60_000;
    time.fire();
    await w.idle();
    expect(await sizes(d)).toEqual([5]);
    await w.commit(drafts(5, 2));
    time.now.t += 9_000;
    time.fire();
    await w.idle();
    expect(await sizes(d)).toEqual([5, 7]);
    await w.close();
  });
});

describe('LedgerWriter: the lock and what it adopts', () => {
  it('holds the writer lock for its whole life (LEDGER_LOCKED for another writer) and releases it at close', async () => {
    const d = await makeLedgerDir('writer-lock');
    const w = new LedgerWriter({ ledger: await openTestLedger(d, 'write'), lock: await lockOf(d), clock: Date.now, cadence: { everyEntries: 1000, everyMs: null }, closeLedger: true });
    await w.commit(drafts(0, 3));
    expect(await codeOf(lockOf(d))).toBe('LEDGER_LOCKED');
    await w.close();
    const again = await lockOf(d);
    await again.release();
  });

  it('a line appended behind its back is never adopted: commit and the timed signature refuse (LEDGER_CHANGED_UNDER_WRITER)', async () => {
    const d = await makeLedgerDir('writer-foreign');
    const time = manualTime();
    const w = new LedgerWriter({ ledger: await openTestLedger(d, 'write'), lock: await lockOf(d), clock: time.clock, cadence: SERVICE_CADENCE, ticker: time.ticker, closeLedger: true });
    await w.commit(drafts(0, 3));
    await w.checkpoint();
    await w.commit(drafts(3, 2));
    await appendFile(d.ledgerPath, '{"actor":"insider","details":{},"items":[],"objects":[],"seq":5,"time":"2026-01-01T00:00:01.000Z","type":"fixity check"}\n');
    expect(await codeOf(w.commit(drafts(5, 1)))).toBe('LEDGER_CHANGED_UNDER_WRITER');
    time.now.t += 10_000;
    time.fire();
    await w.idle();
    expect(await codeOf(w.close())).toBe('LEDGER_CHANGED_UNDER_WRITER');
    expect(await sizes(d)).toEqual([3]);
  });
});

describe('batch-intent slots written in place', () => {
  it('an intent written over a longer one is read as itself (the older bytes after its line are never an intent), and authenticates the tail after a crash', async () => {
    const d = await makeLedgerDir('writer-slot-in-place');
    const ledger = await openTestLedger(d, 'write');
    const w = new LedgerWriter({ ledger, lock: null, clock: Date.now, cadence: { everyEntries: 1000, everyMs: null } });
    await w.commit(drafts(0, 40)); // slot a: 40 leaves
    await w.commit(drafts(40, 1)); // slot b
    await w.commit(drafts(41, 1)); // slot a again: one leaf over forty
    const slotA = await readFile(join(d.dir, 'batch-intent.a'));
    const firstLine = slotA.indexOf(10) + 1;
    expect(slotA.length).toBeGreaterThan(firstLine); // the longer intent's bytes remain after it
    expect(slotA.subarray(firstLine).indexOf(10)).toBeGreaterThanOrEqual(0); // including its newline
    // A crash: nothing signed. A new writer must authenticate all 42 entries from the intents.
    const reopened = await openTestLedger(d, 'write');
    try {
      expect(reopened.size).toBe(42);
      expect(reopened.unauthenticatedTail).toBeNull();
      await reopened.append(drafts(42, 1));
      expect(await reopened.checkpoint()).not.toBeNull();
    } finally {
      await reopened.close();
      await ledger.close();
    }
  });
});
