// Intake against a hostile delivery (issue 9, findings 1 and 11): links that point at secrets,
// the archive's own key by link and by hard link, the archive ingested into itself, special files,
// a folder swapped for a link between the walk and the read, a PNG that declares 16000×16000
// pixels, and a small ZIP that expands a thousandfold. Each test reproduces one attack and asserts
// its code and that nothing was read, stored or leaked.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, link, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createDeflate, crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CopyInPool } from '../../src/ingest/copy-in.adapter.js';
import {
  custodyExpect,
  custodyIn,
  custodyInExpect,
  type ItemJson,
  type LogLine,
  sha256Hex,
} from '../support/archive-fixtures.js';
import { buildZip, deflateZeros } from '../support/make-zips.js';
import { makeTempDir } from '../support/tmp.js';

const MiB = 1024 ** 2;
const PASSPHRASE = `pass-${randomBytes(12).toString('hex')}`;
const SOURCES_SECRET = `sources-${randomBytes(12).toString('hex')}`;

interface Problem {
  code: string;
  path: string;
  item: string | null;
}
interface IngestOut {
  delivery: string;
  summary: { items_added: number; members_added: number; objects_added: number; problems: number; by_code: Record<string, number> };
  problems: Problem[];
}

/** One archive (passphrase-protected, SQLite) initialised for the file; each test copies it. */
let template: Promise<string> | undefined;
function templateArchive(): Promise<string> {
  template ??= (async () => {
    const archive = join(await makeTempDir('hostile-template'), 'archive');
    await custodyInExpect(0, ['init'], { CUSTODY_ARCHIVE: archive, CUSTODY_KEY_PASSPHRASE: PASSPHRASE });
    return archive;
  })();
  return template;
}

/** A fresh archive (passphrase-protected; a copy of the file's template) and an empty delivery folder beside it. */
async function setUp(prefix: string): Promise<{ base: string; archive: string; delivery: string; env: Record<string, string> }> {
  const base = await makeTempDir(prefix);
  const archive = join(base, 'archive');
  const delivery = join(base, 'delivery');
  await mkdir(delivery);
  await cp(await templateArchive(), archive, { recursive: true, preserveTimestamps: true });
  const env = { CUSTODY_ARCHIVE: archive, CUSTODY_KEY_PASSPHRASE: PASSPHRASE };
  return { base, archive, delivery, env };
}

async function ingestIn(code: number, paths: string[], env: Record<string, string>, extra: string[] = []): Promise<IngestOut> {
  const r = await custodyInExpect(code, ['ingest', ...paths, '--source', 'SRC-HOSTILE', '--new-source', '--json', ...extra], env);
  return JSON.parse(r.stdout) as IngestOut;
}

async function items(env: Record<string, string>): Promise<ItemJson[]> {
  return JSON.parse((await custodyInExpect(0, ['items', '--json'], env)).stdout) as ItemJson[];
}

async function log(env: Record<string, string>): Promise<LogLine[]> {
  const out = (await custodyInExpect(0, ['log', '--json'], env)).stdout;
  return out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogLine);
}

/** Every regular file under `dir` (the whole archive: objects, ledger, index, checkpoints). */
async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

async function objectFiles(archive: string): Promise<string[]> {
  return (await allFiles(join(archive, 'objects', 'sha256'))).filter((p) => /[0-9a-f]{64}$/.test(p));
}

/** Fails unless no file of the archive (but the key itself, where `except` names it) holds `needle`. */
async function expectNowhereIn(archive: string, needle: Buffer, except: string[] = []): Promise<void> {
  for (const f of await allFiles(archive)) {
    if (except.includes(f)) continue;
    expect((await readFile(f)).includes(needle), `${f} holds the secret`).toBe(false);
  }
}

function problemsAt(out: IngestOut, code: string, suffix: string): Problem[] {
  return out.problems.filter((p) => p.code === code && p.path.endsWith(suffix));
}

describe('links are never followed', () => {
  it('DCIM/IMG_0100.JPG -> /proc/self/environ is kept as a link item; the environment (passphrases) is stored nowhere', async () => {
    const { archive, delivery, env } = await setUp('hostile-environ');
    await mkdir(join(delivery, 'DCIM'));
    await writeFile(join(delivery, 'DCIM', 'IMG_0099.JPG'), randomBytes(2000));
    await symlink('/proc/self/environ', join(delivery, 'DCIM', 'IMG_0100.JPG'));
    // A subprocess: its /proc/self/environ holds exactly these secrets, as in the attack.
    const secrets = { ...env, CUSTODY_SOURCES_PASSPHRASE: SOURCES_SECRET };
    const r = await custodyExpect(1, ['ingest', delivery, '--source', 'SRC-HOSTILE', '--new-source', '--json'], secrets);
    const out = JSON.parse(r.stdout) as IngestOut;
    expect(out.summary.by_code).toEqual({ INGEST_SYMLINK_NOT_FOLLOWED: 1 });
    const [p] = problemsAt(out, 'INGEST_SYMLINK_NOT_FOLLOWED', 'DCIM/IMG_0100.JPG');
    expect(p?.item).not.toBeNull();

    const all = await items(env);
    const linkItem = all.find((i) => i.relative_path === 'DCIM/IMG_0100.JPG');
    expect(linkItem?.media_type).toBe('inode/symlink');
    expect(linkItem?.flags).toContain('symlink');
    expect(linkItem?.sha256).toBe(sha256Hex(Buffer.from('/proc/self/environ')));
    const entry = (await log(env)).find((l) => l.entry.type === 'ingestion' && l.entry.items[0] === linkItem?.id);
    expect(entry?.entry.details.link_target).toBe('/proc/self/environ');

    await expectNowhereIn(archive, Buffer.from(PASSPHRASE));
    await expectNowhereIn(archive, Buffer.from(SOURCES_SECRET));
    await expectNowhereIn(archive, Buffer.from(`CUSTODY_KEY_PASSPHRASE=`));
    // Nothing lost: the real photo beside it is in, bit for bit.
    expect(all.find((i) => i.relative_path === 'DCIM/IMG_0099.JPG')).toBeDefined();
  });

  it("a link to the archive's own signing key is kept as a link item; the key's bytes enter no object", async () => {
    const { archive, delivery, env } = await setUp('hostile-key-link');
    const key = join(archive, 'keys', 'checkpoint-signing.pem');
    await symlink(key, join(delivery, 'key.pem'));
    const out = await ingestIn(1, [delivery], env);
    expect(out.summary.by_code).toEqual({ INGEST_SYMLINK_NOT_FOLLOWED: 1 });
    const linkItem = (await items(env)).find((i) => i.relative_path === 'key.pem');
    expect(linkItem?.media_type).toBe('inode/symlink');
    expect(linkItem?.sha256).toBe(sha256Hex(Buffer.from(key)));
    const keyBytes = await readFile(key);
    for (const o of await objectFiles(archive)) expect((await readFile(o)).includes(keyBytes)).toBe(false);
    await expectNowhereIn(archive, keyBytes, [key]);
  });

  it('a folder that is a link (DCIM -> a folder outside the delivery) is not walked into', async () => {
    const { base, archive, delivery, env } = await setUp('hostile-dir-link');
    const outside = join(base, 'outside');
    await mkdir(outside);
    const secret = Buffer.from(`not delivered ${randomBytes(16).toString('hex')}`);
    await writeFile(join(outside, 'private.txt'), secret);
    await symlink(outside, join(delivery, 'DCIM'));
    const out = await ingestIn(1, [delivery], env);
    expect(out.summary.by_code).toEqual({ INGEST_SYMLINK_NOT_FOLLOWED: 1 });
    const all = await items(env);
    expect(all.map((i) => i.relative_path)).toEqual(['DCIM']);
    expect(all[0]?.media_type).toBe('inode/symlink');
    await expectNowhereIn(archive, secret);
  });

  it('a root named on the command line that is a link is recorded as a link, not followed', async () => {
    const { base, archive, env } = await setUp('hostile-root-link');
    const secret = Buffer.from(`outside ${randomBytes(16).toString('hex')}`);
    await writeFile(join(base, 'secret.txt'), secret);
    await symlink(join(base, 'secret.txt'), join(base, 'card'));
    const out = await ingestIn(1, [join(base, 'card')], env);
    expect(out.summary.by_code).toEqual({ INGEST_SYMLINK_NOT_FOLLOWED: 1 });
    await expectNowhereIn(archive, secret);
  });
});

describe("the archive's own files are refused", () => {
  it('a hard link to the signing key inside a delivery → INGEST_ARCHIVE_FILE, by device and inode', async () => {
    const { archive, delivery, env } = await setUp('hostile-key-hardlink');
    const key = join(archive, 'keys', 'checkpoint-signing.pem');
    await link(key, join(delivery, 'IMG_0001.JPG'));
    await writeFile(join(delivery, 'IMG_0002.JPG'), randomBytes(1000));
    const out = await ingestIn(1, [delivery], env);
    expect(out.summary.by_code).toEqual({ INGEST_ARCHIVE_FILE: 1 });
    expect(problemsAt(out, 'INGEST_ARCHIVE_FILE', '/IMG_0001.JPG')).toHaveLength(1);
    expect((await items(env)).map((i) => i.relative_path)).toEqual(['IMG_0002.JPG']);
    await expectNowhereIn(archive, await readFile(key), [key]);
  });

  it('a hard link to a stored object inside a delivery → INGEST_ARCHIVE_FILE', async () => {
    const { base, archive, delivery, env } = await setUp('hostile-object-hardlink');
    const first = join(base, 'first');
    await mkdir(first);
    await writeFile(join(first, 'a.bin'), randomBytes(3000));
    await ingestIn(0, [first], env);
    const [object] = await objectFiles(archive);
    await link(object ?? '', join(delivery, 'copy.bin'));
    const out = await ingestIn(1, [delivery], env);
    expect(out.summary.by_code).toEqual({ INGEST_ARCHIVE_FILE: 1 });
  });

  it('custody ingest <the archive itself> → INGEST_ARCHIVE_PATH, nothing written', async () => {
    const { archive, env } = await setUp('hostile-self');
    const before = await readFile(join(archive, 'ledger', 'entries.jsonl'));
    const r = await custodyInExpect(1, ['ingest', archive, '--source', 'SRC-HOSTILE', '--new-source'], env);
    expect(r.stderr).toContain('[INGEST_ARCHIVE_PATH]');
    expect((await readFile(join(archive, 'ledger', 'entries.jsonl'))).equals(before)).toBe(true);
    expect(await objectFiles(archive)).toEqual([]);
  });

  it('custody ingest <a folder inside the archive> (keys/) → INGEST_ARCHIVE_PATH, nothing written', async () => {
    const { archive, env } = await setUp('hostile-inside');
    const before = await readFile(join(archive, 'ledger', 'entries.jsonl'));
    const r = await custodyInExpect(1, ['ingest', join(archive, 'keys'), '--source', 'SRC-HOSTILE', '--new-source'], env);
    expect(r.stderr).toContain('[INGEST_ARCHIVE_PATH]');
    const r2 = await custodyInExpect(1, ['ingest', join(archive, 'keys', 'checkpoint-signing.pem'), '--source', 'SRC-HOSTILE', '--new-source'], env);
    expect(r2.stderr).toContain('[INGEST_ARCHIVE_PATH]');
    expect((await readFile(join(archive, 'ledger', 'entries.jsonl'))).equals(before)).toBe(true);
    expect(await objectFiles(archive)).toEqual([]);
  });

  it('a delivery that contains the archive → INGEST_DELIVERY_CONTAINS_ARCHIVE, nothing written', async () => {
    const { base, archive, env } = await setUp('hostile-contains');
    const before = await readFile(join(archive, 'ledger', 'entries.jsonl'));
    const r = await custodyInExpect(1, ['ingest', base, '--source', 'SRC-HOSTILE', '--new-source'], env);
    expect(r.stderr).toContain('[INGEST_DELIVERY_CONTAINS_ARCHIVE]');
    expect((await readFile(join(archive, 'ledger', 'entries.jsonl'))).equals(before)).toBe(true);
    expect(await objectFiles(archive)).toEqual([]);
  });

  it('a --manifest that is a hard link to the key → INGEST_ARCHIVE_FILE, nothing stored', async () => {
    const { archive, delivery, env } = await setUp('hostile-manifest');
    const key = join(archive, 'keys', 'checkpoint-signing.pem');
    await writeFile(join(delivery, 'a.txt'), 'a');
    await link(key, join(delivery, '..', 'manifest.sha256'));
    const r = await custodyInExpect(1, ['ingest', delivery, '--source', 'S', '--new-source', '--manifest', join(delivery, '..', 'manifest.sha256')], env);
    expect(r.stderr).toContain('[INGEST_ARCHIVE_FILE]');
    expect(await objectFiles(archive)).toEqual([]);
  });
});

describe('special files and pseudo file systems', () => {
  let server: Server | null = null;
  afterAll(() => server?.close());

  it('a FIFO and a socket in a delivery are refused (INGEST_NOT_REGULAR_FILE) without hanging; the rest goes in', async () => {
    const { delivery, env } = await setUp('hostile-special');
    const fifo = spawnSync('mkfifo', [join(delivery, 'IMG_0001.JPG')], { encoding: 'utf8' });
    expect(fifo.status, fifo.stderr).toBe(0);
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(join(delivery, 'IMG_0002.JPG'), resolve));
    await writeFile(join(delivery, 'IMG_0003.JPG'), randomBytes(500));
    const out = await ingestIn(1, [delivery], env);
    expect(out.summary.by_code).toEqual({ INGEST_NOT_REGULAR_FILE: 2 });
    expect(problemsAt(out, 'INGEST_NOT_REGULAR_FILE', '/IMG_0001.JPG')).toHaveLength(1);
    expect(problemsAt(out, 'INGEST_NOT_REGULAR_FILE', '/IMG_0002.JPG')).toHaveLength(1);
    expect((await items(env)).map((i) => i.relative_path)).toEqual(['IMG_0003.JPG']);
  });

  it('/proc/self/environ named on the command line → INGEST_PSEUDO_FILESYSTEM, not read', async () => {
    const { archive, env } = await setUp('hostile-procfs');
    const out = await ingestIn(1, ['/proc/self/environ'], env);
    expect(out.summary.by_code).toEqual({ INGEST_PSEUDO_FILESYSTEM: 1 });
    expect(await objectFiles(archive)).toEqual([]);
  });

  it.skipIf(!existsSync('/sys/kernel/mm'))('a /sys folder named on the command line → INGEST_PSEUDO_FILESYSTEM', async () => {
    const { env } = await setUp('hostile-sysfs');
    const out = await ingestIn(1, ['/sys/kernel/mm'], env);
    expect(out.summary.by_code).toEqual({ INGEST_PSEUDO_FILESYSTEM: 1 });
  });
});

describe('reads are bound to the file the walk saw', () => {
  const pool = new CopyInPool(1);
  afterAll(() => pool.close());

  /** a/b/photo.jpg, its identity, and a look-alike tree elsewhere holding a secret at the same relative path. */
  async function swapSetUp(): Promise<{ dir: string; path: Buffer; identity: { dev: bigint; ino: bigint }; secret: Buffer }> {
    const dir = await makeTempDir('hostile-swap');
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await writeFile(join(dir, 'a', 'b', 'photo.jpg'), randomBytes(100));
    const { lstat } = await import('node:fs/promises');
    const st = await lstat(join(dir, 'a', 'b', 'photo.jpg'), { bigint: true });
    const secret = Buffer.from(`secret ${randomBytes(8).toString('hex')}`);
    await mkdir(join(dir, 'elsewhere', 'b'), { recursive: true });
    await writeFile(join(dir, 'elsewhere', 'b', 'photo.jpg'), secret);
    return { dir, path: Buffer.from(join(dir, 'a', 'b', 'photo.jpg')), identity: { dev: st.dev, ino: st.ino }, secret };
  }

  it('an intermediate folder swapped for a link after the walk → SOURCE_REPLACED (the worker copy, and the worker hash of a file already received)', async () => {
    const { dir, path, identity } = await swapSetUp();
    await rename(join(dir, 'a'), join(dir, 'a-moved'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'a')); // O_NOFOLLOW alone would pass this
    await expect(pool.copy(path, join(dir, 'tmp-1'), identity)).rejects.toMatchObject({ code: 'SOURCE_REPLACED' });
    await expect(pool.hash(path, identity)).rejects.toMatchObject({ code: 'SOURCE_REPLACED' });
    await expect(readFile(join(dir, 'tmp-1'))).rejects.toMatchObject({ code: 'ENOENT' }); // nothing written
  });

  it('the file itself swapped for a link after the walk → SOURCE_REPLACED', async () => {
    const { dir, path, identity } = await swapSetUp();
    await rm(path);
    await symlink(join(dir, 'elsewhere', 'b', 'photo.jpg'), path);
    await expect(pool.copy(path, join(dir, 'tmp-2'), identity)).rejects.toMatchObject({ code: 'SOURCE_REPLACED' });
    await expect(pool.hash(path, identity)).rejects.toMatchObject({ code: 'SOURCE_REPLACED' });
  });

  it('the file swapped for a FIFO after the walk → refused at once, no hang', async () => {
    const { path, identity, dir } = await swapSetUp();
    await rm(path);
    expect(spawnSync('mkfifo', [path.toString()]).status).toBe(0);
    // The FIFO may even get the freed inode number back: then it is refused as not regular.
    const codeOf = (p: Promise<unknown>): Promise<unknown> => p.then(() => 'read', (e: unknown) => (e as { code?: unknown }).code);
    expect(await codeOf(pool.copy(path, join(dir, 'tmp-3'), identity))).toMatch(/^SOURCE_(REPLACED|NOT_REGULAR)$/);
    expect(await codeOf(pool.hash(path, identity))).toMatch(/^SOURCE_(REPLACED|NOT_REGULAR)$/);
  });
});

/**
 * The PNG of the finding: 16000×16000 RGB of zeros, 746 KB, whose full decode needs 768 MB for
 * the pixels alone. Streamed through deflate one row at a time, so the test never holds them.
 */
async function pngBomb(width = 16000, height = 16000): Promise<Buffer> {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour (PNG §11.2.2)
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(1 + width * 3);
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await ended;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}

describe('resource limits', () => {
  it('the PNG bomb (746 KB declaring 16000×16000) is not decoded: IMAGE_PIXEL_LIMIT in the analysis entry, size and metadata kept', async () => {
    const { archive, delivery, env } = await setUp('hostile-png-bomb');
    const bomb = await pngBomb();
    expect(bomb.length).toBeLessThan(800_000);
    await writeFile(join(delivery, 'IMG_0001.PNG'), bomb);
    await ingestIn(0, [delivery], env);
    const rssBefore = process.memoryUsage().rss;
    const r = await custodyInExpect(0, ['analyze', '--json'], env);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 1, failed: [] });
    // Generous bound, not a timing: a full decode would add 768 MB of pixels alone.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * MiB);
    const entry = (await log(env)).find((l) => l.entry.type === 'metadata extraction');
    const d = entry?.entry.details as { codes: string[]; pixel_limit: number; dimensions: unknown; pdq: unknown; exif: unknown };
    expect(d.codes).toEqual(['IMAGE_PIXEL_LIMIT']);
    expect(d.pixel_limit).toBe(100_000_000);
    expect(d.dimensions).toEqual({ width: 16000, height: 16000 });
    expect(d.pdq).toBeNull();
    expect(d.exif).not.toBeNull(); // metadata extraction still ran
    const previews = join(archive, 'derived', 'previews');
    expect(await allFiles(previews).catch(() => [])).toEqual([]);
  }, 60_000);

  it('the pixel limit is configurable (--max-image-pixels, CUSTODY_IMAGE_MAX_PIXELS) and recorded', async () => {
    const { base, env } = await setUp('hostile-pixel-limit');
    const small = await pngBomb(300, 200); // 60,000 pixels
    await writeFile(join(base, 'delivery', 'small.png'), small);
    await ingestIn(0, [join(base, 'delivery')], env);
    await custodyInExpect(0, ['analyze', '--max-image-pixels', '50000'], env);
    const d = (await log(env)).find((l) => l.entry.type === 'metadata extraction')?.entry.details as { codes: string[]; pixel_limit: number };
    expect(d).toMatchObject({ codes: ['IMAGE_PIXEL_LIMIT'], pixel_limit: 50_000 });
    const bad = await custodyIn(['analyze'], { ...env, CUSTODY_IMAGE_MAX_PIXELS: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('[CONFIG_INVALID]');
  });

  it('a 1.2 MB ZIP of 20 × 60 MB members is kept whole, not extracted: INGEST_ZIP_EXPANSION_LIMIT', async () => {
    const { archive, delivery, env } = await setUp('hostile-zip-expansion');
    const zeros = await deflateZeros(60 * 1000 * 1000);
    const zip = buildZip(
      Array.from({ length: 20 }, (_, i) => ({
        name: `video-${String(i).padStart(2, '0')}.mp4`,
        method: 8,
        compressed: zeros.compressed,
        crc32: zeros.crc,
        uncompressedSize: 60 * 1000 * 1000,
      })),
    );
    expect(zip.length).toBeLessThan(1.3 * 1000 * 1000);
    await writeFile(join(delivery, 'videos.zip'), zip);
    const out = await ingestIn(1, [delivery], env);
    expect(out.summary.by_code).toEqual({ INGEST_ZIP_EXPANSION_LIMIT: 1 });
    expect(problemsAt(out, 'INGEST_ZIP_EXPANSION_LIMIT', 'videos.zip')[0]?.item).not.toBeNull();
    expect(out.summary.members_added).toBe(0);
    // The container is an item, bit for bit; nothing of its members was stored.
    const all = await items(env);
    expect(all.map((i) => [i.relative_path, i.sha256])).toEqual([['videos.zip', sha256Hex(zip)]]);
    expect(await objectFiles(archive)).toHaveLength(1);
    const start = (await log(env)).find((l) => l.entry.type === 'ingestion start');
    expect(start?.entry.details.zip_expansion).toMatchObject({ allowed: false, max_ratio: 100, max_bytes: 2 * 1024 ** 3 });
  }, 60_000);

  it('ingest --allow-zip-expansion extracts such a ZIP, and the ingestion start entry records the override', async () => {
    const { archive, delivery, env } = await setUp('hostile-zip-override');
    const size = 40 * MiB; // 80 MiB from ~80 KB: above the 64 MiB floor and 100×
    const zeros = await deflateZeros(size);
    const spec = (name: string) => ({ name, method: 8, compressed: zeros.compressed, crc32: zeros.crc, uncompressedSize: size });
    const zip = buildZip([spec('one.bin'), spec('two.bin')]);
    await writeFile(join(delivery, 'big.zip'), zip);
    const refused = await ingestIn(1, [delivery], env);
    expect(refused.summary.by_code).toEqual({ INGEST_ZIP_EXPANSION_LIMIT: 1 });
    expect(await objectFiles(archive)).toHaveLength(1);

    const out = await ingestIn(0, [delivery], env, ['--allow-zip-expansion', '--delivery', refused.delivery]);
    expect(out.summary.members_added).toBe(2);
    const starts = (await log(env)).filter((l) => l.entry.type === 'ingestion start');
    expect(starts.map((s) => (s.entry.details.zip_expansion as { allowed: boolean }).allowed)).toEqual([false, true]);
  }, 60_000);
});

