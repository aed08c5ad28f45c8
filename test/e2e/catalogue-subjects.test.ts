// Subjects through the CLI: numbers read in any digit system, refused when a field mixes two,
// duplicates caught, merge and split with reasons, a history per subject, and the ledger as the
// record (rebuild gives back every table).
// The CLI runs in-process (runCli: the output and exit code the binary gives, without a process
// per command); no exit code of the binary itself is under test here.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCustodyInProcess as runCustody } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const SCHEME = {
  id: 'caesar-card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
};

describe('custody subject', () => {
  let env: Record<string, string>;
  let items: string[] = [];
  const cli = (...args: string[]) => runCustody(args, { env });

  beforeAll(async () => {
    const dir = await makeTempDir('custody-subjects');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    await writeFile(join(dir, 'scheme.json'), JSON.stringify(SCHEME));
    const src = join(dir, 'photos');
    await import('node:fs/promises').then((fs) => fs.mkdir(src));
    for (let i = 0; i < 4; i++) await writeFile(join(src, `p${i}.bin`), `photo ${i}`);
    expect((await cli('init')).code).toBe(0);
    expect((await cli('ingest', src, '--source', 'KITE', '--new-source')).code).toBe(0);
    items = (JSON.parse((await cli('items', '--json')).stdout) as { id: string }[]).map(
      (i) => i.id,
    );
    expect(
      (await cli('unit', 'add', '--name-en', 'Branch 215', '--name-ar', 'فرع ٢١٥', '--code', '215'))
        .code,
    ).toBe(0);
    expect((await cli('scheme', 'add', join(dir, 'scheme.json'))).code).toBe(0);
  });

  it('reads a number written in Arabic-Indic digits and attributes the subject to its unit', async () => {
    const r = await cli(
      'subject',
      'add',
      '--number',
      '\u200f٣٢١٥ / ٢١٥ / ٢٠١٣',
      '--sex',
      'male',
      '--age-band',
      '18-29',
      '--item',
      items[0] ?? '',
      '--reason',
      'card legible',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout) as string;
    const s = JSON.parse((await cli('subject', 'show', id, '--json')).stdout) as {
      number_normalised: string;
      unit_id: string | null;
      fields: Record<string, number>;
      items: string[];
    };
    expect(s.number_normalised).toBe('3215/215/2013');
    expect(s.fields).toEqual({ detainee: 3215, branch: 215, report: 2013 });
    expect(s.unit_id).not.toBeNull();
    expect(s.items).toEqual([items[0]]);
  });

  it('refuses a field that mixes digit systems, an unknown unit, and a duplicate number, writing nothing', async () => {
    const before = (await cli('log', '--json')).stdout;
    const mixed = await cli('subject', 'add', '--number', '٣٢1٥/215/2013', '--reason', 'x');
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/mixes digit systems/);
    const unknownUnit = await cli('subject', 'add', '--number', '1/999/1', '--reason', 'x');
    expect(unknownUnit.code).toBe(1);
    const duplicate = await cli('subject', 'add', '--number', '3215/215/2013', '--reason', 'x');
    expect(duplicate.stderr).toContain('SUBJECT_NUMBER_TAKEN');
    const noReason = await cli('subject', 'add', '--number', '7/215/1');
    expect(noReason.code).toBe(2);
    expect((await cli('log', '--json')).stdout).toBe(before);
  });

  it('merges two records of one person and splits a record of two, each with its reason in the history', async () => {
    const list = () =>
      cli('subject', 'list', '--json').then(
        (r) => JSON.parse(r.stdout) as { id: string; status: string; number_normalised: string }[],
      );
    const a = (await list())[0]?.id ?? '';
    const b = JSON.parse(
      (
        await cli(
          'subject',
          'add',
          '--number',
          '3216/215/2013',
          '--item',
          items[1] ?? '',
          '--item',
          items[2] ?? '',
          '--reason',
          'second card',
          '--json',
        )
      ).stdout,
    ) as string;
    expect(
      (await cli('subject', 'merge', b, '--into', a, '--reason', 'same person, two cards')).code,
    ).toBe(0);
    const merged = JSON.parse((await cli('subject', 'show', a, '--json')).stdout) as {
      items: string[];
    };
    expect(merged.items.sort()).toEqual([items[0], items[1], items[2]].sort());
    expect((await list()).find((s) => s.id === b)?.status).toBe('merged');
    const split = await cli(
      'subject',
      'split',
      a,
      '--item',
      items[2] ?? '',
      '--sex',
      'female',
      '--reason',
      'a second body in the frame',
      '--json',
    );
    expect(split.code, split.stderr).toBe(0);
    const history = JSON.parse((await cli('subject', 'history', a, '--json')).stdout) as {
      action: string;
      reason: string;
      actor: string;
    }[];
    expect(history.map((h) => [h.action, h.reason])).toEqual([
      ['subject.create', 'card legible'],
      ['subject.merge', 'same person, two cards'],
      ['subject.split', 'a second body in the frame'],
    ]);
    expect(history.every((h) => h.actor === 'test-operator')).toBe(true);
    const taken = await cli(
      'subject',
      'link',
      JSON.parse(split.stdout) as string,
      '--item',
      items[0] ?? '',
      '--reason',
      'x',
    );
    expect(taken.stderr).toContain('SUBJECT_ITEM_TAKEN');
  });

  it('rebuilds every catalogue table from the ledger, and verifies', async () => {
    const dump = async () =>
      [
        (await cli('subject', 'list', '--json')).stdout,
        (await cli('unit', 'list', '--json')).stdout,
        (await cli('scheme', 'list', '--json')).stdout,
      ].join('\n');
    const before = await dump();
    expect((await cli('rebuild')).code).toBe(0);
    expect(await dump()).toBe(before);
    expect((await cli('verify')).code).toBe(0);
  });
});
