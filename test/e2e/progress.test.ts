// Issue 10: long commands show progress to a person at a terminal (stderr, one overwritten line)
// and print nothing extra with --json or when stderr is not a terminal.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { CLEAN_ENV } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

async function run(args: string[], env: Record<string, string>, isTty: boolean) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { stdout: (s) => stdout.push(s), stderr: (s) => stderr.push(s), isTty, env: { ...CLEAN_ENV, CUSTODY_ACTOR: 'clerk', ...env } });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('progress on a terminal only', () => {
  let dir: string;
  let env: Record<string, string>;
  let n = 0;
  const out = (ext = '') => join(dir, `out-${++n}${ext}`);

  beforeAll(async () => {
    dir = await makeTempDir('custody-progress');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (let i = 0; i < 4; i++)
      await sharp({ create: { width: 24, height: 24, channels: 3, background: { r: 60 * i, g: 30, b: 200 - 40 * i } } }).png().toFile(join(photos, `p${i}.png`));
    expect((await run(['init'], env, false)).code).toBe(0);
    expect((await run(['ingest', photos, '--source', 'KITE', '--new-source'], env, false)).code).toBe(0);
  }, 120_000);

  const cases: { name: string; args: () => string[]; words: RegExp }[] = [
    { name: 'analyze', args: () => ['analyze'], words: /analysed \d+ of \d+/ },
    { name: 'verify', args: () => ['verify'], words: /hashing objects \d+|replaying the ledger \d+ of \d+/ },
    { name: 'rebuild', args: () => ['rebuild'], words: /replaying the ledger \d+ of \d+/ },
    { name: 'export', args: () => ['export', '--select', 'all', '--out', out()], words: /copying files into the bag \d+|recording the export/ },
    { name: 'report', args: () => ['report', '--template', 'summary', '--out', out('.html')], words: /hashing objects \d+|replaying the ledger/ },
  ];

  for (const c of cases) {
    it(`${c.name}: progress on a TTY, none with --json, none off a TTY`, async () => {
      const tty = await run(c.args(), env, true);
      expect(tty.code, tty.stderr).toBe(0);
      expect(tty.stderr).toMatch(c.words);
      expect(tty.stderr).toContain('\r\x1b[K');
      expect(tty.stdout).not.toContain('\r');
      const json = await run([...c.args(), '--json'], env, true);
      expect(json.code, json.stderr).toBe(0);
      expect(json.stderr).not.toMatch(c.words);
      expect(json.stderr).not.toContain('\r');
      const pipe = await run(c.args(), env, false);
      expect(pipe.code, pipe.stderr).toBe(0);
      expect(pipe.stderr).not.toMatch(c.words);
      expect(pipe.stderr).not.toContain('\r');
    }, 120_000);
  }
});
