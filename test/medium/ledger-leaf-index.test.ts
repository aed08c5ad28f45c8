// Issue 12, "Persist the leaf hashes": the leaf index (ledger/leaves.bin) spares an open from
// re-hashing a large ledger, yet is never trusted: only the leaves a signed checkpoint's root
// vouches for are used, the rest is hashed from the entries, every read is checked against its
// leaf, and a writer uses the index only while the ledger file is as the last writer left it.
import { open, readFile, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashLeaf, MerkleTree } from '../../src/core/merkle.js';
import { CustodyError } from '../../src/core/errors.js';
import { countingHash, drafts, makeLedgerDir, openTestLedger, type LedgerDir } from '../support/ledger-kit.js';

const N = 20_000;

async function signedLedger(prefix: string, size = N): Promise<LedgerDir> {
  const d = await makeLedgerDir(prefix);
  const w = await openTestLedger(d, 'write');
  for (let from = 0; from < size; from += 1000) await w.append(drafts(from, Math.min(1000, size - from)));
  await w.checkpoint();
  await w.close();
  return d;
}

async function entryLeaves(d: LedgerDir): Promise<Buffer[]> {
  const text = await readFile(d.ledgerPath);
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = text.indexOf(10); nl >= 0; nl = text.indexOf(10, start)) {
    out.push(hashLeaf(text.subarray(start, nl)));
    start = nl + 1;
  }
  return out;
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

/** Rewrites entry `seq` in place with other content of the same length (an insider's edit). */
async function editEntry(d: LedgerDir, seq: number): Promise<void> {
  const lines = (await readFile(d.ledgerPath, 'utf8')).split('\n');
  lines[seq] = (lines[seq] ?? '').replace('"tester"', '"Tester"');
  await writeFile(d.ledgerPath, lines.join('\n'));
}

describe('the leaf index spares an open from re-hashing the ledger', () => {
  it(`opening a signed ledger of ${N} entries hashes none of them; an unsigned tail is hashed from its entries`, async () => {
    const d = await signedLedger('leaf-open');
    expect((await readFile(d.leavesPath)).length).toBe(N * 32);
    const expected = new MerkleTree(await entryLeaves(d)).root();

    const reader = countingHash();
    const r = await openTestLedger(d, 'read', { hashLeaf: reader.hashLeaf });
    expect(reader.count()).toBe(0);
    expect(r.size).toBe(N);
    expect(r.root().equals(expected)).toBe(true);
    await r.close();

    const writerHash = countingHash();
    const w = await openTestLedger(d, 'write', { hashLeaf: writerHash.hashLeaf });
    expect(writerHash.count()).toBe(0);
    await w.append(drafts(N, 5)); // appended, not signed: a tail
    await w.close();

    // Without the index, the same open hashes every entry: that is what the index saves.
    const tail = countingHash();
    const t = await openTestLedger(d, 'read', { hashLeaf: tail.hashLeaf });
    expect(tail.count()).toBe(5);
    expect(t.root().equals(new MerkleTree(await entryLeaves(d)).root())).toBe(true);
    await t.close();
    await unlink(d.leavesPath);
    const all = countingHash();
    const u = await openTestLedger(d, 'read', { hashLeaf: all.hashLeaf });
    expect(all.count()).toBe(N + 5);
    await u.close();
  });
});

describe('the leaf index is an index, never a record', () => {
  it('a leaf edited on disk is not used: the open hashes the entries, gets the true root, and a writer rebuilds the index', async () => {
    const d = await signedLedger('leaf-edited', 3000);
    const truth = await entryLeaves(d);
    const fh = await open(d.leavesPath, 'r+');
    await fh.write(Buffer.alloc(32, 0xab), 0, 32, 1234 * 32);
    await fh.close();

    const h = countingHash();
    const r = await openTestLedger(d, 'read', { hashLeaf: h.hashLeaf });
    expect(h.count()).toBe(3000); // the signed root did not match: every entry hashed
    expect(r.root().equals(new MerkleTree(truth).root())).toBe(true);
    expect(r.leafHash(1234).equals(truth[1234] ?? Buffer.alloc(0))).toBe(true);
    await r.close();

    const w = await openTestLedger(d, 'write');
    await w.close();
    expect((await readFile(d.leavesPath)).equals(Buffer.concat(truth))).toBe(true);
  });

  it('a truncated leaf index is rebuilt by the next writer', async () => {
    const d = await signedLedger('leaf-truncated', 3000);
    const truth = Buffer.concat(await entryLeaves(d));
    await truncate(d.leavesPath, 100 * 32 + 7);
    const h = countingHash();
    const r = await openTestLedger(d, 'read', { hashLeaf: h.hashLeaf });
    expect(h.count()).toBe(3000); // no signed checkpoint within 100 leaves: nothing taken from it
    expect(r.root().equals(new MerkleTree(await entryLeaves(d)).root())).toBe(true);
    await r.close();
    const w = await openTestLedger(d, 'write');
    await w.close();
    expect((await readFile(d.leavesPath)).equals(truth)).toBe(true);
  });

  it('a missing leaf index is rebuilt by the next writer', async () => {
    const d = await signedLedger('leaf-missing', 3000);
    const truth = Buffer.concat(await entryLeaves(d));
    await unlink(d.leavesPath);
    const w = await openTestLedger(d, 'write');
    expect(w.size).toBe(3000);
    await w.close();
    expect((await readFile(d.leavesPath)).equals(truth)).toBe(true);
  });

  it('an entry edited under an intact index: every read of it refuses (LEDGER_LEAVES_MISMATCH), and a writer re-hashes and refuses (LEDGER_CHECKPOINT_MISMATCH)', async () => {
    const d = await signedLedger('leaf-entry-edited', 3000);
    await editEntry(d, 2000);
    const r = await openTestLedger(d, 'read');
    expect((await r.read(1999, 2000)).length).toBe(1); // its neighbours read as ever
    expect(await codeOf(r.read(2000, 2001))).toBe('LEDGER_LEAVES_MISMATCH');
    expect(await codeOf(r.read(0, 3000))).toBe('LEDGER_LEAVES_MISMATCH');
    await r.close();
    // The kernel moved the file's ctime: the stamp no longer holds, the writer hashes every entry.
    const h = countingHash();
    expect(await codeOf(openTestLedger(d, 'write', { hashLeaf: h.hashLeaf }))).toBe('LEDGER_CHECKPOINT_MISMATCH');
    expect(h.count()).toBe(3000);
  });

  it('a stamp rewritten for the edited file without the key does not let a writer skip the hashing', async () => {
    const d = await signedLedger('leaf-stamp-forged', 3000);
    const stampPath = join(d.dir, 'leaves.stamp');
    const stamp = JSON.parse(await readFile(stampPath, 'utf8')) as Record<string, string>;
    await editEntry(d, 2000);
    const fh = await open(d.ledgerPath, 'r');
    const st = await fh.stat({ bigint: true });
    await fh.close();
    // The insider copies the new identity into the stamp; the MAC is the old one.
    const forged = { ...stamp, ctime_ns: st.ctimeNs.toString(), size: st.size.toString(), ino: st.ino.toString() };
    await writeFile(stampPath, JSON.stringify(Object.fromEntries(Object.entries(forged).sort(([a], [b]) => (a < b ? -1 : 1)))));
    const h = countingHash();
    expect(await codeOf(openTestLedger(d, 'write', { hashLeaf: h.hashLeaf }))).toBe('LEDGER_CHECKPOINT_MISMATCH');
    expect(h.count()).toBe(3000);
  });
});

describe('the leaf index in hostile hands', () => {
  it('a link planted in its place is never followed: the writer hashes, appends and signs, and the link target is untouched', async () => {
    const d = await signedLedger('leaf-link', 500);
    const outside = join(d.dir, 'outside.bin');
    await writeFile(outside, 'not yours');
    await unlink(d.leavesPath);
    await symlink(outside, d.leavesPath);
    const h = countingHash();
    const w = await openTestLedger(d, 'write', { hashLeaf: h.hashLeaf });
    expect(h.count()).toBe(500);
    expect(w.warnings.join('\n')).toContain('leaf index');
    await w.append(drafts(500, 3));
    await w.checkpoint();
    await w.close();
    expect(await readFile(outside, 'utf8')).toBe('not yours');
    const r = await openTestLedger(d, 'read');
    expect(r.size).toBe(503);
    expect(r.root().equals(new MerkleTree(await entryLeaves(d)).root())).toBe(true);
    await r.close();
  });
});

describe('read handles refresh() instead of re-reading the ledger', () => {
  it('refresh() takes in the entries appended since, hashing only those, and reads them', async () => {
    const d = await signedLedger('leaf-refresh', 2000);
    const h = countingHash();
    const r = await openTestLedger(d, 'read', { hashLeaf: h.hashLeaf });
    expect(h.count()).toBe(0);
    const w = await openTestLedger(d, 'write');
    await w.append(drafts(2000, 7));
    expect(await r.refresh()).toBe(7);
    expect(h.count()).toBe(7);
    expect(r.size).toBe(2007);
    expect(r.root().equals(w.root())).toBe(true);
    const [last] = await r.read(2006, 2007);
    expect(last?.entry.details).toEqual({ n: 2006 });
    expect(await r.refresh()).toBe(0);
    // An append in progress (no newline yet) is left for the next refresh.
    await writeFile(d.ledgerPath, '{"partial":', { flag: 'a' });
    expect(await r.refresh()).toBe(0);
    expect(r.size).toBe(2007);
    await w.close().catch(() => undefined);
    await r.close();
  });

  it('refresh() refuses when the entries it had read were edited (LEDGER_CHANGED_UNDER_READER)', async () => {
    const d = await signedLedger('leaf-refresh-edited', 50);
    const r = await openTestLedger(d, 'read');
    await editEntry(d, 49);
    expect(await codeOf(r.refresh())).toBe('LEDGER_CHANGED_UNDER_READER');
    await r.close();
  });
});
