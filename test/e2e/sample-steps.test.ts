// Issue 10, sampling in steps: `sample frame` today, `checkpoint --publish`, `sample seed` with a
// public beacon value tomorrow, `sample draw`. The seed is refused until a signed checkpoint
// covering the frame entry is published; the seed entry names it; the redraw script reproduces
// the draw from `sample frame --csv` and the seed alone; `verify` still redraws the sample.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { canonicalize, type JsonValue } from '../../src/core/canonical-json.js';
import { checkpointSizes, custodyIn, ledgerPath, readLedgerLines, resignCheckpoints, writeLedgerLines } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

const BEACON = 'a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9A';

describe('sampling in steps', () => {
  let dir: string;
  let env: Record<string, string>;
  let pub: string;
  const run = (...args: string[]) => custodyIn(args, { ...env, CUSTODY_ACTOR: 'statistician' });
  const ok = async (...args: string[]) => {
    const r = await run(...args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const ledger = () => readFile(ledgerPath(join(dir, 'archive')));
  const log = async () =>
    (await ok('log', '--json')).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: { seq: number; details: Record<string, unknown> } }).entry);

  beforeAll(async () => {
    dir = await makeTempDir('custody-sample-steps');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    pub = join(dir, 'published');
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (let i = 0; i < 9; i++)
      await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 25 * i, g: 200 - 20 * i, b: 60 } } }).png().toFile(join(photos, `p${i}.png`));
    await ok('init');
    await ok('ingest', photos, '--source', 'KITE', '--new-source');
  }, 120_000);

  it('frame → publish → seed from a beacon → draw; the redraw script reproduces it from `sample frame --csv` and the seed', async () => {
    const frame = JSON.parse((await ok('sample', 'frame', 's1', '--over', 'items', '--method', 'simple', '--size', '4', '--json')).stdout) as { entries: { frame: number }; frame_digest: string };
    // Not published yet: refused, nothing written.
    const before = await ledger();
    const early = await run('sample', 'seed', 's1', '--beacon', 'drand-quicknet', '--round', '1200', '--value', BEACON, '--published', pub);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('[SAMPLE_FRAME_UNPUBLISHED]');
    expect((await ledger()).equals(before)).toBe(true);
    // Drawing before the seed is refused too.
    const noSeed = await run('sample', 'draw', 's1');
    expect(noSeed.stderr).toContain('[SAMPLE_NOT_SEEDED]');

    await ok('checkpoint', '--publish', pub);
    const seeded = JSON.parse((await ok('sample', 'seed', 's1', '--beacon', 'drand-quicknet', '--round', '1200', '--value', BEACON, '--published', pub, '--json')).stdout) as { seed: string; checkpoint: { size: number; root: string } };
    expect(seeded.seed).toBe(BEACON.toLowerCase());
    expect(seeded.checkpoint.size).toBeGreaterThanOrEqual(frame.entries.frame + 1);
    const cp = JSON.parse((await ok('checkpoint', '--at', String(seeded.checkpoint.size), '--json')).stdout) as { root: string };
    expect(seeded.checkpoint.root).toBe(cp.root);
    const again = await run('sample', 'seed', 's1', '--beacon', 'x', '--round', '1', '--value', BEACON, '--published', pub);
    expect(again.stderr).toContain('[SAMPLE_STEP_DONE]');

    const drawn = JSON.parse((await ok('sample', 'draw', 's1', '--json')).stdout) as { members: string[]; frame_digest: string; manifest_digest: string; seed: string };
    expect(drawn.members).toHaveLength(4);
    expect(drawn.frame_digest).toBe(frame.frame_digest);
    const entries = await log();
    const seedEntry = entries.find((e) => e.details.action === 'sample.seed');
    expect(seedEntry?.details).toMatchObject({ seed_source: 'beacon', beacon: { name: 'drand-quicknet', round: 1200 }, checkpoint: seeded.checkpoint });

    await ok('sample', 'frame', 's1', '--csv', '--out', join(dir, 'frame.txt'));
    // Never over an existing file, and a usage error rather than an internal one.
    const twice = await run('sample', 'frame', 's1', '--csv', '--out', join(dir, 'frame.txt'));
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('the file exists');
    const py = spawnSync('python3', [join(REPO_ROOT, 'scripts/redraw-sample.py'), '--frame', join(dir, 'frame.txt'), '--seed', drawn.seed, '--n', '4', '--method', 'simple', '--digests'], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const lines = py.stdout.trim().split('\n');
    expect(lines[0]).toBe(`frame-digest ${drawn.frame_digest}`);
    expect(lines[1]).toBe(`manifest-digest ${drawn.manifest_digest}`);
    expect(lines.slice(2)).toEqual(drawn.members);
    const v = await run('verify', '--json');
    expect(v.code, v.stdout).toBe(0);
  });

  it('a stratified frame goes out as the strata CSV the script reads', async () => {
    await ok('sample', 'frame', 's-strat', '--over', 'items', '--method', 'stratified', '--by', 'month', '--size', '3');
    await ok('checkpoint', '--publish', pub);
    await ok('sample', 'seed', 's-strat', '--beacon', 'drand-quicknet', '--round', '1300', '--value', BEACON.slice(0, 64).replace('A', 'b'), '--published', pub);
    const drawn = JSON.parse((await ok('sample', 'draw', 's-strat', '--json')).stdout) as { members: string[]; seed: string; manifest_digest: string };
    const csv = (await ok('sample', 'frame', 's-strat', '--csv')).stdout;
    await writeFile(join(dir, 'strata.csv'), csv);
    const py = spawnSync('python3', [join(REPO_ROOT, 'scripts/redraw-sample.py'), '--strata', join(dir, 'strata.csv'), '--seed', drawn.seed, '--n', '3', '--digests'], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    expect(py.stdout).toContain(drawn.manifest_digest);
    expect(py.stdout.trim().split('\n').slice(2)).toEqual(drawn.members);
  });

  it('refuses the seed when the published checkpoints predate the frame, even beside a planted file', async () => {
    await ok('checkpoint', '--publish', pub);
    await ok('sample', 'frame', 's2', '--over', 'items', '--size', '2');
    // Someone drops a file named for a later size into the folder: it is not signed by the archive.
    await writeFile(join(pub, `${String(999).padStart(16, '0')}.checkpoint`), 'custody/forged\n999\nAAAA\n\n— custody/forged AAAA\n');
    const before = await ledger();
    const r = await run('sample', 'seed', 's2', '--beacon', 'drand-quicknet', '--round', '1400', '--value', BEACON, '--published', pub);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SAMPLE_FRAME_UNPUBLISHED]');
    expect((await ledger()).equals(before)).toBe(true);
    const none = await run('sample', 'seed', 's2', '--beacon', 'drand-quicknet', '--round', '1400', '--value', BEACON);
    expect(none.code).toBe(2); // no folder named at all
  });

  it('with CUSTODY_PUBLISH_CHECKPOINTS the frame is published as it is signed, and the seed finds it there', async () => {
    const auto = join(dir, 'auto-published');
    const withPub = { ...env, CUSTODY_ACTOR: 'statistician', CUSTODY_PUBLISH_CHECKPOINTS: auto };
    expect((await custodyIn(['sample', 'frame', 's4', '--over', 'items', '--size', '2'], withPub)).code).toBe(0);
    const r = await custodyIn(['sample', 'seed', 's4', '--beacon', 'drand-quicknet', '--round', '1500', '--value', BEACON], withPub);
    expect(r.code, r.stderr).toBe(0);
    expect((await custodyIn(['sample', 'draw', 's4'], withPub)).code).toBe(0);
  });

  it('refuses a size larger than the frame with the census suggestion, and --census takes the whole frame', async () => {
    const before = await ledger();
    const r = await run('sample', 'frame', 's3', '--over', 'items', '--size', '10');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SAMPLE_SIZE_EXCEEDS_FRAME]');
    expect(r.stderr).toContain('--census');
    expect((await ledger()).equals(before)).toBe(true);
    const one = await run('sample', 'draw', '--name', 's3', '--over', 'items', '--size', '10');
    expect(one.stderr).toContain('--census');
    const census = JSON.parse((await ok('sample', 'draw', '--name', 's3', '--over', 'items', '--census', '--json')).stdout) as { members: string[]; frame_size: number };
    expect(census.members).toHaveLength(census.frame_size);
    expect(census.frame_size).toBe(9);
  });

  it("verify catches an insider who rewrites the seed entry's checkpoint and re-signs (SAMPLE_SEED_CHECKPOINT_INVALID)", async () => {
    const tamper = async (name: string, edit: (c: { size: number; root: string }, frameSeq: number) => void): Promise<string[]> => {
      const copy = join(await makeTempDir(`custody-seed-${name}`), 'archive');
      await cp(join(dir, 'archive'), copy, { recursive: true });
      const lines = await readLedgerLines(copy);
      const entries = lines.map((l) => JSON.parse(l) as { seq: number; details: Record<string, JsonValue> });
      const frame = entries.find((e) => e.details.action === 'sample.frame' && (e.details.sample as { name: string }).name === 's1');
      const seed = entries.find((e) => e.details.action === 'sample.seed' && e.details.sample === (frame?.details.sample as { id: string }).id);
      expect(seed?.details.checkpoint).toBeDefined();
      edit(seed?.details.checkpoint as { size: number; root: string }, frame?.seq ?? -1);
      lines[seed?.seq ?? -1] = canonicalize(seed);
      await writeLedgerLines(copy, lines);
      const origin = (JSON.parse(await readFile(join(copy, 'custody.json'), 'utf8')) as { origin: string }).origin;
      await resignCheckpoints({ dir: copy, origin, verifierKey: '', env: {} }, await checkpointSizes(copy));
      const cenv = { CUSTODY_ARCHIVE: copy, CUSTODY_ACTOR: 'insider' };
      expect((await custodyIn(['rebuild'], cenv)).code).toBe(0);
      const v = await custodyIn(['verify', '--json'], cenv);
      expect(v.code).toBe(1);
      return (JSON.parse(v.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    };
    // The seed claims to follow a checkpoint taken before the frame existed…
    expect(await tamper('early', (c, frameSeq) => void (c.size = frameSeq))).toContain('SAMPLE_SEED_CHECKPOINT_INVALID');
    // …or names a root that is not the ledger's.
    expect(await tamper('root', (c) => void (c.root = '00'.repeat(32)))).toContain('SAMPLE_SEED_CHECKPOINT_INVALID');
  });
});
