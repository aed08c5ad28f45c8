// Sources: the real identity is sealed with the administrators' key. Without it, nothing in the
// database file or the ledger reveals it; only a custodian with the key reads it, and every read
// is a ledger entry.
// The CLI runs in-process (runCli: the output and exit code the binary gives, without a process
// per command); no exit code of the binary itself is under test here.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCustodyInProcess as runCustody } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const IDENTITY =
  'Real name: Samir Haddad-Testcase; phone +000 555 0199; met at the northern crossing';

async function everyByte(dir: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) parts.push(await readFile(join(e.parentPath, e.name)));
  }
  return Buffer.concat(parts);
}

describe('custody source', () => {
  let dir: string;
  let admin: Record<string, string>;
  const key = 'correct horse battery staple, for sources';

  beforeAll(async () => {
    dir = await makeTempDir('custody-sources');
    admin = { CUSTODY_ARCHIVE: join(dir, 'archive'), CUSTODY_ACTOR: 'registrar' };
    expect((await runCustody(['init'], { env: admin })).code).toBe(0);
    expect(
      (await runCustody(['source', 'init'], { env: { ...admin, CUSTODY_SOURCES_PASSPHRASE: key } }))
        .code,
    ).toBe(0);
    await writeFile(join(dir, 'identity.txt'), IDENTITY);
    const add = await runCustody(
      ['source', 'add', 'CEDAR', '--identity-file', join(dir, 'identity.txt')],
      { env: { ...admin, CUSTODY_SOURCES_PASSPHRASE: key } },
    );
    expect(add.code, add.stderr).toBe(0);
  });

  it('keeps the identity unreadable in the database file and the ledger without the key', async () => {
    const bytes = await everyByte(join(dir, 'archive'));
    for (const needle of ['Samir', 'Haddad-Testcase', '555 0199', 'northern crossing']) {
      expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
    }
    const list = JSON.parse(
      (await runCustody(['source', 'list', '--json'], { env: admin })).stdout,
    ) as { codename: string; identity_on_record: boolean }[];
    expect(list).toEqual([
      { codename: 'CEDAR', identity_on_record: true, deliveries: 0, reads: 0 },
    ]);
  });

  it('lets only a custodian with the key read it, recording each read with its reason', async () => {
    const noKey = await runCustody(['source', 'reveal', 'CEDAR', '--reason', 'x'], { env: admin });
    expect(noKey.code).toBe(2);
    const wrongKey = await runCustody(['source', 'reveal', 'CEDAR', '--reason', 'x'], {
      env: { ...admin, CUSTODY_SOURCES_PASSPHRASE: 'guess' },
    });
    expect(wrongKey.stderr).toContain('SOURCE_KEY_WRONG');
    const examiner = await runCustody(['source', 'reveal', 'CEDAR', '--reason', 'curious'], {
      env: { ...admin, CUSTODY_ACTOR: 'examiner-2', CUSTODY_SOURCES_PASSPHRASE: key },
    });
    expect(examiner.code).toBe(1);
    expect(examiner.stderr).toContain('SOURCE_FORBIDDEN');
    const ok = await runCustody(
      ['source', 'reveal', 'CEDAR', '--reason', 'witness protection review', '--json'],
      { env: { ...admin, CUSTODY_SOURCES_PASSPHRASE: key } },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { identity: string }).identity).toBe(IDENTITY);
    const log = (await runCustody(['log', '--json'], { env: admin })).stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            entry: { actor: string; details: { action?: string; reason?: string } };
          },
      );
    const reads = log.filter((l) => l.entry.details.action === 'source.read');
    expect(reads.map((r) => [r.entry.actor, r.entry.details.reason])).toEqual([
      ['registrar', 'witness protection review'],
    ]);
  });

  it('lets a custodian grant the role, after which the grantee can read', async () => {
    expect(
      (
        await runCustody(['source', 'grant', 'liaison-1'], {
          env: { ...admin, CUSTODY_SOURCES_PASSPHRASE: key },
        })
      ).code,
    ).toBe(0);
    const r = await runCustody(['source', 'reveal', 'CEDAR', '--reason', 'family contact'], {
      env: { ...admin, CUSTODY_ACTOR: 'liaison-1', CUSTODY_SOURCES_PASSPHRASE: key },
    });
    expect(r.code, r.stderr).toBe(0);
    expect((await runCustody(['rebuild'], { env: admin })).code).toBe(0);
    expect((await runCustody(['verify'], { env: admin })).code).toBe(0);
  });
});
