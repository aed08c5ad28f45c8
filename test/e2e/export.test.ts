// `custody export`: a BagIt bag that standard tools verify (sha256sum, openssl) and whose proofs
// recompute the signed root; deterministic at a checkpoint; redaction keeps sealed source records
// and the images themselves out; the export is a 'dissemination' ledger entry.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointSizes,
  custodyInExpect,
  expectClean,
  ingest,
  initArchive,
  itemAt,
  listItems,
  loadCore,
  readLog,
  sha256Hex,
  writeSourceTree,
  type ItemJson,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { checkBag, readJson, readTree, type WithheldJson } from '../support/export-bags.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const IDENTITY = 'Real name: Nadia Testperson-Export; phone +000 555 0142; Aleppo safe house';
const NEEDLES = ['Nadia', 'Testperson-Export', '555 0142', 'safe house'];
const PASSPHRASE = 'sources passphrase for the export test';

async function photo(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(96 * 64 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * (seed + 3)) % 251;
  return sharp(raw, { raw: { width: 96, height: 64, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('custody export', () => {
  let base: string;
  let archive: TestArchive;
  let items: ItemJson[];
  let firstDelivery: string;
  let secondDelivery: string;
  let subject: string;
  let withdrawnId: string;
  let earlyCheckpoint: string;
  const run = (args: string[], code = 0) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const out = (name: string): string => join(base, 'out', name);
  const latestSize = async (): Promise<number> =>
    (JSON.parse((await run(['checkpoint', '--json'])).stdout) as { size: number }).size;

  beforeAll(async () => {
    base = await makeTempDir('export');
    await mkdir(join(base, 'out'));
    archive = await initArchive(join(base, 'archive'), { CUSTODY_SOURCES_PASSPHRASE: PASSPHRASE });
    await run(['source', 'init']);
    await writeFile(join(base, 'identity.txt'), IDENTITY);
    await run(['source', 'add', 'CEDAR', '--identity-file', join(base, 'identity.txt')]);
    const tree = await writeSourceTree(join(base, 'src'));
    firstDelivery = (await ingest(archive, [tree.root], 'CEDAR')).delivery;
    earlyCheckpoint = (await run(['checkpoint'])).stdout;
    await mkdir(join(base, 'photos'));
    await writeFile(join(base, 'photos', 'IMG 0001 (front).jpg'), await photo(1));
    await writeFile(join(base, 'photos', 'IMG_0002.jpg'), await photo(2));
    secondDelivery = (await ingest(archive, [join(base, 'photos')], 'LARK')).delivery;
    await run(['analyze']);
    await run([
      'sample',
      'draw',
      '--name',
      'pick',
      '--over',
      'items',
      '--method',
      'simple',
      '--size',
      '2',
      '--seed',
      'export-test',
    ]);
    items = await listItems(archive);
    const front = itemAt(items, 'IMG 0001 (front).jpg');
    subject = JSON.parse(
      (
        await run([
          'subject',
          'add',
          '--sex',
          'male',
          '--item',
          front.id,
          '--reason',
          'catalogued from the card',
          '--json',
        ])
      ).stdout,
    ) as string;
    withdrawnId = itemAt(items, 'docs/note.txt').id;
    await run([
      'withdraw',
      withdrawnId,
      '--reason',
      'consent withdrawn',
      '--authority',
      'TEST-ORDER-1',
    ]);
  });

  /** What a recipient runs: `custody verify-export` pinned to the archive key, the bag's own scripts. */
  const outsider = async (bag: string): Promise<void> => {
    await writeFile(join(base, 'pinned.txt'), `${archive.verifierKey}\n`);
    const v = await custodyInExpect(0, [
      'verify-export',
      bag,
      '--key',
      join(base, 'pinned.txt'),
      '--json',
    ]);
    expect((JSON.parse(v.stdout) as { valid: boolean }).valid).toBe(true);
    if (bag.endsWith('.zip')) return;
    execFileSync('bash', ['verify.sh', join(base, 'pinned.txt')], { cwd: bag, stdio: 'pipe' });
    execFileSync('python3', ['verify_bag.py', '.'], { cwd: bag, stdio: 'pipe' });
  };

  const dataItems = async (bag: string): Promise<string[]> =>
    (await readdir(join(bag, 'data', 'items'))).map((n) => n.slice(0, 26)).sort();

  it('exports everything but the withdrawn item, and the bag verifies with standard tools', async () => {
    const r = await run(['export', '--select', 'all', '--full-ledger', '--out', out('all'), '--json']);
    const result = JSON.parse(r.stdout) as {
      items: number;
      tree_size: number;
      tagmanifest_sha256: string;
      ledger_seq: number;
    };
    const rows = await checkBag(out('all'));
    await outsider(out('all'));
    const expected = items
      .filter((i) => i.id !== withdrawnId)
      .map((i) => i.id)
      .sort();
    expect(rows.map((i) => i.item_id).sort()).toEqual(expected);
    expect(await dataItems(out('all'))).toEqual(expected);
    expect(result.items).toBe(expected.length);
    expect(rows.find((i) => i.delivery_id === secondDelivery)?.source_codename).toBe('LARK');
    const withheld = await readJson<WithheldJson[]>(out('all'), 'custody/withheld.json');
    expect(withheld).toEqual([
      expect.objectContaining({
        kind: 'withdrawn',
        item_id: withdrawnId,
        substitute: null,
        reason: expect.stringContaining('consent withdrawn') as string,
      }),
    ]);
    const subjects = await readJson<{ subject_id: string; items: string[] }[]>(
      out('all'),
      'data/tables/subjects.json',
    );
    expect(subjects.map((s) => s.subject_id)).toEqual([subject]);
    const events = await readJson<{ eventType: string }[]>(out('all'), 'custody/events.json');
    expect(events.filter((e) => e.eventType === 'ingestion')).toHaveLength(expected.length);
    // The export's own entry: last in the ledger, naming the tag manifest that is in the bag.
    const last = (await readLog(archive)).at(-1)?.entry;
    const tagmanifest = await readFile(join(out('all'), 'tagmanifest-sha256.txt'));
    expect(last).toMatchObject({
      seq: result.ledger_seq,
      type: 'dissemination',
      details: {
        selection: 'all',
        tree_size: result.tree_size,
        tagmanifest_sha256: sha256Hex(tagmanifest),
        items: expected.length,
      },
    });
    expect([...(last?.items ?? [])].sort()).toEqual(expected);
    await expectClean(archive);
  });

  it('exports items by id, a delivery, a source and a subject, and unions of them', async () => {
    // Plain files: a ZIP chosen without its members is withheld (test/e2e/purge-containers.test.ts).
    const [a, b] = items.filter(
      (i) =>
        i.delivery === firstDelivery &&
        i.id !== withdrawnId &&
        i.parent === null &&
        !items.some((c) => c.parent === i.id),
    );
    await run([
      'export',
      '--select',
      `items:${a?.id ?? ''},${(b?.id ?? '').toLowerCase()}`,
      '--out',
      out('items'),
    ]);
    expect((await checkBag(out('items'))).map((i) => i.item_id).sort()).toEqual(
      [a?.id, b?.id].sort(),
    );
    await run(['export', '--select', `delivery:${secondDelivery}`, '--out', out('delivery')]);
    const second = items
      .filter((i) => i.delivery === secondDelivery)
      .map((i) => i.id)
      .sort();
    expect(await dataItems(out('delivery'))).toEqual(second);
    await checkBag(out('delivery'));
    await run(['export', '--select', 'source:LARK', '--out', out('source')]);
    expect(await dataItems(out('source'))).toEqual(second);
    await run([
      'export',
      '--select',
      `subjects:${subject}+items:${a?.id ?? ''}`,
      '--out',
      out('union'),
    ]);
    expect(await dataItems(out('union'))).toEqual(
      [itemAt(items, 'IMG 0001 (front).jpg').id, a?.id].sort(),
    );
    const names = await readdir(join(out('union'), 'data', 'items'));
    expect(names).toContain(`${itemAt(items, 'IMG 0001 (front).jpg').id}-IMG_0001__front_.jpg`);
    // A sample drawn over the items (its frame: the analysed photographs), all of them drawn.
    await run(['export', '--select', 'sample:pick', '--out', out('sample')]);
    const sampled = await checkBag(out('sample'));
    const photos = items.filter((i) => i.delivery === secondDelivery).map((i) => i.id);
    expect(sampled.map((r) => r.item_id).sort()).toEqual(photos.sort());
  });

  it('gives the same bytes for the same selection at the same checkpoint, as a folder or a zip', async () => {
    const size = await latestSize();
    await run(['export', '--select', 'all', '--at', String(size), '--full-ledger', '--out', out('det1')]);
    await run(['export', '--select', 'all', '--at', String(size), '--full-ledger', '--out', out('det2')]);
    await run(['export', '--select', 'all', '--at', String(size), '--full-ledger', '--out', out('det.zip')]);
    await mkdir(out('unzipped'));
    execFileSync('unzip', ['-q', out('det.zip'), '-d', out('unzipped')]);
    const dated = (p: string, b: Buffer): string =>
      p === 'bag-info.txt'
        ? b.toString().replace(/^Bagging-Date: .*$/m, '')
        : p === 'tagmanifest-sha256.txt'
          ? b.toString().replace(/^.* {2}bag-info\.txt$/m, '')
          : sha256Hex(b);
    const norm = async (dir: string) =>
      new Map([...(await readTree(dir))].map(([p, b]) => [p, dated(p, b)]));
    const first = await norm(out('det1'));
    expect(first.size).toBeGreaterThan(20);
    expect(await norm(out('det2'))).toEqual(first);
    expect(await norm(join(out('unzipped'), 'det'))).toEqual(first);
    await checkBag(join(out('unzipped'), 'det'));
    await outsider(out('det.zip'));
    // Two exports, two dissemination entries; neither moved the checkpoint the bags are tied to.
    const log = await readLog(archive);
    expect(log.slice(-3).map((l) => l.entry.type)).toEqual([
      'dissemination',
      'dissemination',
      'dissemination',
    ]);
  });

  it('keeps sealed source records out with --redact, and swaps images for blurred previews', async () => {
    const cipher = (await readLog(archive))
      .map((l) => l.entry)
      .find((e) => e.details.codename === 'CEDAR')?.details.identity as { ciphertext: string };
    await run(['export', '--select', 'all', '--full-ledger', '--out', out('plain-full')]);
    const plainBytes = Buffer.concat([...(await readTree(out('plain-full'))).values()]);
    expect(plainBytes.includes(Buffer.from(cipher.ciphertext))).toBe(true); // the test can fail
    await run([
      'export',
      '--select',
      'all',
      '--full-ledger',
      '--redact',
      '--blur-images',
      '--out',
      out('redacted'),
    ]);
    const rows = await checkBag(out('redacted'));
    await outsider(out('redacted'));
    const bytes = Buffer.concat([...(await readTree(out('redacted'))).values()]);
    for (const needle of [...NEEDLES, cipher.ciphertext])
      expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
    const withheld = await readJson<WithheldJson[]>(out('redacted'), 'custody/withheld.json');
    const subs = withheld.filter((w) => w.kind === 'substituted');
    const images = items.filter((i) => i.delivery === secondDelivery);
    expect(subs.map((s) => s.item_id).sort()).toEqual(images.map((i) => i.id).sort());
    for (const s of subs) {
      const preview = await readFile(join(out('redacted'), s.substitute ?? ''));
      expect(sha256Hex(preview)).toBe(s.preview_sha256);
      expect((await sharp(preview).metadata()).format).toBe('webp');
      expect(existsSync(join(out('redacted'), 'custody', 'proofs', `${s.item_id}.json`))).toBe(
        true,
      );
      expect(s.sha256).toBe(images.find((i) => i.id === s.item_id)?.sha256);
    }
    expect(
      rows
        .filter((r) => r.withheld !== null)
        .map((r) => r.bag_path)
        .sort(),
    ).toEqual(subs.map((s) => s.substitute).sort());
    const entries = await readJson<{ seq: number }[]>(
      out('redacted'),
      'custody/withheld-entries.json',
    );
    expect(entries.length).toBeGreaterThan(0);
    expect(await readJson<unknown[]>(out('plain-full'), 'custody/withheld-entries.json')).toEqual(
      [],
    );
    const last = (await readLog(archive)).at(-1)?.entry;
    expect(last?.details).toMatchObject({
      redacted: true,
      substituted: subs.map((s) => ({ item: s.item_id, preview_sha256: s.preview_sha256 })),
    });
  });

  it('keeps out an item withdrawn after the checkpoint it exports at', async () => {
    const early = Number(earlyCheckpoint.split('\n')[1]);
    await run([
      'export',
      '--select',
      `delivery:${firstDelivery}`,
      '--at',
      String(early),
      '--out',
      out('early'),
    ]);
    expect(await dataItems(out('early'))).not.toContain(withdrawnId);
    const withheld = await readJson<WithheldJson[]>(out('early'), 'custody/withheld.json');
    expect(withheld).toEqual([
      expect.objectContaining({
        kind: 'withdrawn',
        item_id: withdrawnId,
        substitute: null,
        reason: expect.stringContaining('(after this checkpoint)') as string,
      }),
    ]);
    expect((await checkBag(out('early'))).length).toBe(
      items.filter((i) => i.delivery === firstDelivery).length - 1,
    );
  });

  it('proves the export extends an older checkpoint (--since-checkpoint)', async () => {
    await writeFile(join(base, 'early.txt'), earlyCheckpoint);
    await run([
      'export',
      '--select',
      `delivery:${firstDelivery}`,
      '--since-checkpoint',
      join(base, 'early.txt'),
      '--out',
      out('since'),
    ]);
    const c = await readJson<{
      old_size: number;
      old_root: string;
      new_size: number;
      new_root: string;
      proof: string[];
    }>(out('since'), 'custody/consistency.json');
    const { merkle } = await loadCore();
    const hex = (h: string): Buffer => Buffer.from(h, 'hex');
    expect(c.old_size).toBeLessThan(c.new_size);
    expect(Buffer.from(earlyCheckpoint.split('\n')[2] ?? '', 'base64').toString('hex')).toBe(
      c.old_root,
    );
    expect(
      merkle.verifyConsistency(
        c.old_size,
        c.new_size,
        hex(c.old_root),
        hex(c.new_root),
        c.proof.map(hex),
      ),
    ).toBe(true);
    await writeFile(join(base, 'forged.txt'), earlyCheckpoint.replace(/\n\d+\n/, '\n2\n'));
    const forged = await run(
      [
        'export',
        '--select',
        'all',
        '--since-checkpoint',
        join(base, 'forged.txt'),
        '--out',
        out('forged'),
      ],
      1,
    );
    expect(forged.stderr).toContain('[EXPORT_CHECKPOINT_INVALID]');
  });

  it('refuses bad requests clearly and leaves nothing behind', async () => {
    const size = await latestSize();
    const before = (await readLog(archive)).length;
    const signed = await checkpointSizes(archive.dir);
    const gap =
      Array.from({ length: size }, (_, k) => k + 1).find(
        (n) => !signed.includes(n) && n > (signed[0] ?? 0),
      ) ?? 0;
    const unsigned = await run(
      ['export', '--select', 'all', '--at', String(gap), '--out', out('x')],
      2,
    );
    expect(unsigned.stderr).toMatch(
      /no signed checkpoint at that tree size; the nearest signed sizes are \d+ and \d+ .*\[EXPORT_NOT_SIGNED\]/,
    );
    await mkdir(out('busy'));
    await writeFile(join(out('busy'), 'keep.txt'), 'mine');
    expect((await run(['export', '--select', 'all', '--out', out('busy')], 2)).stderr).toContain(
      '[EXPORT_OUT_EXISTS]',
    );
    expect(await readdir(out('busy'))).toEqual(['keep.txt']);
    expect(
      (await run(['export', '--select', 'items:01ZZZZZZZZZZZZZZZZZZZZZZZZ', '--out', out('x')], 1))
        .stderr,
    ).toContain('[EXPORT_NOT_FOUND]');
    expect(
      (await run(['export', '--select', 'sample:no-such-plan', '--out', out('x')], 1)).stderr,
    ).toContain('[EXPORT_NOT_FOUND]');
    expect(
      (await run(['export', '--select', 'everything', '--out', out('x')], 2)).stderr,
    ).toContain('[EXPORT_SELECT_INVALID]');
    expect(
      (await run(['export', '--select', 'all', '--blur-images', '--out', out('x')], 2)).stderr,
    ).toContain('[EXPORT_OPTIONS_INVALID]');
    expect((await run(['export', '--out', out('x')], 2)).stderr).toContain('--select is required');
    expect(
      (await readdir(join(base, 'out'))).filter((n) => n.includes('partial') || n === 'x'),
    ).toEqual([]);
    expect(await readLog(archive)).toHaveLength(before); // refusals append nothing
  });

  it('rebuilds the index with the dissemination entries and verifies clean', async () => {
    await run(['rebuild']);
    await expectClean(archive);
  });

  const reference = join(REPO_ROOT, 'src', 'verify', 'reference');
  it.skipIf(!existsSync(join(reference, 'verify_bag.py')))(
    'carries the reference verifier, which accepts the bag',
    async () => {
      for (const f of ['VERIFY.md', 'verify_bag.py', 'verify.sh']) {
        expect(
          (await readFile(join(out('all'), f))).equals(await readFile(join(reference, f))),
        ).toBe(true);
      }
      // They ran in the first test (outsider): verify.sh and verify_bag.py accepted the bag.
    },
  );
});
