// `custody verify` against an insider with disk access: each test tampers with one copy of a
// small archive in one way and asserts the exit code and the finding CODE (never the message).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildArchive,
  checkpointPath,
  checkpointSizes,
  cloneArchive,
  custodyInExpect,
  expectClean,
  expectFinding,
  hashTree,
  ingest,
  itemAt,
  listItems,
  loadCore,
  objectPath,
  readLedgerLines,
  readLog,
  resignCheckpoints,
  sha256Hex,
  verifyJson,
  withIndexDb,
  writeExtraFiles,
  writeLedgerLines,
  type IndexDb,
  type ItemJson,
  type LedgerEntry,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

/** Index of the ledger line whose entry satisfies `pred`. */
function lineWhere(lines: readonly string[], pred: (e: LedgerEntry) => boolean): number {
  const i = lines.findIndex((l) => pred(JSON.parse(l) as LedgerEntry));
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

function replaceOnce(line: string, from: string, to: string): string {
  expect(line.split(from)).toHaveLength(2);
  return line.replace(from, to);
}

describe('verify finds each kind of tampering', () => {
  let base: TestArchive;
  let items: ItemJson[];

  beforeAll(async () => {
    ({ archive: base } = await buildArchive('tamper-base'));
    items = await listItems(base);
  });

  it('verifies the untouched archive first (exit 0, no findings)', async () => {
    const v = await expectClean(base);
    expect(v.report.findings).toEqual([]);
    // 5 distinct objects: a.bin (twice), b.bin, note.txt, bundle.zip and its 2 members.
    expect(v.report.objects).toMatchObject({ listed: 6, hashed: 6, referenced: 6, withdrawn: 0 });
    expect(v.report.checkpoints.verified).toBe(v.report.checkpoints.stored);
    expect(items).toHaveLength(7);
  });

  it('a flipped byte in an object → STORE_DIGEST_MISMATCH', async () => {
    const a = await cloneArchive(base, 'tamper-flip');
    const target = itemAt(items, 'photos/nested/b.bin').sha256;
    const path = objectPath(a.dir, target);
    await chmod(path, 0o644);
    const bytes = await readFile(path);
    bytes[100] = (bytes[100] ?? 0) ^ 0x01;
    await writeFile(path, bytes);
    const v = await expectFinding(a, 'STORE_DIGEST_MISMATCH');
    expect(v.report.findings.find((f) => f.code === 'STORE_DIGEST_MISMATCH')?.subject).toBe(target);
  });

  it('a deleted object (no withdrawal) → STORE_OBJECT_MISSING', async () => {
    const a = await cloneArchive(base, 'tamper-delete');
    const target = itemAt(items, 'docs/note.txt').sha256;
    await unlink(objectPath(a.dir, target));
    const v = await expectFinding(a, 'STORE_OBJECT_MISSING');
    expect(v.report.findings.find((f) => f.code === 'STORE_OBJECT_MISSING')?.subject).toBe(target);
  });

  it('an extra object whose name matches its bytes → STORE_EXTRA_OBJECT', async () => {
    const a = await cloneArchive(base, 'tamper-extra');
    const planted = Buffer.from('planted evidence, never received\n');
    const sha = sha256Hex(planted);
    await mkdir(join(objectPath(a.dir, sha), '..'), { recursive: true });
    await writeFile(objectPath(a.dir, sha), planted, { mode: 0o444 });
    const v = await expectFinding(a, 'STORE_EXTRA_OBJECT');
    expect(v.codes).not.toContain('STORE_DIGEST_MISMATCH');
  });

  it('an extra sha256-named object whose bytes do not match → STORE_EXTRA_OBJECT and STORE_DIGEST_MISMATCH', async () => {
    const a = await cloneArchive(base, 'tamper-extra-bad');
    const name = sha256Hex(Buffer.from('something else'));
    await mkdir(join(objectPath(a.dir, name), '..'), { recursive: true });
    await writeFile(objectPath(a.dir, name), 'not those bytes');
    const v = await expectFinding(a, 'STORE_EXTRA_OBJECT');
    expect(v.codes).toContain('STORE_DIGEST_MISMATCH');
  });

  it('a stray file inside a prefix folder → STORE_EXTRA_OBJECT', async () => {
    const a = await cloneArchive(base, 'tamper-stray');
    const prefix = itemAt(items, 'photos/a.bin').sha256.slice(0, 2);
    await writeFile(
      join(a.dir, 'objects', 'sha256', prefix, 'notes.txt'),
      'left here by someone\n',
    );
    await expectFinding(a, 'STORE_EXTRA_OBJECT');
  });

  it('an object filed under the wrong prefix folder → STORE_EXTRA_OBJECT', async () => {
    const a = await cloneArchive(base, 'tamper-prefix');
    const bytes = Buffer.from('filed in the wrong place\n');
    const sha = sha256Hex(bytes);
    const wrong = sha.startsWith('00') ? 'ff' : '00';
    await mkdir(join(a.dir, 'objects', 'sha256', wrong), { recursive: true });
    await writeFile(join(a.dir, 'objects', 'sha256', wrong, sha), bytes);
    await expectFinding(a, 'STORE_EXTRA_OBJECT');
  });

  // A file placed directly in objects/sha256/ (not in a prefix folder) is seen too.
  it('a stray file directly in objects/sha256/ → STORE_EXTRA_OBJECT', async () => {
    const a = await cloneArchive(base, 'tamper-stray-top');
    const planted = Buffer.from('hidden at the top of the store\n');
    await writeFile(join(a.dir, 'objects', 'sha256', sha256Hex(planted)), planted);
    await expectFinding(a, 'STORE_EXTRA_OBJECT');
  });

  it("an edited entry (an item's size, still canonical) → CHECKPOINT_ROOT_MISMATCH", async () => {
    const a = await cloneArchive(base, 'tamper-edit-size');
    const lines = await readLedgerLines(a.dir);
    const b = itemAt(items, 'photos/nested/b.bin');
    const i = lineWhere(lines, (e) => e.type === 'ingestion' && e.items[0] === b.id);
    lines[i] = replaceOnce(lines[i] ?? '', `"size":${b.size}}`, `"size":${b.size + 1}}`);
    await writeLedgerLines(a.dir, lines);
    const v = await expectFinding(a, 'CHECKPOINT_ROOT_MISMATCH');
    // The index still holds the true size: the comparison with the ledger complains too.
    expect(v.codes).toContain('DB_ROW_CHANGED');
  });

  it('an edited entry (the actor, still canonical) → CHECKPOINT_ROOT_MISMATCH', async () => {
    const a = await cloneArchive(base, 'tamper-edit-actor');
    const lines = await readLedgerLines(a.dir);
    lines[2] = replaceOnce(lines[2] ?? '', '"actor":"test-operator"', '"actor":"somebody-else"');
    await writeLedgerLines(a.dir, lines);
    await expectFinding(a, 'CHECKPOINT_ROOT_MISMATCH');
  });

  it('two entries swapped → LEDGER_SEQ_MISMATCH', async () => {
    const a = await cloneArchive(base, 'tamper-swap');
    const lines = await readLedgerLines(a.dir);
    [lines[2], lines[3]] = [lines[3] ?? '', lines[2] ?? ''];
    await writeLedgerLines(a.dir, lines);
    const v = await expectFinding(a, 'LEDGER_SEQ_MISMATCH');
    expect(v.codes).toContain('CHECKPOINT_ROOT_MISMATCH');
  });

  // Tampering with the last line must still produce a full report (opening the ledger read-only
  // does not parse entries; the replay judges them).
  it('the last two entries swapped → LEDGER_SEQ_MISMATCH in the JSON report', async () => {
    const a = await cloneArchive(base, 'tamper-swap-tail');
    const lines = await readLedgerLines(a.dir);
    const n = lines.length;
    [lines[n - 2], lines[n - 1]] = [lines[n - 1] ?? '', lines[n - 2] ?? ''];
    await writeLedgerLines(a.dir, lines);
    await expectFinding(a, 'LEDGER_SEQ_MISMATCH');
  });

  // With every checkpoint deleted, anyone with disk access (no key needed) could edit the ledger
  // and patch the index to match; `init` always signs a checkpoint, so none at all is tampering.
  it('all checkpoints deleted, an entry edited and the index patched to match → CHECKPOINT_MISSING', async () => {
    const a = await cloneArchive(base, 'tamper-no-checkpoints');
    const lines = await readLedgerLines(a.dir);
    // The first ingestion entry (after creation, the source's registration and the delivery's start).
    const n = lines.findIndex((l) => (JSON.parse(l) as LedgerEntry).type === 'ingestion');
    expect(n).toBeGreaterThan(1);
    lines[n] = replaceOnce(lines[n] ?? '', '"actor":"test-operator"', '"actor":"somebody-else"');
    await writeLedgerLines(a.dir, lines);
    for (const size of await checkpointSizes(a.dir)) await unlink(checkpointPath(a.dir, size));
    const leaf = createHash('sha256')
      .update(Buffer.of(0))
      .update(lines[n] ?? '')
      .digest('hex');
    await withIndexDb(a, async (sql) => {
      await sql.exec('UPDATE ledger_entries SET actor = ?, leaf_hash = ? WHERE seq = ?', [
        'somebody-else',
        leaf,
        n,
      ]);
      await sql.exec('UPDATE items SET actor = ? WHERE seq = ?', ['somebody-else', n]);
    });
    const v = await verifyJson(a);
    expect(
      v.report.findings.filter((f) => f.severity === 'error'),
      JSON.stringify(v.report.findings),
    ).not.toEqual([]);
    expect(v.report.findings.map((f) => f.code)).toContain('CHECKPOINT_MISSING');
    expect(v.code).toBe(1);
  });

  it('a stored checkpoint with a flipped signature character → CHECKPOINT_SIGNATURE_INVALID', async () => {
    const a = await cloneArchive(base, 'tamper-sig');
    const size = (await checkpointSizes(a.dir)).at(-1) ?? 0;
    const path = checkpointPath(a.dir, size);
    const note = await readFile(path, 'utf8');
    const sigStart = note.lastIndexOf(' ') + 1; // "— <name> <base64>\n": base64 follows the last space
    const at = sigStart + 20; // past the 4-byte key ID, inside the Ed25519 signature
    const flipped = note[at] === 'A' ? 'B' : 'A';
    await writeFile(path, note.slice(0, at) + flipped + note.slice(at + 1));
    const v = await expectFinding(a, 'CHECKPOINT_SIGNATURE_INVALID');
    expect(v.report.findings.find((f) => f.code === 'CHECKPOINT_SIGNATURE_INVALID')?.subject).toBe(
      `checkpoint ${size}`,
    );
  });

  it('a trusted checkpoint signed by another key → TRUSTED_CHECKPOINT_SIGNATURE_INVALID', async () => {
    const { checkpoint } = await loadCore();
    const size = (await checkpointSizes(base.dir)).at(-1) ?? 0;
    const genuine = checkpoint.parseCheckpoint(
      (await readFile(checkpointPath(base.dir, size), 'utf8')).split('\n\n')[0] + '\n',
    );
    // Same origin, size and root: only the key differs.
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = checkpoint.signCheckpoint(
      genuine,
      checkpoint.createEd25519Signer(base.origin, privateKey),
    );
    const file = join(await makeTempDir('tamper-foreign-key'), 'trusted.txt');
    await writeFile(file, forged);
    const v = await expectFinding(base, 'TRUSTED_CHECKPOINT_SIGNATURE_INVALID', [
      '--trusted-checkpoint',
      file,
    ]);
    expect(v.report.trusted).toEqual([
      { file, size: null, result: 'TRUSTED_CHECKPOINT_SIGNATURE_INVALID' },
    ]);
  });

  it('an unreadable trusted checkpoint → TRUSTED_CHECKPOINT_UNREADABLE', async () => {
    const missing = join(await makeTempDir('tamper-no-trusted'), 'nowhere.txt');
    await expectFinding(base, 'TRUSTED_CHECKPOINT_UNREADABLE', ['--trusted-checkpoint', missing]);
  });

  it('verify modifies nothing, on a clean archive and on a tampered one', async () => {
    const a = await cloneArchive(base, 'tamper-readonly');
    const before = await hashTree(a.dir);
    await expectClean(a);
    expect(await hashTree(a.dir)).toEqual(before);

    const target = objectPath(a.dir, itemAt(items, 'photos/a.bin').sha256);
    await chmod(target, 0o644);
    await writeFile(target, 'overwritten');
    const tampered = await hashTree(a.dir);
    await expectFinding(a, 'STORE_DIGEST_MISMATCH');
    expect(await hashTree(a.dir)).toEqual(tampered);
  });

  it('verify --record appends exactly one fixity check entry', async () => {
    const a = await cloneArchive(base, 'tamper-record');
    const before = await readLog(a);
    const r = await custodyInExpect(0, ['verify', '--record', '--json', '--archive', a.dir]);
    expect((JSON.parse(r.stdout) as { recorded_seq: number }).recorded_seq).toBe(before.length);
    const after = await readLog(a);
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(0, -1)).toEqual(before);
    const last = after.at(-1)?.entry;
    expect(last?.type).toBe('fixity check');
    expect(last?.details).toMatchObject({ result: 'pass', tree_size: before.length, findings: [] });
    // The recording run signed a checkpoint for the new size: the archive still verifies.
    expect(await checkpointSizes(a.dir)).toContain(after.length);
    await expectClean(a);
  });
});

describe('an insider rewrites the ledger and re-signs: only a trusted checkpoint tells', () => {
  let base: TestArchive;
  let trustedFile: string;
  let trustedSize: number;
  let firstDeliverySize: number;

  beforeAll(async () => {
    const built = await buildArchive('insider-base');
    base = built.archive;
    firstDeliverySize = (await readLedgerLines(base.dir)).length;
    await writeExtraFiles(join(built.base, 'second'), 3);
    await ingest(base, [join(built.base, 'second')], 'SRC-BRAVO');
    // A party outside the archive keeps the checkpoint at this size.
    const r = await custodyInExpect(0, ['checkpoint', '--archive', base.dir]);
    trustedFile = join(built.base, 'trusted.txt');
    await writeFile(trustedFile, r.stdout);
    trustedSize = Number(r.stdout.split('\n')[1]);
    expect(trustedSize).toBe((await readLedgerLines(base.dir)).length);
    await writeExtraFiles(join(built.base, 'third'), 2);
    await ingest(base, [join(built.base, 'third')], 'SRC-CHARLIE');
  });

  /** What the insider does after rewriting entries.jsonl: a fresh index, no unexplained objects. */
  async function coverTracks(a: TestArchive): Promise<void> {
    await custodyInExpect(0, ['rebuild', '--archive', a.dir]);
    const referenced = new Set(
      (await readLedgerLines(a.dir)).flatMap((l) => (JSON.parse(l) as LedgerEntry).objects),
    );
    const store = join(a.dir, 'objects', 'sha256');
    for (const prefix of await readdir(store)) {
      for (const name of await readdir(join(store, prefix)))
        if (!referenced.has(name)) await rm(join(store, prefix, name));
    }
  }

  it('the untouched archive is consistent with the trusted checkpoint', async () => {
    const v = await expectClean(base, ['--trusted-checkpoint', trustedFile]);
    expect(v.codes).toEqual(['TRUSTED_CHECKPOINT_CONSISTENT']);
    expect(v.report.trusted).toEqual([
      { file: trustedFile, size: trustedSize, result: 'TRUSTED_CHECKPOINT_CONSISTENT' },
    ]);
  });

  it('truncated below the trusted size, later checkpoints deleted, the rest re-signed → TRUSTED_CHECKPOINT_TRUNCATED', async () => {
    const a = await cloneArchive(base, 'insider-truncate');
    const keep = firstDeliverySize + 2; // the second delivery's start and its first item
    expect(keep).toBeLessThan(trustedSize);
    await writeLedgerLines(a.dir, (await readLedgerLines(a.dir)).slice(0, keep));
    for (const size of await checkpointSizes(a.dir))
      if (size > keep) await unlink(checkpointPath(a.dir, size));
    await resignCheckpoints(a, [...(await checkpointSizes(a.dir)), keep]);
    await coverTracks(a);

    await expectClean(a); // the archive's own checks cannot see it
    const v = await expectFinding(a, 'TRUSTED_CHECKPOINT_TRUNCATED', [
      '--trusted-checkpoint',
      trustedFile,
    ]);
    expect(v.report.trusted[0]?.result).toBe('TRUSTED_CHECKPOINT_TRUNCATED');
  });

  it('an early entry rewritten at the same size, every checkpoint re-signed → TRUSTED_CHECKPOINT_INCONSISTENT', async () => {
    const a = await cloneArchive(base, 'insider-rewrite');
    const lines = await readLedgerLines(a.dir);
    const size = lines.length;
    lines[2] = replaceOnce(lines[2] ?? '', '"actor":"test-operator"', '"actor":"a-scapegoat"');
    await writeLedgerLines(a.dir, lines);
    await resignCheckpoints(a, await checkpointSizes(a.dir));
    await coverTracks(a);

    const plain = await expectClean(a);
    expect(plain.report.ledger.size).toBe(size);
    const v = await expectFinding(a, 'TRUSTED_CHECKPOINT_INCONSISTENT', [
      '--trusted-checkpoint',
      trustedFile,
    ]);
    expect(v.report.trusted[0]?.result).toBe('TRUSTED_CHECKPOINT_INCONSISTENT');
  });
});

// Each test undoes its own tampering with SQL (the tests stay independent and cheap); the last
// one tampers in all four ways at once and shows that `custody rebuild` repairs the index.
describeDatabases('verify compares the index with the ledger', (db) => {
  let archive: TestArchive;
  let items: ItemJson[];
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const fake = '01FAKEFAKEFAKEFAKEFAKEFAKE';
  const copied =
    'delivery_id, parent_id, member_index, path, path_raw_hex, path_encoding, relative_path, name, size, mtime, media_type, sha256, flags_json, received_at, actor';
  const objectColumns = 'sha256, size, media_type, first_seq, withdrawn_seq, purged_seq';

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    ({ archive } = await buildArchive(
      `index-${db.kind}`,
      made.url === null ? {} : { DATABASE_URL: made.url },
    ));
    items = await listItems(archive);
  });

  afterAll(() => cleanup());

  const changeRow = (sql: IndexDb, b: ItemJson, size: number): Promise<void> =>
    sql.exec('UPDATE items SET size = ? WHERE id = ?', [size, b.id]);
  const addRow = (sql: IndexDb, b: ItemJson): Promise<void> =>
    sql.exec(
      `INSERT INTO items (id, seq, origin_key, ${copied}) SELECT ?, ?, ?, ${copied} FROM items WHERE id = ?`,
      [fake, 999_999, 'forged', b.id],
    );

  it('a changed row → DB_ROW_CHANGED', async () => {
    const b = itemAt(items, 'photos/nested/b.bin');
    await withIndexDb(archive, (sql) => changeRow(sql, b, b.size + 10));
    const v = await expectFinding(archive, 'DB_ROW_CHANGED');
    expect(v.report.findings.find((f) => f.code === 'DB_ROW_CHANGED')?.subject).toBe(
      `items/${b.id}`,
    );
    await withIndexDb(archive, (sql) => changeRow(sql, b, b.size));
  });

  it('an added row → DB_ROW_EXTRA', async () => {
    await withIndexDb(archive, (sql) => addRow(sql, itemAt(items, 'photos/nested/b.bin')));
    const v = await expectFinding(archive, 'DB_ROW_EXTRA');
    expect(v.report.findings.find((f) => f.code === 'DB_ROW_EXTRA')?.subject).toBe(`items/${fake}`);
    await withIndexDb(archive, (sql) => sql.exec('DELETE FROM items WHERE id = ?', [fake]));
  });

  it('a deleted row → DB_ROW_MISSING', async () => {
    const sha = itemAt(items, 'docs/note.txt').sha256;
    const [row] = await withIndexDb(archive, async (sql) => {
      const saved = await sql.rows<Record<string, unknown>>(
        `SELECT ${objectColumns} FROM objects WHERE sha256 = ?`,
        [sha],
      );
      await sql.exec('DELETE FROM objects WHERE sha256 = ?', [sha]);
      return saved;
    });
    const v = await expectFinding(archive, 'DB_ROW_MISSING');
    expect(v.report.findings.find((f) => f.code === 'DB_ROW_MISSING')?.subject).toBe(
      `objects/${sha}`,
    );
    await withIndexDb(archive, (sql) =>
      sql.exec(
        `INSERT INTO objects (${objectColumns}) VALUES (?, ?, ?, ?, ?, ?)`,
        Object.values(row ?? {}),
      ),
    );
  });

  it('the index behind the ledger → DB_LEDGER_LAG', async () => {
    const [meta] = await withIndexDb(archive, (sql) =>
      sql.rows<{ value: string }>("SELECT value FROM meta WHERE key = 'ledger_size'"),
    );
    await withIndexDb(archive, (sql) =>
      sql.exec("UPDATE meta SET value = '3' WHERE key = 'ledger_size'"),
    );
    const lower = await expectFinding(archive, 'DB_LEDGER_LAG');
    expect(lower.report.index.ledger_size_in_index).toBe(3);

    await withIndexDb(archive, (sql) => sql.exec("DELETE FROM meta WHERE key = 'ledger_size'"));
    const gone = await expectFinding(archive, 'DB_LEDGER_LAG');
    expect(gone.report.index.ledger_size_in_index).toBe(0);
    await withIndexDb(archive, (sql) =>
      sql.exec("INSERT INTO meta (key, value) VALUES ('ledger_size', ?)", [meta?.value]),
    );
  });

  it('after all four at once, rebuild restores an index that verifies clean', async () => {
    const b = itemAt(items, 'photos/nested/b.bin');
    await withIndexDb(archive, async (sql) => {
      await changeRow(sql, b, 1);
      await addRow(sql, b);
      await sql.exec('DELETE FROM objects WHERE sha256 = ?', [
        itemAt(items, 'docs/note.txt').sha256,
      ]);
      await sql.exec("DELETE FROM meta WHERE key = 'ledger_size'");
    });
    const v = await expectFinding(archive, 'DB_ROW_CHANGED');
    expect(v.codes).toEqual(
      expect.arrayContaining(['DB_ROW_EXTRA', 'DB_ROW_MISSING', 'DB_LEDGER_LAG']),
    );
    await custodyInExpect(0, ['rebuild', '--archive', archive.dir], archive.env);
    await expectClean(archive);
  });
});
