// Working by file name (issue 10): a subject sheet names photographs by item id, SHA-256 or path
// in a delivery; an ambiguous path is refused naming every candidate, and nothing is written;
// suggestions are applied in one batch; `items --format csv` lists file names beside subjects.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/csv.js';
import { custodyIn } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

interface Item {
  id: string;
  delivery: string;
  relative_path: string;
  sha256: string;
}

async function photo(seed: number, quality: number): Promise<Buffer> {
  const width = 160;
  const height = 120;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = Math.floor(x / 20) * 7 + Math.floor(y / 20) * 13 + seed * 31;
      const on = (block * 2654435761) % 97 > 48;
      raw[i] = on ? 230 : 20;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = on ? 40 : 200;
    }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
}

describe('subjects by file name', () => {
  let dir: string;
  let env: Record<string, string>;
  let items: Item[] = [];
  const cli = (...args: string[]) => custodyIn(args, env);
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const at = (d: number, path: string) => {
    const deliveries = [...new Set(items.map((i) => i.delivery))];
    const found = items.find((i) => i.delivery === deliveries[d] && i.relative_path.endsWith(path));
    if (found === undefined) throw new Error(`no item ${path} in delivery ${d}`);
    return found;
  };

  beforeAll(async () => {
    dir = await makeTempDir('custody-by-name');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    await ok('init');
    for (const [n, name] of [[1, 'usb1'], [2, 'usb2']] as const) {
      const root = join(dir, name);
      await mkdir(join(root, 'cards'), { recursive: true });
      await writeFile(join(root, 'cards', 'same-name.jpg'), await photo(n * 7, 90));
      await writeFile(join(root, 'cards', `only-${name}.jpg`), await photo(n * 11, 90));
      if (n === 1) await writeFile(join(root, 'cards', 'recompressed.jpg'), await photo(n * 11, 55));
      await ok('ingest', root, '--source', 'KITE', '--new-source', '--analyze');
    }
    items = JSON.parse((await ok('items', '--json')).stdout) as Item[];
  });

  it('refuses an ambiguous path naming every candidate, and imports nothing', async () => {
    const only1 = at(0, 'only-usb1.jpg');
    await writeFile(join(dir, 'bad.csv'), `number,items\n,${only1.relative_path}\n,${at(0, 'same-name.jpg').relative_path}\n`);
    const r = await cli('subject', 'import', join(dir, 'bad.csv'), '--reason', 'sheet 1');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SUBJECT_IMPORT_REJECTED]');
    expect(r.stderr).toMatch(/row 3, items: .*ambiguous/);
    for (const i of items.filter((x) => x.relative_path.endsWith('same-name.jpg')))
      expect(r.stderr).toContain(`${i.delivery}:${i.relative_path}`);
    expect(JSON.parse((await ok('subject', 'list', '--json')).stdout)).toEqual([]);
  });

  it('links by delivery:path, by a path only one delivery has, by digest and by id', async () => {
    const a = at(0, 'same-name.jpg');
    const b = at(1, 'same-name.jpg');
    const c = at(1, 'only-usb2.jpg');
    const d = at(0, 'only-usb1.jpg');
    await writeFile(
      join(dir, 'good.csv'),
      `number,items\n,${a.delivery}:${a.relative_path}\n,${c.relative_path};${b.sha256}\n,${d.id}\n`,
    );
    const r = JSON.parse((await ok('subject', 'import', join(dir, 'good.csv'), '--reason', 'sheet 1', '--json')).stdout) as { ids: string[] };
    expect(r.ids).toHaveLength(3);
    const exported = JSON.parse((await ok('subject', 'export', '--format', 'json')).stdout) as { id: string; items: string[] }[];
    const itemsOf = (id: string) => exported.find((s) => s.id === id)?.items.sort();
    expect(itemsOf(r.ids[0] ?? '')).toEqual([a.id]);
    expect(itemsOf(r.ids[1] ?? '')).toEqual([b.id, c.id].sort());
    expect(itemsOf(r.ids[2] ?? '')).toEqual([d.id]);
  });

  it('lists items as formula-safe CSV with file name, subject and metadata', async () => {
    const csv = (await ok('items', '--format', 'csv', '--with-metadata')).stdout;
    const rows = parseCsv(csv, (m) => new Error(m)).map((r) => r.cells);
    const header = rows[0] ?? [];
    for (const col of ['file', 'delivery', 'subject', 'number', 'make', 'date_time_original', 'pdq', 'cluster']) expect(header).toContain(col);
    const d = at(0, 'only-usb1.jpg');
    const row = rows.find((r) => r[0] === d.id) ?? [];
    expect(row[header.indexOf('file')]).toBe('only-usb1.jpg');
    expect(row[header.indexOf('subject')]).not.toBe('');
    expect(row[header.indexOf('pdq')]).toMatch(/^[0-9a-f]{64}$/);
    // The cluster column names the near-duplicate cluster `custody clusters` lists the item in,
    // also when the table is of one delivery only.
    const clusters = JSON.parse((await ok('clusters', '--json')).stdout) as { id: string; items: string[] }[];
    const cluster = clusters.find((k) => k.items.includes(d.id))?.id;
    expect(cluster).toBeDefined();
    expect(row[header.indexOf('cluster')]).toBe(cluster);
    const one = parseCsv((await ok('items', '--format', 'csv', '--with-metadata', '--delivery', d.delivery)).stdout, (m) => new Error(m)).map((r) => r.cells);
    expect(one.find((r) => r[0] === d.id)?.[header.indexOf('cluster')]).toBe(cluster);
  });

  it('says so when there is nothing to suggest, and applies suggestions in one batch', async () => {
    const recompressed = at(0, 'recompressed.jpg');
    const suggestions = JSON.parse((await ok('subject', 'suggest', '--json')).stdout) as {
      count: number;
      suggestions: { id: string; kind: string; items: string[]; item_labels: { file: string }[] }[];
    };
    const link = suggestions.suggestions.find((s) => s.kind === 'link' && s.items.includes(recompressed.id));
    expect(link?.item_labels.map((l) => l.file)).toContain('recompressed.jpg');
    const text = (await ok('subject', 'suggest')).stdout;
    expect(text).toContain('recompressed.jpg');
    const unknown = await cli('subject', 'suggest', '--accept', 'ffffffffffff', '--reason', 'r');
    expect(unknown.stderr).toContain('[SUBJECT_SUGGESTION_UNKNOWN]');
    const size = async () => (await ok('log', '--json')).stdout.trim().split('\n').length;
    const before = await size();
    await ok('subject', 'suggest', '--accept-all', '--reason', 'same photograph, recompressed');
    expect(await size()).toBeGreaterThan(before);
    const exported = JSON.parse((await ok('subject', 'export', '--format', 'json')).stdout) as { items: string[] }[];
    expect(exported.some((s) => s.items.includes(recompressed.id))).toBe(true);
    expect((await ok('subject', 'suggest')).stdout).toMatch(/^No suggestions/);
  });

  it('gives one item, subject or object its custody trail, and --to is exclusive', async () => {
    type Line = { index: number; entry: { type: string; items: string[]; objects: string[]; details: Record<string, unknown> } };
    const trail = async (...args: string[]) =>
      (await ok('log', ...args, '--json')).stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Line);
    const d = at(0, 'only-usb1.jpg');
    const byItem = await trail('--item', d.id);
    const types = byItem.map((l) => `${l.entry.type}${typeof l.entry.details.action === 'string' ? ` ${l.entry.details.action}` : ''}`);
    expect(types).toContain('ingestion');
    expect(types).toContain('metadata extraction');
    expect(types).toContain('cataloguing subject.create');
    const other = at(1, 'only-usb2.jpg');
    expect(byItem.some((l) => l.entry.items.includes(other.id))).toBe(false);
    const subject = byItem.find((l) => l.entry.details.action === 'subject.create')?.entry.details.subject as { id: string };
    const bySubject = await trail('--subject', subject.id);
    expect(bySubject.map((l) => l.entry.details.action)).toEqual(expect.arrayContaining(['subject.create', 'subject.link']));
    const byObject = await trail('--object', d.sha256);
    expect(byObject.map((l) => l.index)).toEqual(byItem.map((l) => l.index));
    const none = await ok('log', '--item', '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(none.stdout).toBe('No ledger entry names it (in this range).\n');
    expect((await trail('--from', '1', '--to', '3')).map((l) => l.index)).toEqual([1, 2]);
  });

  it('names files and subjects beside the ids in clusters and similar, keeping the ids in --json', async () => {
    const recompressed = at(0, 'recompressed.jpg');
    const clusters = JSON.parse((await ok('clusters', '--json')).stdout) as { items: string[]; item_labels: { item: string; file: string; number: string | null }[] }[];
    const c = clusters.find((x) => x.items.includes(recompressed.id));
    expect(c?.item_labels.map((l) => l.item)).toEqual(c?.items);
    expect(c?.item_labels.map((l) => l.file).sort()).toEqual(['only-usb1.jpg', 'recompressed.jpg']);
    const text = (await ok('clusters')).stdout;
    expect(text).toContain('cards/recompressed.jpg in ');
    expect(text).toMatch(/cards\/only-usb1\.jpg in \S+, subject /);
    const similar = (await ok('similar', recompressed.id)).stdout;
    expect(similar).toContain('cards/only-usb1.jpg');
    const summary = JSON.parse((await ok('authenticity', '--summary', '--json')).stdout) as { anomalies: { sha256: string; item_labels: unknown[] }[] };
    for (const a of summary.anomalies) expect(Array.isArray(a.item_labels)).toBe(true);
  });
});
