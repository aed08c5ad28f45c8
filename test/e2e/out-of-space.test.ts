// Out of space: the object store, the ledger and the index each in turn live on a small tmpfs (2 MiB; 3 MiB for the index)
// (moved there after `init`, a symbolic link left in their place), and a delivery larger than
// what is left is ingested. Expected: exit 1 (a finding, never 70: this is no crash) with one
// clear line naming the code; nothing stored before is harmed; after space is freed, the same
// command resumes the delivery and `custody verify` exits 0.
//
// Root only: mounting needs CAP_SYS_ADMIN. CI runs as root.
//
// The failing run and its resume are the real binary (a process of its own: the exit code and the
// one line it prints); the archive's setting up and the checks that read it afterwards (verify,
// items, deliveries) run in-process (runCli).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  describeFindings,
  listObjectFiles,
  runJson,
  runJsonIn,
  sha256File,
  type DeliveryJson,
  type ItemJson,
  type VerifyJson,
} from '../support/archive-inspect.js';
import { custodyInExpect } from '../support/archive-fixtures.js';
import { runCustody, type CustodyRunResult } from '../support/cli.js';
import { buildZip } from '../support/make-zips.js';
import { seededBytes, seededRandom } from '../support/seeded-bytes.js';
import {
  fillUpTo,
  mountTmpfs,
  moveOntoMount,
  resizeTmpfs,
  tmpfsUnavailable,
  unmountTmpfs,
} from '../support/tmpfs.js';
import { makeTempDir } from '../support/tmp.js';

const root = await makeTempDir('out-of-space');
const cannotMount = await tmpfsUnavailable(join(root, 'probe'));
if (cannotMount !== null) console.warn(`[out-of-space] skipped: ${cannotMount}`);

const mounts: string[] = [];
afterEach(() => {
  // Unmount before tmp.ts's afterAll removes the folders (a mount point cannot be removed).
  for (const m of mounts.splice(0)) unmountTmpfs(m);
});
afterAll(() => {
  for (const m of mounts.splice(0)) unmountTmpfs(m);
});

const random = seededRandom(2024);

async function writeFiles(dir: string, count: number, size: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    await writeFile(join(dir, `f${String(i).padStart(4, '0')}.bin`), seededBytes(random, size));
}

function describeRun(r: CustodyRunResult): string {
  return `exit ${String(r.code)}, signal ${String(r.signal)}\nstdout: ${r.stdout.slice(0, 1500)}\nstderr: ${r.stderr.slice(0, 3000)}`;
}

interface Setup {
  archive: string;
  mount: string;
  /** Objects in the store before the failing run, each to be re-hashed later. */
  before: { name: string; path: string }[];
}

/** An archive with one delivery (20 × 10 kB) already in, then `part` moved onto a fresh 2 MiB tmpfs. */
async function setUp(name: string, part: 'objects' | 'ledger' | 'index'): Promise<Setup> {
  const dir = join(root, name);
  const archive = join(dir, 'archive');
  const mount = join(dir, 'mnt');
  await mkdir(mount, { recursive: true });
  await custodyInExpect(0, ['init', '--archive', archive]);
  await writeFiles(join(dir, 'first'), 20, 10_000);
  await custodyInExpect(0, [
    'ingest',
    join(dir, 'first'),
    '--archive',
    archive,
    '--source',
    'earlier',
    '--new-source',
  ]);
  const before = await listObjectFiles(archive);
  expect(before).toHaveLength(20);
  // The index needs more room than the other parts: 1,020 items take ~1.3 MB with the path index
  // that import by file name uses, and catching up 1,000 entries after the failure writes as much
  // again to the WAL before it is checkpointed. 3 MiB leaves room to recover; the filler still
  // fills it first.
  mountTmpfs(mount, part === 'index' ? '3m' : '2m');
  mounts.push(mount);
  const names =
    part === 'index'
      ? ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'].filter((n) =>
          existsSync(join(archive, n)),
        )
      : [part];
  await moveOntoMount(archive, names, mount);
  return { archive, mount, before: await listObjectFiles(archive) };
}

async function expectStoredObjectsIntact(s: Setup): Promise<void> {
  for (const o of s.before) expect(await sha256File(o.path), o.path).toBe(o.name);
}

/** The failing run: exit 1, one line `custody: … [CODE]` on stderr, no internal error. */
function expectCleanFailure(r: CustodyRunResult, code: string): void {
  expect(r.signal, describeRun(r)).toBeNull();
  expect(r.code, describeRun(r)).toBe(1);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.stderr).toMatch(new RegExp(`^custody: .+ \\[${code}\\]$`, 'm'));
}

/** Space is back: the same command resumes the open delivery, then verify passes. */
async function expectRecovery(
  s: Setup,
  ingestArgs: string[],
  expectedItems: number,
): Promise<void> {
  const resumed = await runJson<{ mode: string; summary: { problems: number } }>(ingestArgs);
  expect(resumed.run.code, describeRun(resumed.run)).toBe(0);
  expect(resumed.json.mode).toBe('resumed');
  const verify = await runJsonIn<VerifyJson>(['verify', '--archive', s.archive]);
  expect(verify.run.code, describeFindings(verify.json)).toBe(0);
  await expectStoredObjectsIntact(s);
  const { json: items } = await runJsonIn<ItemJson[]>(['items', '--archive', s.archive]);
  expect(items).toHaveLength(20 + expectedItems);
  expect(new Set(items.map((i) => `${i.delivery} ${i.relative_path}`)).size).toBe(items.length);
  const { json: deliveries } = await runJsonIn<DeliveryJson[]>([
    'deliveries',
    '--archive',
    s.archive,
  ]);
  expect(deliveries).toHaveLength(2);
  expect(deliveries.every((d) => d.closed_seq !== null)).toBe(true);
}

describe.skipIf(cannotMount !== null)(
  'out of space (root: a 2 MiB tmpfs under one part of the archive)',
  () => {
    it('object store full: exit 1 with STORE_OUT_OF_SPACE; what was stored stays whole; resume completes', async () => {
      const s = await setUp('store', 'objects');
      const big = join(root, 'store', 'big');
      await writeFiles(big, 12, 300_000); // 3.6 MB onto 2 MiB
      const args = ['ingest', big, '--archive', s.archive, '--source', 'big', '--new-source'];
      const failed = await runCustody(args);
      expectCleanFailure(failed, 'STORE_OUT_OF_SPACE');
      await expectStoredObjectsIntact(s);
      // Whatever was fully stored before the failure is named by the ledger: verify passes even
      // before any space is freed (no stray objects, no half-written ones).
      const early = await runJsonIn<VerifyJson>(['verify', '--archive', s.archive]);
      expect(early.run.code, describeFindings(early.json)).toBe(0);

      resizeTmpfs(s.mount, '64m');
      await expectRecovery(s, args, 12);
    });

    it('object store full while ZIP members are extracted: STORE_OUT_OF_SPACE, not a corrupt ZIP', async () => {
      const s = await setUp('store-zip', 'objects');
      const dir = join(root, 'store-zip', 'delivery');
      await mkdir(dir, { recursive: true });
      // 1.2 MB of stored members in a 1.2 MB container: the container fits, its members do not.
      const zip = buildZip(
        Array.from({ length: 6 }, (_, i) => ({
          name: `member-${i}.bin`,
          data: seededBytes(random, 200_000),
        })),
      );
      await writeFile(join(dir, 'evidence.zip'), zip);
      const args = ['ingest', dir, '--archive', s.archive, '--source', 'zip', '--new-source'];
      const failed = await runCustody(args);
      expectCleanFailure(failed, 'STORE_OUT_OF_SPACE');
      expect(failed.stdout + failed.stderr).not.toMatch(/INGEST_ZIP_(MEMBER_)?CORRUPT/);
      await expectStoredObjectsIntact(s);

      resizeTmpfs(s.mount, '64m');
      await expectRecovery(s, args, 7);
    });

    it('ledger full: exit 1 with LEDGER_WRITE_FAILED; the ledger keeps only whole entries; resume completes', async () => {
      const s = await setUp('ledger', 'ledger');
      const ledgerBefore = await readFile(join(s.archive, 'ledger', 'entries.jsonl'));
      const filler = await fillUpTo(s.mount, 64 * 1024);
      const many = join(root, 'ledger', 'many');
      await writeFiles(many, 1000, 300); // ~1000 entries of ~700 bytes onto 64 KiB
      const args = ['ingest', many, '--archive', s.archive, '--source', 'many', '--new-source'];
      const failed = await runCustody(args);
      expectCleanFailure(failed, 'LEDGER_WRITE_FAILED');
      await expectStoredObjectsIntact(s);
      // The ledger is what it was, plus whole entries only: the failed append was cut back.
      const ledgerAfter = await readFile(join(s.archive, 'ledger', 'entries.jsonl'));
      expect(ledgerAfter.subarray(0, ledgerBefore.length).equals(ledgerBefore)).toBe(true);
      expect(ledgerAfter.at(-1)).toBe(0x0a);
      for (const line of ledgerAfter.toString('utf8').trimEnd().split('\n'))
        expect(() => JSON.parse(line) as unknown).not.toThrow();

      await rm(filler);
      await expectRecovery(s, args, 1000);
    });

    it('index full: exit 1 with DB_OUT_OF_SPACE; the next write catches the index up; resume completes', async () => {
      const s = await setUp('index', 'index');
      const filler = await fillUpTo(s.mount, 64 * 1024);
      const many = join(root, 'index', 'many');
      await writeFiles(many, 1000, 300);
      const args = ['ingest', many, '--archive', s.archive, '--source', 'many', '--new-source'];
      const failed = await runCustody(args);
      expectCleanFailure(failed, 'DB_OUT_OF_SPACE');
      await expectStoredObjectsIntact(s);

      await rm(filler);
      await expectRecovery(s, args, 1000);
    });
  },
);
