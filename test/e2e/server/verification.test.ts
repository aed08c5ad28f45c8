// Issues 12 and 13: "archive status, and verify with progress"; the overview's "last verification,
// with a button to run one and its progress". A verification runs in the server while it keeps
// serving and writing, is recorded in the ledger as a fixity check naming the account, and finds
// what `custody verify` finds.
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import { expectClean, objectPath } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { ingestObjects, servedArchive, signIn, type ServedArchive } from '../../support/server.js';

interface Run {
  id: string;
  state: 'running' | 'done' | 'failed';
  started_by: string;
  ok: boolean | null;
  tree_size: number | null;
  findings: { code: string }[];
  recorded_seq: number | null;
  error: string | null;
}
interface Listing {
  current: Run | null;
  recorded: { seq: number; actor: string; result: string; tree_size: number | null }[];
}

describeDatabases('server: verification runs', (db) => {
  let s: ServedArchive | undefined;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  afterEach(async () => {
    await s?.close();
    s = undefined;
    await cleanup();
  });

  async function serve(prefix: string): Promise<{ served: ServedArchive; objects: string[] }> {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    let objects: string[] = [];
    s = await servedArchive(
      `${prefix}-${db.kind}`,
      [
        ['Investigator Ina', 'investigator'],
        ['Examiner Eve', 'examiner'],
        ['Auditor Abe', 'auditor'],
      ],
      {
        dbUrl: made.url,
        template: true,
        before: async (a) => {
          objects = await ingestObjects(a, 3);
        },
      },
    );
    return { served: s, objects };
  }

  /** Holds the server's write queue until the returned function is called. */
  function holdWrites(served: ServedArchive): () => void {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    void served.server.custody.serialWrite(() => gate);
    return release;
  }

  it('runs while the server keeps writing, one at a time, and is recorded as a fixity check naming the account', async () => {
    const { served, objects } = await serve('verify-run');
    const ina = await signIn(served.server, 'Investigator Ina');
    const abe = await signIn(served.server, 'Auditor Abe');
    const release = holdWrites(served);
    const started = await ina.request('POST', '/api/verifications');
    expect(started.statusCode, started.body).toBe(202);
    const run = started.json<Run>();
    expect(run.state).toBe('running');
    // One at a time: a second start is refused with a stable code, naming who started the first.
    const second = await abe.request('POST', '/api/verifications');
    expect(second.statusCode).toBe(409);
    expect(second.json<{ code: string; message: string }>().code).toBe('HTTP_VERIFICATION_RUNNING');
    expect(second.json<{ message: string }>().message).toContain(served.accounts.get('Investigator Ina')!);
    // A decision queued behind the held writes is appended during the run: the index check replays it.
    const decision = ina.request('POST', '/api/decisions', {
      objects: objects.slice(0, 2),
      decision: 'different',
      note: 'during the verification',
    });
    release();
    expect((await decision).statusCode).toBe(201);
    await served.server.custody.verifications.settled();

    const listing = (await abe.request('GET', '/api/verifications')).json<Listing>();
    expect(listing.current?.id).toBe(run.id);
    expect(listing.current?.state).toBe('done');
    expect(listing.current?.error).toBeNull();
    expect(listing.current?.findings).toEqual([]);
    expect(listing.current?.ok).toBe(true);
    const seq = listing.current!.recorded_seq!;
    expect(listing.recorded[0]).toMatchObject({
      seq,
      actor: served.accounts.get('Investigator Ina'),
      result: 'pass',
      tree_size: listing.current!.tree_size,
    });
    const [entry] = await served.open.ledger.read(seq, seq + 1);
    expect(entry!.entry.type).toBe('fixity check');
    expect(entry!.entry.actor).toBe(served.accounts.get('Investigator Ina'));
    s = undefined; // closed here, so that plain `custody verify` can check the archive afterwards
    await served.close();
    await expectClean(served.archive);
  });

  it('finds an object whose bytes were changed on disk, and records the failure', async () => {
    const { served, objects } = await serve('verify-tampered');
    const ina = await signIn(served.server, 'Investigator Ina');
    const path = objectPath(served.archive.dir, objects[1]!);
    await chmod(path, 0o644);
    const bytes = await readFile(path);
    bytes[0] = bytes[0]! ^ 0xff;
    await writeFile(path, bytes);
    await chmod(path, 0o444);
    expect((await ina.request('POST', '/api/verifications')).statusCode).toBe(202);
    await served.server.custody.verifications.settled();
    const listing = (await ina.request('GET', '/api/verifications')).json<Listing>();
    expect(listing.current?.ok).toBe(false);
    expect(listing.current?.findings.map((f) => f.code)).toContain('STORE_DIGEST_MISMATCH');
    expect(listing.recorded[0]).toMatchObject({ seq: listing.current!.recorded_seq, result: 'fail' });
  });

  it('is refused to a role without verify.run, and lists the analysis jobs to any account', async () => {
    const { served } = await serve('verify-roles');
    const eve = await signIn(served.server, 'Examiner Eve');
    const r = await eve.request('POST', '/api/verifications');
    expect(r.statusCode).toBe(403);
    expect(r.json<{ code: string }>().code).toBe('HTTP_FORBIDDEN');
    expect(served.server.custody.verifications.latest()).toBeNull();
    const jobs = await eve.request('GET', '/api/jobs');
    expect(jobs.statusCode).toBe(200);
    const counts = jobs.json<{ analyze_image: Record<string, number> }>().analyze_image;
    expect(Object.keys(counts).sort()).toEqual(['done', 'failed', 'pending', 'running', 'skipped']);
  });
});
