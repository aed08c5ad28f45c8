// The CLI's contract with people and scripts: exit codes, and the JSON shapes of log, checkpoint,
// prove, items and show, checked with the project's own RFC 9162 verifiers from dist/ and with
// plain SHA-256 where that is enough.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointSizes,
  cloneArchive,
  custody,
  custodyExpect,
  ingest,
  initArchive,
  itemAt,
  listItems,
  loadCore,
  readLog,
  sha256Hex,
  writeExtraFiles,
  writeSourceTree,
  type ItemJson,
  type SourceTree,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

const ITEM_KEYS = [
  'actor',
  'delivery',
  'flags',
  'id',
  'media_type',
  'member_index',
  'mtime',
  'name',
  'parent',
  'path',
  'path_encoding',
  'path_raw_hex',
  'received_at',
  'relative_path',
  'seq',
  'sha256',
  'size',
];

describe('usage errors exit 2', () => {
  it('no arguments, an unknown command, an unknown option', async () => {
    const none = await custody([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('usage: custody <command>');
    expect((await custody(['frobnicate'])).code).toBe(2);
    const opt = await custody(['verify', '--no-such-option', '--archive', '/nonexistent']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toContain('[USAGE]');
    expect((await custody(['--help'])).code).toBe(0);
  });
});

describe('the CLI contract on a small archive', () => {
  let archive: TestArchive;
  let tree: SourceTree;
  let items: ItemJson[];
  /** Ledger sizes right after init, the first delivery and the second. */
  let sizes: { init: number; first: number; second: number };
  const on = (): string[] => ['--archive', archive.dir];

  beforeAll(async () => {
    const base = await makeTempDir('contract');
    tree = await writeSourceTree(join(base, 'src'));
    archive = await initArchive(join(base, 'archive'));
    const first = await ingest(archive, [tree.root], 'SRC-ALPHA');
    await writeExtraFiles(join(base, 'more'), 2);
    const second = await ingest(archive, [join(base, 'more')], 'SRC-BRAVO');
    sizes = { init: 1, first: first.ledger.size, second: second.ledger.size };
    items = await listItems(archive);
  });

  it('ingest without --source, or without a path → exit 2', async () => {
    const noSource = await custody(['ingest', tree.root, ...on()]);
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toContain('[USAGE]');
    expect((await custody(['ingest', '--source', 'S', ...on()])).code).toBe(2);
  });

  it('a directory that is not an archive → exit 2, ARCHIVE_NOT_FOUND', async () => {
    const r = await custody(['log', '--archive', await makeTempDir('not-an-archive')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[ARCHIVE_NOT_FOUND]');
  });

  // A damaged archive manifest is a finding about the archive, never an internal error.
  it('a damaged custody.json → exit 1, ARCHIVE_INVALID (not an internal error)', async () => {
    const a = await cloneArchive(archive, 'contract-bad-manifest');
    await writeFile(join(a.dir, 'custody.json'), '{"format": "custody-archive", "vers');
    const r = await custody(['verify', '--archive', a.dir]);
    expect(r.stderr).toContain('[ARCHIVE_INVALID]');
    expect(r.code).toBe(1);
  });

  it('log --json: {index, entry, leaf_hash, canonical}; canonical re-hashes to leaf_hash and parses to entry', async () => {
    const log = await readLog(archive);
    expect(log).toHaveLength(sizes.second);
    log.forEach((line, i) => {
      expect(Object.keys(line).sort()).toEqual(['canonical', 'entry', 'index', 'leaf_hash']);
      expect(line.index).toBe(i);
      expect(line.entry.seq).toBe(i);
      const bytes = Buffer.from(line.canonical, 'base64');
      const leaf = createHash('sha256').update(Buffer.of(0)).update(bytes).digest('hex');
      expect(leaf).toBe(line.leaf_hash);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(line.entry);
    });
    expect(log.map((l) => l.entry.type).filter((t) => t !== 'ingestion')).toEqual([
      'creation',
      'cataloguing', // ingest --new-source registers the source first
      'ingestion start',
      'ingestion end',
      'cataloguing',
      'ingestion start',
      'ingestion end',
    ]);
  });

  it('checkpoint: a note of origin, size, root and a signature that verifies with the archive key', async () => {
    const { checkpoint } = await loadCore();
    const verifier = checkpoint.parseVerifierKey(archive.verifierKey);
    const r = await custodyExpect(0, ['checkpoint', ...on()]);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(archive.origin);
    expect(lines[1]).toBe(String(sizes.second));
    const cp = checkpoint.verifyCheckpoint(r.stdout, verifier);
    expect(cp).toMatchObject({ origin: archive.origin, size: sizes.second });

    const json = JSON.parse((await custodyExpect(0, ['checkpoint', '--json', ...on()])).stdout) as {
      origin: string;
      size: number;
      root: string;
      note: string;
    };
    expect(json).toEqual({
      origin: archive.origin,
      size: sizes.second,
      root: cp.root.toString('hex'),
      note: r.stdout,
    });
  });

  it('checkpoint --at N: works for every signed size, exit 1 for a size never signed, exit 2 for a non-number', async () => {
    const { checkpoint } = await loadCore();
    expect(await checkpointSizes(archive.dir)).toEqual([sizes.init, sizes.first, sizes.second]);
    const at = await custodyExpect(0, ['checkpoint', '--at', String(sizes.first), ...on()]);
    expect(
      checkpoint.verifyCheckpoint(at.stdout, checkpoint.parseVerifierKey(archive.verifierKey)).size,
    ).toBe(sizes.first);
    const missing = await custodyExpect(1, [
      'checkpoint',
      '--at',
      String(sizes.first + 1),
      ...on(),
    ]);
    expect(missing.stderr).toContain('[NOT_FOUND]');
    await custodyExpect(2, ['checkpoint', '--at', 'latest', ...on()]);
  });

  const roots = new Map<number, Buffer>();
  /** The verified root of the signed checkpoint at `size`, as `custody checkpoint --at` hands it out. */
  async function signedRoot(size: number): Promise<Buffer> {
    const known = roots.get(size);
    if (known !== undefined) return known;
    const { checkpoint } = await loadCore();
    const r = await custodyExpect(0, ['checkpoint', '--at', String(size), ...on()]);
    const root = checkpoint.verifyCheckpoint(
      r.stdout,
      checkpoint.parseVerifierKey(archive.verifierKey),
    ).root;
    roots.set(size, root);
    return root;
  }

  it('prove inclusion <seq> --json verifies against the signed checkpoint root', async () => {
    const { merkle } = await loadCore();
    const root = await signedRoot(sizes.second);
    const log = await readLog(archive);
    for (const seq of [0, sizes.first - 1, sizes.second - 1]) {
      const r = await custodyExpect(0, ['prove', 'inclusion', String(seq), '--json', ...on()]);
      const p = JSON.parse(r.stdout) as {
        type: string;
        index: number;
        tree_size: number;
        leaf_hash: string;
        root: string;
        proof: string[];
        canonical: string;
      };
      expect(p).toMatchObject({
        type: 'inclusion',
        index: seq,
        tree_size: sizes.second,
        root: root.toString('hex'),
      });
      expect(p.canonical).toBe(log[seq]?.canonical);
      const leaf = merkle.hashLeaf(Buffer.from(p.canonical, 'base64'));
      expect(leaf.toString('hex')).toBe(p.leaf_hash);
      const proof = p.proof.map((h) => Buffer.from(h, 'hex'));
      expect(merkle.verifyInclusion(seq, sizes.second, leaf, proof, root)).toBe(true);
      // The same proof does not hold for a neighbouring leaf.
      const other = Buffer.from(log[(seq + 1) % sizes.second]?.leaf_hash ?? '', 'hex');
      expect(merkle.verifyInclusion(seq, sizes.second, other, proof, root)).toBe(false);
    }
    await custodyExpect(1, [
      'prove',
      'inclusion',
      String(sizes.second),
      '--size',
      String(sizes.second),
      ...on(),
    ]);
  });

  it('prove consistency <m> <n> --json verifies between two signed checkpoint roots', async () => {
    const { merkle } = await loadCore();
    for (const [m, n] of [
      [sizes.init, sizes.second],
      [sizes.first, sizes.second],
      [sizes.init, sizes.first],
    ] as const) {
      const [oldRoot, newRoot] = [await signedRoot(m), await signedRoot(n)];
      const r = await custodyExpect(0, [
        'prove',
        'consistency',
        String(m),
        String(n),
        '--json',
        ...on(),
      ]);
      const p = JSON.parse(r.stdout) as {
        type: string;
        old_size: number;
        new_size: number;
        old_root: string;
        new_root: string;
        proof: string[];
      };
      expect(p).toMatchObject({
        type: 'consistency',
        old_size: m,
        new_size: n,
        old_root: oldRoot.toString('hex'),
        new_root: newRoot.toString('hex'),
      });
      const proof = p.proof.map((h) => Buffer.from(h, 'hex'));
      expect(merkle.verifyConsistency(m, n, oldRoot, newRoot, proof)).toBe(true);
      expect(merkle.verifyConsistency(m, n, newRoot, oldRoot, proof)).toBe(false);
    }
    await custodyExpect(2, ['prove', 'sideways', '1', ...on()]);
  });

  it('items --json: one object per item, with the bytes received', () => {
    expect(items).toHaveLength(tree.files.size + tree.zip.members.size + 2);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    for (const [rel, bytes] of tree.files) {
      expect(itemAt(items, rel)).toMatchObject({
        relative_path: rel,
        size: bytes.length,
        sha256: sha256Hex(bytes),
        parent: null,
        member_index: null,
      });
    }
    const zip = itemAt(items, tree.zip.path);
    [...tree.zip.members].forEach(([name, bytes], index) => {
      expect(itemAt(items, name)).toMatchObject({
        parent: zip.id,
        member_index: index,
        size: bytes.length,
        sha256: sha256Hex(bytes),
      });
    });
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it('show <sha256> of a duplicated file lists both items; show <id> marks the item asked for', async () => {
    const [a, b] = tree.duplicate.map((p) => itemAt(items, p));
    const sha = a?.sha256 ?? '';
    expect(b?.sha256).toBe(sha);
    type ShowJson = {
      sha256: string;
      size: number;
      withdrawn: boolean;
      item: { id: string } | null;
      items: { id: string; source: string }[];
      sources: string[];
    };
    const bySha = JSON.parse(
      (await custodyExpect(0, ['show', sha, '--json', ...on()])).stdout,
    ) as ShowJson;
    expect(bySha).toMatchObject({
      sha256: sha,
      size: a?.size,
      withdrawn: false,
      item: null,
      sources: ['SRC-ALPHA'],
    });
    expect(bySha.items.map((i) => i.id).sort()).toEqual([a?.id, b?.id].sort());
    expect(bySha.items.every((i) => i.source === 'SRC-ALPHA')).toBe(true);

    const byId = JSON.parse(
      (await custodyExpect(0, ['show', (b?.id ?? '').toLowerCase(), '--json', ...on()])).stdout,
    ) as ShowJson;
    expect(byId.item?.id).toBe(b?.id);
    expect(byId.items).toHaveLength(2);
  });

  it('show of an unknown id or digest → exit 1 (NOT_FOUND); of nothing → exit 2', async () => {
    const id = await custodyExpect(1, ['show', '01ZZZZZZZZZZZZZZZZZZZZZZZZ', ...on()]);
    expect(id.stderr).toContain('[NOT_FOUND]');
    await custodyExpect(1, ['show', 'ab'.repeat(32), ...on()]);
    await custodyExpect(2, ['show', ...on()]);
  });
});
