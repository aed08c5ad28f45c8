// Issue 9, finding 12d: impossible dates (2013-02-31) were accepted. Dates are now checked as
// calendar dates wherever one is typed or imported: `subject add`/`update` flags and the CSV and
// JSON imports. Nothing is recorded for a refused date.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

describe('dates are calendar dates (issue 9, 12d)', () => {
  let dir: string;
  let env: Record<string, string>;
  const ledgerSize = async (): Promise<number> => (await custodyInExpect(0, ['log', '--json'], env)).stdout.trim().split('\n').length;

  beforeAll(async () => {
    dir = await makeTempDir('custody-dates');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive'), CUSTODY_ACTOR: 'registrar' };
    await custodyInExpect(0, ['init'], env);
  });

  it('subject add refuses 2013-02-31, 2013-02-29 and 2013-13 with SUBJECT_INVALID, recording nothing', async () => {
    const before = await ledgerSize();
    for (const [flag, value] of [['--date-of-death', '2013-02-31'], ['--date-of-photography', '2013-02-29'], ['--date-of-death', '2013-13'], ['--date-of-death', '2013-04-31']]) {
      const r = await custodyIn(['subject', 'add', flag!, value!, '--reason', 'card 12'], env);
      expect(r.code, `${flag} ${value}`).toBe(1);
      expect(r.stderr).toContain('[SUBJECT_INVALID]');
    }
    expect(await ledgerSize()).toBe(before);
    // A real leap day, and a date known only to the month, are accepted.
    await custodyInExpect(0, ['subject', 'add', '--date-of-death', '2012-02-29', '--date-of-photography', '2012-03', '--reason', 'card 13'], env);
    expect(await ledgerSize()).toBe(before + 1);
  });

  it('CSV and JSON imports refuse the row with the impossible date, naming row and column', async () => {
    const before = await ledgerSize();
    await writeFile(join(dir, 's.csv'), 'sex,date_of_death\nmale,2013-02-28\nfemale,2013-02-31\n');
    const csv = await custodyIn(['subject', 'import', join(dir, 's.csv'), '--reason', 'cards', '--json'], env);
    expect(csv.code).toBe(1);
    expect(csv.stderr).toContain('[SUBJECT_IMPORT_REJECTED]');
    expect(csv.stderr).toMatch(/row 3, date_of_death: date_of_death must be a real date/);
    await writeFile(join(dir, 's.json'), JSON.stringify([{ sex: 'male', date_of_photography: '2014-06-31' }]));
    const json = await custodyIn(['subject', 'import', join(dir, 's.json'), '--reason', 'cards'], env);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('date_of_photography must be a real date');
    expect(await ledgerSize()).toBe(before);
  });
});
