// Issue 9, destructive actions and what leaves the archive: `purge` acts on the ledger's facts,
// never on the index's (finding 3); a withdrawal reaches the containers that hold the bytes and
// the previews derived from them (findings 4, 5); an export never ships a container holding
// what it leaves out, never writes inside the archive (10d), and cleans up after a killed run (12f).
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLEAN_ENV,
  custody,
  custodyInExpect,
  objectPath,
  sha256Hex,
  withIndexDb,
  writeSourceTree,
  type ItemJson,
  type LogLine,
  type SourceTree,
} from '../support/archive-fixtures.js';
import { readJson, readTree, type WithheldJson } from '../support/export-bags.js';
import { buildZip } from '../support/make-zips.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

/** An archive driven in-process (runCli), with the environment every command on it needs. */
interface Arch {
  dir: string;
  env: Record<string, string>;
  run(code: number, args: string[]): ReturnType<typeof custodyInExpect>;
}

async function newArchive(dir: string, env: Record<string, string> = {}): Promise<Arch> {
  const arch: Arch = {
    dir,
    env,
    run: (code, args) => custodyInExpect(code, [...args, '--archive', dir], env),
  };
  await arch.run(0, ['init']);
  return arch;
}

async function items(a: Arch): Promise<ItemJson[]> {
  return JSON.parse((await a.run(0, ['items', '--json'])).stdout) as ItemJson[];
}

async function log(a: Arch): Promise<LogLine[]> {
  return (await a.run(0, ['log', '--json'])).stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LogLine);
}

function byName(list: readonly ItemJson[], suffix: string): ItemJson {
  const found = list.filter((i) => i.relative_path === suffix || i.relative_path.endsWith(`/${suffix}`) || i.relative_path.endsWith(`!/${suffix}`));
  expect(found.map((i) => i.relative_path), suffix).toHaveLength(1);
  return found[0] as ItemJson;
}

/** A synthetic JPEG with a camera and a GPS position in its EXIF. */
async function photo(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(160 * 120 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * (seed + 7)) % 253;
  return sharp(raw, { raw: { width: 160, height: 120, channels: 3 } })
    .withExif({
      IFD0: { Make: 'Alpha', Model: 'Alpha One' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '36/1 12/1 30/1', GPSLongitudeRef: 'E', GPSLongitude: '37/1 9/1 0/1' },
    })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Every file under `dir` whose bytes have one of these digests (relative paths). */
async function filesWithDigests(dir: string, digests: readonly string[]): Promise<string[]> {
  const wanted = new Set(digests);
  return [...(await readTree(dir))].filter(([, b]) => wanted.has(sha256Hex(b))).map(([p]) => p);
}

// ---------------------------------------------------------------------------------------------
// Finding 3: purge --withdrawn trusted objects.withdrawn_seq.

describeDatabases('purge --withdrawn acts on withdrawal entries in the ledger, never on the index', (db) => {
  let base: string;
  let a: Arch;
  let list: ItemJson[];
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    base = await makeTempDir(`purge-index-${db.kind}`);
    await writeSourceTree(join(base, 'src'));
    a = await newArchive(join(base, 'archive'), made.url === null ? {} : { DATABASE_URL: made.url });
    await a.run(0, ['ingest', join(base, 'src'), '--source', 'SRC-ALPHA', '--new-source']);
    list = await items(a);
  });

  afterAll(() => cleanup());

  it('finding 3: objects.withdrawn_seq set by hand to an ingestion entry is PURGE_WITHDRAWAL_UNPROVEN; nothing is deleted', async () => {
    const note = byName(list, 'docs/note.txt');
    const b = byName(list, 'photos/nested/b.bin');
    // A genuine withdrawal of note.txt, and a forged one of b.bin pointing at an ingestion entry.
    await a.run(0, ['withdraw', note.id, '--reason', 'court order', '--authority', 'TC-1']);
    const before = await log(a);
    const ingestion = before.findIndex((l) => l.entry.type === 'ingestion');
    expect(ingestion).toBeGreaterThan(0);
    await withIndexDb({ dir: a.dir, origin: '', verifierKey: '', env: a.env }, (sql) =>
      sql.exec('UPDATE objects SET withdrawn_seq = ? WHERE sha256 = ?', [ingestion, b.sha256]),
    );

    const r = await a.run(1, ['purge', '--withdrawn', '--json']);
    expect(r.stderr).toContain('[PURGE_WITHDRAWAL_UNPROVEN]');
    expect(r.stderr).toContain(b.sha256);
    // Nothing lost: the forged object's bytes, and the genuinely withdrawn one's too (the whole
    // purge stops), and no deletion entry was written.
    expect(existsSync(objectPath(a.dir, b.sha256))).toBe(true);
    expect(existsSync(objectPath(a.dir, note.sha256))).toBe(true);
    const after = await log(a);
    expect(after).toHaveLength(before.length);
    expect(after.filter((l) => l.entry.type === 'deletion')).toEqual([]);

    // Once the index agrees with the ledger again, the genuine withdrawal is purged, and only it.
    await withIndexDb({ dir: a.dir, origin: '', verifierKey: '', env: a.env }, (sql) =>
      sql.exec('UPDATE objects SET withdrawn_seq = NULL WHERE sha256 = ?', [b.sha256]),
    );
    const ok = JSON.parse((await a.run(0, ['purge', '--withdrawn', '--json'])).stdout) as {
      purged: { sha256: string; withdrawal_seq: number }[];
    };
    expect(ok.purged.map((p) => p.sha256)).toEqual([note.sha256]);
    expect(existsSync(objectPath(a.dir, note.sha256))).toBe(false);
    expect(existsSync(objectPath(a.dir, b.sha256))).toBe(true);
  });

  it('withdraw spreads to containers by the ledger, not the index: an edited parent_id does not withdraw its target', async () => {
    const memberOf = byName(list, 'inner/readme.txt');
    const victim = byName(list, 'photos/nested/b.bin');
    const db = { dir: a.dir, origin: '', verifierKey: '', env: a.env };
    await withIndexDb(db, (sql) => sql.exec('UPDATE items SET parent_id = ? WHERE id = ?', [victim.id, memberOf.id]));
    const w = JSON.parse(
      (await a.run(0, ['withdraw', memberOf.id, '--reason', 'court order', '--authority', 'TC-7', '--json'])).stdout,
    ) as { containers: { sha256: string }[] };
    // The ledger says the member's container is bundle.zip, whatever the index claims.
    expect(w.containers.map((c) => c.sha256)).toEqual([byName(list, 'bundle.zip').sha256]);
    expect(w.containers.map((c) => c.sha256)).not.toContain(victim.sha256);
    // An index row that places an item's ingestion at another entry (0: the creation) is refused outright.
    const other = byName(list, 'inner/data.bin');
    await withIndexDb(db, (sql) => sql.exec('UPDATE items SET seq = ? WHERE id = ?', [0, other.id]));
    const before = (await log(a)).length;
    const r = await a.run(1, ['withdraw', other.id, '--reason', 'court order', '--authority', 'TC-7']);
    expect(r.stderr).toContain('[WITHDRAW_CONTAINER_UNPROVEN]');
    expect(await log(a)).toHaveLength(before);
    await withIndexDb(db, (sql) => sql.exec('UPDATE items SET seq = ? WHERE id = ?', [other.seq, other.id]));
  });

  it('a withdrawal entry the index no longer shows is PURGE_INDEX_MISMATCH; nothing is deleted', async () => {
    const data = byName(list, 'photos/a.bin');
    const w = JSON.parse(
      (await a.run(0, ['withdraw', data.id, '--reason', 'consent withdrawn', '--authority', 'TC-2', '--json'])).stdout,
    ) as { seq: number };
    await withIndexDb({ dir: a.dir, origin: '', verifierKey: '', env: a.env }, (sql) =>
      sql.exec('UPDATE objects SET withdrawn_seq = NULL WHERE sha256 = ?', [data.sha256]),
    );
    const before = (await log(a)).length;
    const r = await a.run(1, ['purge', '--withdrawn']);
    expect(r.stderr).toContain('[PURGE_INDEX_MISMATCH]');
    expect(r.stderr).toContain(`entry ${w.seq}`);
    expect(existsSync(objectPath(a.dir, data.sha256))).toBe(true);
    expect(await log(a)).toHaveLength(before);
  });
});

describe('purge checks the checkpoint its withdrawals precede', () => {
  it('a newest checkpoint signed by another key stops the purge; nothing is deleted', async () => {
    const base = await makeTempDir('purge-checkpoint');
    await writeSourceTree(join(base, 'src'));
    const a = await newArchive(join(base, 'archive'));
    await a.run(0, ['ingest', join(base, 'src'), '--source', 'SRC-ALPHA', '--new-source']);
    const note = byName(await items(a), 'docs/note.txt');
    await a.run(0, ['withdraw', note.id, '--reason', 'court order', '--authority', 'TC-3']);
    // The insider replaces the newest checkpoint with one from another archive's key.
    const other = await newArchive(join(base, 'other'));
    const cps = join(a.dir, 'ledger', 'checkpoints');
    const newest = (await readdir(cps)).filter((n) => n.endsWith('.checkpoint')).sort().at(-1) ?? '';
    const foreign = (await readdir(join(other.dir, 'ledger', 'checkpoints'))).filter((n) => n.endsWith('.checkpoint')).sort().at(-1) ?? '';
    await writeFile(join(cps, newest), await readFile(join(other.dir, 'ledger', 'checkpoints', foreign)));
    const before = (await log(a)).length;
    const r = await a.run(1, ['purge', '--withdrawn']);
    // The ledger's own open-for-writing checks may catch it first; either way, a code and no deletion.
    expect(r.stderr).toMatch(/\[(PURGE_CHECKPOINT_INVALID|LEDGER_[A-Z_]+|CHECKPOINT_[A-Z_]+)\]/);
    expect(existsSync(objectPath(a.dir, note.sha256))).toBe(true);
    expect(await log(a)).toHaveLength(before);
  });
});

// ---------------------------------------------------------------------------------------------
// Finding 5: purged bytes survived in previews.

describe('purge removes the derived previews, and reads of a withdrawn object stop', () => {
  let base: string;
  let a: Arch;
  let pic: ItemJson;
  let other: ItemJson;
  const previewFiles = async (sha: string): Promise<string[]> => {
    const dir = join(a.dir, 'derived', 'previews', sha.slice(0, 2));
    return existsSync(dir) ? (await readdir(dir)).filter((n) => n.startsWith(sha)).sort() : [];
  };

  beforeAll(async () => {
    base = await makeTempDir('purge-previews');
    await mkdir(join(base, 'src'));
    await writeFile(join(base, 'src', 'scene.jpg'), await photo(1));
    await writeFile(join(base, 'src', 'other.jpg'), await photo(2));
    a = await newArchive(join(base, 'archive'));
    await a.run(0, ['ingest', join(base, 'src'), '--source', 'SRC-BETA', '--new-source']);
    await a.run(0, ['analyze']);
    const list = await items(a);
    pic = byName(list, 'scene.jpg');
    other = byName(list, 'other.jpg');
  });

  it('finding 5: after purge no 256 or 1280 px preview, blurred or not, remains; the deletion entry lists them', async () => {
    await a.run(0, ['preview', pic.id, '--size', '1280', '--unblurred']);
    const before = await previewFiles(pic.sha256);
    expect(before).toEqual([
      `${pic.sha256}.1280.blurred.webp`,
      `${pic.sha256}.1280.webp`,
      `${pic.sha256}.256.blurred.webp`,
      `${pic.sha256}.256.webp`,
    ]);
    await a.run(0, ['withdraw', pic.id, '--reason', 'illegal content', '--authority', 'TC-5']);
    const r = JSON.parse((await a.run(0, ['purge', '--withdrawn', '--json'])).stdout) as {
      purged: { sha256: string; seq: number; previews: { path: string; sha256: string }[] }[];
    };
    expect(r.purged.map((p) => p.sha256)).toEqual([pic.sha256]);
    expect(await previewFiles(pic.sha256)).toEqual([]);
    expect(existsSync(objectPath(a.dir, pic.sha256))).toBe(false);
    const entry = (await log(a)).find((l) => l.entry.seq === r.purged[0]?.seq)?.entry;
    const listed = (entry?.details.previews as { path: string; sha256: string }[]).map((p) => p.path.split('/').at(-1)).sort();
    expect(listed).toEqual(before);
    // The untouched image keeps its previews.
    expect(await previewFiles(other.sha256)).toHaveLength(2);
  });

  it('finding 5: preview (blurred, --unblurred, 1280) of the purged item refuses with ITEM_WITHDRAWN', async () => {
    for (const extra of [[], ['--unblurred'], ['--size', '1280', '--unblurred']]) {
      const r = await a.run(1, ['preview', pic.id, ...extra]);
      expect(r.stderr).toContain('[ITEM_WITHDRAWN]');
    }
    expect(await previewFiles(pic.sha256)).toEqual([]); // and nothing was made again
    await a.run(0, ['preview', other.id, '--unblurred']);
  });

  it('finding 5: report --include-images does not embed the purged exhibit, and still embeds the others', async () => {
    const html = join(base, 'report.html');
    await a.run(0, ['report', '--template', 'tribunal', '--out', html, '--exhibits', `${pic.id},${other.id}`, '--include-images']);
    const text = await readFile(html, 'utf8');
    const images = text.match(/data:image\/webp;base64,/g) ?? [];
    expect(images).toHaveLength(1);
    expect(text).toContain(`Exhibit E2, item ${other.id}`);
    expect(text).not.toContain(`Exhibit E1, item ${pic.id}`);
    expect(text).toContain('E1: no image shown: the object is withdrawn.');
    expect(await previewFiles(pic.sha256)).toEqual([]);
  });

  it('a withdrawal hides the extracted metadata: exif refuses, show gives no GPS or EXIF, exports leave the entry out', async () => {
    expect((await a.run(1, ['exif', pic.id])).stderr).toContain('[ITEM_WITHDRAWN]');
    const shown = JSON.parse((await a.run(0, ['show', pic.id, '--json'])).stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({ withdrawn: true, analysed: true, analysis_withheld: 'withdrawn', metadata: null, pdq: null });
    expect(JSON.stringify(shown)).not.toContain('36.20');
    const visible = JSON.parse((await a.run(0, ['show', other.id, '--json'])).stdout) as { metadata: { gps_latitude: string } };
    expect(String(visible.metadata.gps_latitude)).toContain('36.20'); // the same field, shown when not withdrawn

    const out = join(base, 'bag-full');
    await a.run(0, ['export', '--select', 'all', '--full-ledger', '--out', out]);
    const extraction = (await log(a)).find((l) => l.entry.type === 'metadata extraction' && l.entry.objects[0] === pic.sha256);
    expect(extraction).toBeDefined();
    const lines = (await readFile(join(out, 'custody', 'ledger.jsonl'), 'utf8')).split('\n').filter(Boolean);
    expect(lines.some((l) => l.includes(pic.sha256) && l.includes('"metadata extraction"'))).toBe(false);
    expect(lines.some((l) => l.includes(other.sha256) && l.includes('"metadata extraction"'))).toBe(true);
    const held = await readJson<{ seq: number; reason: string }[]>(out, 'custody/withheld-entries.json');
    expect(held.map((h) => h.seq)).toContain(extraction?.entry.seq);
  });

  it('a preview that reappears after the purge is removed by the next purge, with its own deletion entry', async () => {
    const dir = join(a.dir, 'derived', 'previews', pic.sha256.slice(0, 2));
    const otherDir = join(a.dir, 'derived', 'previews', other.sha256.slice(0, 2));
    await writeFile(join(dir, `${pic.sha256}.256.webp`), await readFile(join(otherDir, `${other.sha256}.256.webp`)));
    const r = JSON.parse((await a.run(0, ['purge', '--withdrawn', '--json'])).stdout) as {
      purged: { sha256: string; bytes_were_present: boolean; previews: { path: string }[] }[];
    };
    expect(r.purged).toMatchObject([{ sha256: pic.sha256, bytes_were_present: false }]);
    expect(r.purged[0]?.previews.map((p) => p.path)).toEqual([`derived/previews/${pic.sha256.slice(0, 2)}/${pic.sha256}.256.webp`]);
    expect(await previewFiles(pic.sha256)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Finding 4: containers bypassed withdrawal and redaction.

describe('containers: withdrawal and export', () => {
  let base: string;
  let a: Arch;
  let tree: SourceTree;
  let list: ItemJson[];
  let delivery: string;
  let zipItem: ItemJson;
  let shots: ItemJson[];
  let memo: ItemJson;
  const verifierKey = (): string => join(a.dir, 'keys', 'checkpoint-verifier.txt');

  beforeAll(async () => {
    base = await makeTempDir('purge-containers');
    tree = await writeSourceTree(join(base, 'src'));
    const album = buildZip([
      { name: 'album/shot-1.jpg', data: await photo(11) },
      { name: 'album/shot-2.jpg', data: await photo(12), method: 8 },
      { name: 'album/memo.txt', data: Buffer.from('who took these, and where\n') },
    ]);
    await writeFile(join(base, 'src', 'album.zip'), album);
    a = await newArchive(join(base, 'archive'));
    delivery = (JSON.parse((await a.run(0, ['ingest', join(base, 'src'), '--source', 'SRC-GAMMA', '--new-source', '--json'])).stdout) as { delivery: string }).delivery;
    await a.run(0, ['analyze']);
    list = await items(a);
    zipItem = byName(list, 'album.zip');
    shots = [byName(list, 'album/shot-1.jpg'), byName(list, 'album/shot-2.jpg')];
    memo = byName(list, 'album/memo.txt');
    expect(shots.map((s) => s.parent)).toEqual([zipItem.id, zipItem.id]);
  });

  it('finding 4a: --redact --blur-images withholds a ZIP whose image members were blurred; no unblurred original leaves', async () => {
    const out = join(base, 'bag-blurred');
    const r = JSON.parse(
      (await a.run(0, ['export', '--select', `delivery:${delivery}`, '--redact', '--blur-images', '--out', out, '--json'])).stdout,
    ) as { withheld: WithheldJson[]; substituted: { item: string }[] };
    expect(r.substituted.map((s) => s.item).sort()).toEqual(shots.map((s) => s.id).sort());
    const held = (await readJson<WithheldJson[]>(out, 'custody/withheld.json')).find((w) => w.item_id === zipItem.id);
    expect(held).toMatchObject({ kind: 'withheld', substitute: null, sha256: zipItem.sha256 });
    expect(held?.reason).toMatch(/blurred/);
    // Neither the container nor any original image is anywhere in the bag.
    expect(await filesWithDigests(out, [zipItem.sha256, ...shots.map((s) => s.sha256)])).toEqual([]);
    expect((await readdir(join(out, 'data', 'items'))).some((n) => n.startsWith(zipItem.id))).toBe(false);
    await a.run(0, ['verify-export', out, '--key', verifierKey()]);
  });

  it('a container whose members all travel as themselves is exported bit for bit (the rule is not vacuous)', async () => {
    const out = join(base, 'bag-plain');
    await a.run(0, ['export', '--select', `delivery:${delivery}`, '--out', out]);
    expect(await filesWithDigests(out, [zipItem.sha256])).toEqual([`data/items/${zipItem.id}-album.zip`]);
    const bundle = byName(list, 'bundle.zip');
    expect(await filesWithDigests(out, [bundle.sha256])).toHaveLength(1);
  });

  it('a container selected without all its members is withheld, with the reason', async () => {
    const out = join(base, 'bag-partial');
    await a.run(0, ['export', '--select', `items:${zipItem.id},${memo.id}`, '--out', out]);
    const held = (await readJson<WithheldJson[]>(out, 'custody/withheld.json')).find((w) => w.item_id === zipItem.id);
    expect(held?.reason).toMatch(/not selected/);
    expect(await filesWithDigests(out, [zipItem.sha256, ...shots.map((s) => s.sha256)])).toEqual([]);
    expect(await filesWithDigests(out, [memo.sha256])).toHaveLength(1);
  });

  it('finding 4b: withdrawing a member withdraws its container; purge removes both; neither travels in an export', async () => {
    const shot = shots[0] as ItemJson;
    const w = JSON.parse(
      (await a.run(0, ['withdraw', shot.id, '--reason', 'consent withdrawn', '--authority', 'TC-4', '--json'])).stdout,
    ) as { seq: number; containers: { seq: number; sha256: string; items: string[] }[] };
    expect(w.containers).toEqual([{ seq: w.seq + 1, sha256: zipItem.sha256, items: [zipItem.id] }]);
    const entry = (await log(a)).find((l) => l.entry.seq === w.seq + 1)?.entry;
    expect(entry).toMatchObject({ type: 'withdrawal', objects: [zipItem.sha256], details: { contains: shot.sha256, authority: 'TC-4' } });

    const p = JSON.parse((await a.run(0, ['purge', '--withdrawn', '--json'])).stdout) as { purged: { sha256: string }[] };
    expect(p.purged.map((x) => x.sha256).sort()).toEqual([shot.sha256, zipItem.sha256].sort());
    expect(existsSync(objectPath(a.dir, shot.sha256))).toBe(false);
    expect(existsSync(objectPath(a.dir, zipItem.sha256))).toBe(false);
    // The other members are objects of their own and stay.
    expect(existsSync(objectPath(a.dir, (shots[1] as ItemJson).sha256))).toBe(true);
    expect(existsSync(objectPath(a.dir, memo.sha256))).toBe(true);

    const out = join(base, 'bag-after-withdrawal');
    await a.run(0, ['export', '--select', 'all', '--out', out]);
    const held = await readJson<WithheldJson[]>(out, 'custody/withheld.json');
    expect(held.filter((h) => h.kind === 'withdrawn').map((h) => h.item_id).sort()).toEqual([shot.id, zipItem.id].sort());
    expect(await filesWithDigests(out, [zipItem.sha256, shot.sha256])).toEqual([]);
    await a.run(0, ['verify-export', out, '--key', verifierKey()]);
    const v = JSON.parse((await a.run(0, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string }[] };
    expect(v.findings.filter((f) => f.code === 'STORE_OBJECT_WITHDRAWN').map((f) => f.subject).sort()).toEqual([shot.sha256, zipItem.sha256].sort());
  });

  it('finding 4b: withdrawn bytes that arrive again inside a new ZIP: the ZIP is withheld from exports and purge leaves the member until the ZIP is withdrawn', async () => {
    const note = tree.files.get('docs/note.txt') ?? Buffer.alloc(0);
    const noteItem = byName(list, 'docs/note.txt');
    await a.run(0, ['withdraw', noteItem.id, '--reason', 'court order', '--authority', 'TC-6']);
    await a.run(0, ['purge', '--withdrawn']);
    const again = join(base, 'again');
    await mkdir(again);
    await writeFile(join(again, 'resent.zip'), buildZip([{ name: 'note.txt', data: note }, { name: 'other.txt', data: Buffer.from('fresh\n') }]));
    const second = (JSON.parse((await a.run(1, ['ingest', again, '--source', 'SRC-GAMMA', '--new-source', '--json'])).stdout) as { delivery: string }).delivery;
    const resent = byName(await items(a), 'resent.zip');
    expect(existsSync(objectPath(a.dir, noteItem.sha256))).toBe(true); // the bytes are back, extracted

    const out = join(base, 'bag-resent');
    await a.run(0, ['export', '--select', `delivery:${second}`, '--out', out]);
    const held = (await readJson<WithheldJson[]>(out, 'custody/withheld.json')).find((h) => h.item_id === resent.id);
    expect(held).toMatchObject({ kind: 'withheld' });
    expect(held?.reason).toMatch(/withdrawn/);
    expect(await filesWithDigests(out, [resent.sha256, noteItem.sha256])).toEqual([]);

    const refused = await a.run(1, ['purge', '--withdrawn', '--json']);
    expect(refused.stderr).toContain('[PURGE_CONTAINER_NOT_WITHDRAWN]');
    const r = JSON.parse(refused.stdout) as { refused: { sha256: string; containers: string[] }[] };
    expect(r.refused).toMatchObject([{ sha256: noteItem.sha256, containers: [resent.sha256] }]);
    expect(existsSync(objectPath(a.dir, resent.sha256))).toBe(true);

    await a.run(0, ['withdraw', resent.id, '--reason', 'holds withdrawn content', '--authority', 'TC-6']);
    await a.run(0, ['purge', '--withdrawn']);
    expect(existsSync(objectPath(a.dir, noteItem.sha256))).toBe(false);
    expect(existsSync(objectPath(a.dir, resent.sha256))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Findings 10d and 12f: where an export writes.

describe('export target safety', () => {
  let base: string;
  let a: Arch;

  beforeAll(async () => {
    base = await makeTempDir('export-target');
    await writeSourceTree(join(base, 'src'));
    a = await newArchive(join(base, 'archive'));
    await a.run(0, ['ingest', join(base, 'src'), '--source', 'SRC-DELTA', '--new-source']);
  });

  it('finding 10d: export --out inside the archive is EXPORT_OUT_INSIDE_ARCHIVE (exit 2), and nothing is created', async () => {
    const before = (await readTree(a.dir)).size;
    for (const out of [join(a.dir, 'exports', 'bag'), join(a.dir, 'derived', 'bag.zip'), a.dir]) {
      const r = await a.run(2, ['export', '--select', 'all', '--out', out]);
      expect(r.stderr).toContain('[EXPORT_OUT_INSIDE_ARCHIVE]');
    }
    expect(existsSync(join(a.dir, 'exports'))).toBe(false);
    expect((await readTree(a.dir)).size).toBe(before);
  });

  it('finding 10d: a symbolic link that points into the archive counts as inside', async () => {
    const link = join(base, 'usb');
    await symlink(join(a.dir, 'ledger'), link);
    const r = await a.run(2, ['export', '--select', 'all', '--out', join(link, 'bag')]);
    expect(r.stderr).toContain('[EXPORT_OUT_INSIDE_ARCHIVE]');
    // The kernel follows the link before `..` (path.join would fold it by text, outside).
    const viaParent = await a.run(2, ['export', '--select', 'all', '--out', `${link}/../sub/bag`]);
    expect(viaParent.stderr).toContain('[EXPORT_OUT_INSIDE_ARCHIVE]');
    expect((await readdir(join(a.dir, 'ledger'))).filter((n) => n.includes('bag'))).toEqual([]);
  });

  it('finding 12f: a killed export leaves a .partial- copy; the next export to that target removes it and says so', async () => {
    const target = join(base, 'medium');
    await mkdir(target);
    const out = join(target, 'bag');
    const killed = await custody(['export', '--select', 'all', '--out', out, '--archive', a.dir], {
      ...CLEAN_ENV,
      ...a.env,
      CUSTODY_TEST_CRASH_AT: 'export-payload-written',
    });
    expect(killed.signal).toBe('SIGKILL');
    const left = (await readdir(target)).filter((n) => n.startsWith('.bag.partial-'));
    expect(left).toHaveLength(1);
    expect((await readTree(join(target, left[0] ?? ''))).size).toBeGreaterThan(0); // evidence copies

    const r = await a.run(0, ['export', '--select', 'all', '--out', out, '--json']);
    const json = JSON.parse(r.stdout) as { partials_removed: string[] };
    expect(json.partials_removed).toEqual([join(target, left[0] ?? '')]);
    expect(r.stderr).toContain(`removed ${join(target, left[0] ?? '')}`);
    expect(await readdir(target)).toEqual(['bag', 'bag.receipt.json']); // the bag and its receipt, nothing else
  });
});
