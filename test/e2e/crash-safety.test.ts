// Crash safety of intake (the issue: "kill ingest with SIGKILL at injected points … loop over
// many kill points in a run of 10,000 small files; after each kill, resume; at the end verify
// exits 0, the item and object counts are exact, no file is lost and none duplicated").
//
// The CLI kills itself with SIGKILL when CUSTODY_TEST_CRASH_AT="<point>:<n>" names the nth
// pass of a point (src/app.ts):
//   object-written      temp object fsynced, before its rename into objects/sha256/
//   object-renamed      object in place, not yet named by the ledger
//   ledger-appended     ledger entries fsynced, index transaction not yet committed
//   checkpoint-signing  checkpoint temp file written, before its rename
// A checkpoint is signed every 10,000 ledger entries and when a writing command ends, so the
// checkpoint kills are placed where those passes fall (see phase 2 below).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeFindings,
  listObjectFiles,
  readLedgerEntries,
  runJsonIn,
  sha256Hex,
  type DeliveryJson,
  type ItemJson,
  type VerifyJson,
} from '../support/archive-inspect.js';
import { runCustody, runCustodyInProcess, type CustodyRunResult } from '../support/cli.js';
import { seededBytes, seededRandom } from '../support/seeded-bytes.js';
import { makeTempDir } from '../support/tmp.js';

type CrashPoint = import('../../src/app.js').CrashPoint;

const FILES = 10_000;
const PER_FOLDER = 500;
/** Every 20th file repeats an earlier one byte for byte: 5 % duplicates, so objects < items. */
const DUPLICATE_EVERY = 20;
const SOURCE = 'crash-test';
/** Ingestion entries committed to the ledger before phase 2 starts (see there). */
const PHASE_ONE_UNTIL = 7_800;
const MAX_PHASE_ONE_KILLS = 20;

interface Corpus {
  dir: string;
  /** relative path (as `items` reports it) → SHA-256 */
  expected: Map<string, string>;
}

async function writeCorpus(dir: string): Promise<Corpus> {
  const random = seededRandom(0xc0ffee);
  const expected = new Map<string, string>();
  const contents: Buffer[] = [];
  for (let i = 0; i < FILES; i++) {
    const folder = `d${String(Math.floor(i / PER_FOLDER)).padStart(2, '0')}`;
    if (i % PER_FOLDER === 0) await mkdir(join(dir, folder), { recursive: true });
    const bytes =
      i % DUPLICATE_EVERY === DUPLICATE_EVERY - 1
        ? (contents[Math.floor(random() * contents.length)] ?? Buffer.alloc(0))
        : seededBytes(random, 200 + Math.floor(random() * 1801));
    contents.push(bytes);
    const relative = `${folder}/f${String(i).padStart(5, '0')}.bin`;
    await writeFile(join(dir, relative), bytes);
    expected.set(relative, sha256Hex(bytes));
  }
  return { dir, expected };
}

/** Ingestion entries in the ledger file: what has durably been received so far. */
async function committedItems(archive: string): Promise<number> {
  return (await readLedgerEntries(archive)).filter((e) => e.type === 'ingestion').length;
}

function describeRun(r: CustodyRunResult): string {
  return `exit ${String(r.code)}, signal ${String(r.signal)}\nstdout: ${r.stdout.slice(0, 1500)}\nstderr: ${r.stderr.slice(0, 1500)}`;
}

describe('crash safety: SIGKILL during a 10,000-file intake, resumed after every kill', () => {
  it('ends with every file received exactly once and a clean verify', async () => {
    const tmp = await makeTempDir('crash-safety');
    const archive = join(tmp, 'archive');
    const corpus = await writeCorpus(join(tmp, 'delivery'));
    const digests = new Set(corpus.expected.values());
    expect(digests.size).toBeLessThan(FILES); // the duplicates are there

    // Only the killed runs need a process of their own; the rest runs in-process (runCli).
    const init = await runCustodyInProcess(['init', '--archive', archive]);
    expect(init.code, describeRun(init)).toBe(0);

    const ingestArgs = ['ingest', corpus.dir, '--archive', archive, '--source', SOURCE, '--new-source'];
    const kills: { at: string; before: number; after: number; ms: number }[] = [];
    const killAt = async (point: CrashPoint, n: number, args = ingestArgs): Promise<void> => {
      const before = await committedItems(archive);
      const began = performance.now();
      const r = await runCustody(args, {
        env: { CUSTODY_TEST_CRASH_AT: `${point}:${n}` },
        timeoutMs: 120_000,
      });
      const ms = Math.round(performance.now() - began);
      expect(
        r.signal,
        `expected ${point}:${n} to kill the run (${kills.length} kills so far): ${describeRun(r)}`,
      ).toBe('SIGKILL');
      kills.push({ at: `${point}:${n}`, before, after: await committedItems(archive), ms });
    };

    // Phase 1: the three per-file points, cycled, until most files are in. The first kill
    // lands right after the new delivery's opening entry reached the ledger (the index has
    // not seen the delivery yet); n = 1 kills on the first object; larger n let each run get
    // several 256-entry batches in before it dies, leaving objects that no entry names yet.
    const opening: [CrashPoint, number][] = [
      ['ledger-appended', 1],
      ['object-written', 1],
      ['object-renamed', 1],
      ['ledger-appended', 2],
    ];
    // 'intent-written' kills after a batch's intent is durable and before its entries are
    // appended: the next run finds an intent with no tail and discards it.
    const cycle: [CrashPoint, number][] = [
      ['object-written', 900],
      ['object-renamed', 800],
      ['ledger-appended', 4],
      ['intent-written', 3],
    ];
    for (const [point, n] of opening) await killAt(point, n);
    for (let i = 0; (await committedItems(archive)) < PHASE_ONE_UNTIL; i++) {
      expect(i, 'phase 1 makes no progress').toBeLessThan(MAX_PHASE_ONE_KILLS);
      const [point, n] = cycle[i % cycle.length] ?? cycle[0]!;
      await killAt(point, n);
    }

    // Phase 2: checkpoints. No run has finished, so the last checkpoint is the one `init`
    // signed at size 1 and the next falls due when the ledger reaches 10,001 entries, which
    // happens on an item batch shortly before the last file.
    //  A: killed while signing that interval checkpoint, mid-run: the batch is in the ledger,
    //     not in the index, and the delivery is still open.
    await killAt('checkpoint-signing', 1);
    const afterA = await readLedgerEntries(archive);
    expect(afterA.at(-1)?.type).toBe('ingestion');
    //  B: the checkpoint is still due, so the resumed run dies signing it right after its
    //     opening entry.
    await killAt('checkpoint-signing', 1);
    expect((await readLedgerEntries(archive)).at(-1)?.type).toBe('ingestion start');
    //  C: the next run signs that checkpoint (1st pass), takes in the rest, closes the
    //     delivery and dies signing the closing checkpoint (2nd pass).
    await killAt('checkpoint-signing', 2);
    expect((await readLedgerEntries(archive)).at(-1)?.type).toBe('ingestion end');
    console.log(
      `[crash-safety] ${kills.length} kills:\n` +
        kills
          .map(
            (k) =>
              `  ${k.at.padEnd(22)} ingestion entries ${String(k.before).padStart(5)} → ${String(k.after).padStart(5)}  (${k.ms} ms)`,
          )
          .join('\n'),
    );
    expect(kills.length).toBeGreaterThanOrEqual(12);

    // The delivery was closed in the ledger by the run killed at C, so the same command run
    // again would open a second delivery (by design: a new handover of the same folder).
    // The operator who sees the delivery closed continues it by id instead; every file must
    // then be recognised as already present.
    const { json: deliveries } = await runJsonIn<DeliveryJson[]>([
      'deliveries',
      '--archive',
      archive,
    ]);
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0]!;
    expect(delivery.closed_seq).not.toBeNull();
    //  D: a continued run dies right after its checkpoint is durable, before it empties its
    //     batch-intent slots: the next run finds the stale intent covered and carries on.
    await killAt('checkpoint-written', 1, [...ingestArgs, '--delivery', delivery.id]);
    const last = await runJsonIn<{
      mode: string;
      summary: { items_added: number; already_present: number; problems: number };
    }>([...ingestArgs, '--delivery', delivery.id]);
    expect(last.run.code, describeRun(last.run)).toBe(0);
    expect(last.json.mode).toBe('continued');
    expect(last.json.summary).toMatchObject({
      items_added: 0,
      already_present: FILES,
      problems: 0,
    });

    // verify: exit 0, no errors and no warnings (the tail is checkpointed, the index caught up).
    const verify = await runJsonIn<VerifyJson>(['verify', '--archive', archive]);
    expect(verify.run.code, describeFindings(verify.json)).toBe(0);
    expect(verify.json.ok).toBe(true);
    expect(verify.json.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(verify.json.objects.hashed).toBe(digests.size);

    // Items: exactly one per file, each with the right bytes.
    const { json: items } = await runJsonIn<ItemJson[]>(['items', '--archive', archive]);
    expect(items).toHaveLength(FILES);
    expect(new Set(items.map((i) => i.relative_path)).size).toBe(FILES);
    expect(new Set(items.map((i) => i.id)).size).toBe(FILES);
    const received = new Map(items.map((i) => [i.relative_path, i.sha256]));
    const wrong = [...corpus.expected].filter(([path, sha]) => received.get(path) !== sha);
    expect(wrong, 'files lost or received with other bytes').toEqual([]);
    expect(new Set(items.map((i) => i.sha256))).toEqual(digests);
    expect(new Set(items.map((i) => i.delivery))).toEqual(new Set([delivery.id]));

    // Objects: one file per distinct digest, nothing else, no temp files left over.
    const objects = await listObjectFiles(archive);
    expect(objects).toHaveLength(digests.size);
    expect(new Set(objects.map((o) => o.name))).toEqual(digests);
    expect(await readdir(join(archive, 'objects', 'tmp'))).toEqual([]);

    // The ledger names each file once: no item entry was written twice across the kills.
    const ingestions = (await readLedgerEntries(archive)).filter((e) => e.type === 'ingestion');
    expect(ingestions).toHaveLength(FILES);
    expect(new Set(ingestions.map((e) => e.details.relative_path)).size).toBe(FILES);

    const { json: finalDeliveries } = await runJsonIn<DeliveryJson[]>([
      'deliveries',
      '--archive',
      archive,
    ]);
    expect(finalDeliveries).toHaveLength(1);
    expect(finalDeliveries[0]).toMatchObject({ id: delivery.id, items: FILES });
  }, 300_000);
});
