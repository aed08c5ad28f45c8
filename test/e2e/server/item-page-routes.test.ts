// Issue 13, the item page's server side: a lossless full-size rendition of an image a browser
// cannot render (labelled derived, an audited view like the original), the full ExifTool dump,
// and the item detail's near-duplicate pairs (distance, kind, crop box).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeExifTool } from '../../../src/analysis/metadata/index.js';
import { custodyIn, custodyInExpect, type TestArchive } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const W = 300;
const H = 200;

async function picture(): Promise<Buffer> {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      raw[i] = (x * 255) / W;
      raw[i + 1] = (y * 255) / H;
      raw[i + 2] = Math.hypot(x - 200, y - 80) < 50 ? 220 : 30;
    }
  return sharp(raw, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
}

async function deliver(a: TestArchive): Promise<void> {
  const src = join(await makeTempDir('item-routes-src'), 'delivery');
  await mkdir(src, { recursive: true });
  const png = await picture();
  // Deflated, so that its IFD lies within the bytes ingest sniffs (else it is typed octet-stream).
  await writeFile(join(src, 'scan.tif'), await sharp(png).withExif({ IFD0: { Make: 'Gamma' } }).tiff({ compression: 'deflate' }).toBuffer());
  await writeFile(join(src, 'photo.jpg'), await sharp(png).withExif({ IFD0: { Make: 'Alpha', Model: 'Alpha One' } }).jpeg({ quality: 92 }).toBuffer());
  await writeFile(join(src, 'copy.jpg'), await sharp(png).resize(240).jpeg({ quality: 55 }).toBuffer());
  await writeFile(join(src, 'notes.txt'), 'not an image\n');
  // A TIFF whose compressed strip is garbage: typed image/tiff, undecodable.
  const broken = await sharp(png).tiff({ compression: 'deflate' }).toBuffer();
  broken.fill(0x5a, 16, broken.readUInt32LE(4) - 16);
  await writeFile(join(src, 'broken.tif'), broken);
  await custodyInExpect(0, ['ingest', src, '--source', 'SRC-IR', '--new-source', '--archive', a.dir], a.env);
  await custodyIn(['analyze', '--archive', a.dir], a.env); // broken.tif is a finding
}

describeDatabases('item page routes: rendition, ExifTool dump, near-duplicate pairs', (db) => {
  let s: ServedArchive;
  let ina: Client;
  const ids = new Map<string, { id: string; sha256: string; media_type: string }>();
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(`item-routes-${db.kind}`, [['Investigator Ina', 'investigator']], {
      dbUrl: made.url,
      before: deliver,
    });
    ina = await signIn(s.server, 'Investigator Ina');
    for (const i of await s.open.index.listItems()) ids.set(i.name, i);
  });
  afterAll(async () => {
    await s?.close();
    await closeExifTool();
    await cleanup();
  });
  const item = (name: string) => {
    const i = ids.get(name);
    if (i === undefined) throw new Error(`no item ${name}`);
    return i;
  };
  const views = async (id: string) =>
    (await s.open.ledger.read(0, s.open.ledger.size)).filter(
      (e) => e.entry.type === 'dissemination' && e.entry.items.includes(id),
    );

  it('a TIFF is rendered as a lossless full-size PNG, labelled derived, every pixel kept, recorded once per hour as view.rendition naming the account', async () => {
    const tif = item('scan.tif');
    expect(tif.media_type).toBe('image/tiff');
    expect(await views(tif.id)).toEqual([]);
    const r = await ina.request('GET', `/api/items/${tif.id}/rendition`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    expect(r.headers['x-custody-derived']).toBe(`png; from=${tif.sha256}; width=${W}; height=${H}`);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const shown = await sharp(r.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const stored = await sharp(await s.open.store.readObject(tif.sha256)).raw().toBuffer();
    expect([shown.info.width, shown.info.height]).toEqual([W, H]);
    expect(shown.data.equals(stored)).toBe(true);
    const again = await ina.request('GET', `/api/items/${tif.id}/rendition`);
    expect(again.statusCode).toBe(200);
    const entries = await views(tif.id);
    expect(entries.map((e) => [e.entry.details.action, e.entry.actor])).toEqual([
      ['view.rendition', s.accounts.get('Investigator Ina')],
    ]);
  });

  it('a file that is not an image has no rendition (404), and nothing is recorded', async () => {
    const txt = item('notes.txt');
    const before = s.open.ledger.size;
    const r = await ina.request('GET', `/api/items/${txt.id}/rendition`);
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([404, 'HTTP_NOT_FOUND']);
    expect(s.open.ledger.size).toBe(before);
  });

  it('an image that cannot be decoded gets 422 IMAGE_UNDECODABLE, and nothing is recorded', async () => {
    const bad = item('broken.tif');
    expect(bad.media_type).toBe('image/tiff');
    const before = s.open.ledger.size;
    const r = await ina.request('GET', `/api/items/${bad.id}/rendition`);
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([422, 'IMAGE_UNDECODABLE']);
    expect(s.open.ledger.size).toBe(before);
  });

  it('the full ExifTool dump of an item, group-prefixed, as custody exif', async () => {
    const jpg = item('photo.jpg');
    const r = await ina.request('GET', `/api/items/${jpg.id}/exif`);
    expect(r.statusCode).toBe(200);
    const body = r.json<{ sha256: string; dump: Record<string, unknown> }>();
    expect(body.sha256).toBe(jpg.sha256);
    expect(body.dump['EXIF:Make']).toBe('Alpha');
    expect(body.dump['EXIF:Model']).toBe('Alpha One');
    expect(body.dump['File:ImageWidth']).toBe(W);
  });

  it('the item detail names its near-duplicates with distance and kind, both ways', async () => {
    const [a, b] = [item('photo.jpg'), item('copy.jpg')];
    type Pair = { sha256: string; items: string[]; media_type: string; distance: number; kind: string; crop: unknown };
    const ofA = (await ina.request('GET', `/api/items/${a.id}`)).json<{ near_duplicates: Pair[] }>();
    const toB = ofA.near_duplicates.find((p) => p.sha256 === b.sha256);
    expect(toB).toMatchObject({ items: [b.id], media_type: 'image/jpeg', kind: 'pdq', crop: null });
    expect(toB!.distance).toBeGreaterThanOrEqual(0);
    expect(toB!.distance).toBeLessThanOrEqual(31);
    const ofB = (await ina.request('GET', `/api/items/${b.id}`)).json<{ near_duplicates: Pair[] }>();
    expect(ofB.near_duplicates.find((p) => p.sha256 === a.sha256)?.distance).toBe(toB!.distance);
    const txt = (await ina.request('GET', `/api/items/${item('notes.txt').id}`)).json<{ near_duplicates: Pair[]; grey_step: unknown }>();
    expect(txt.near_duplicates).toEqual([]);
    // As similar --json gives it: the three analysed images are in one small group, so each
    // needed the grey-descriptor step, and it ran; the text file is not an image.
    const step = { ran: true, objects_needing_it: 3, limit: 5000 };
    expect((ofA as { grey_step?: unknown }).grey_step).toEqual({ ...step, needed_by_this_object: true });
    expect(txt.grey_step).toEqual({ ...step, needed_by_this_object: false });
  });
});
