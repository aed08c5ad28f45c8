// The unit registry through the CLI: all-or-nothing imports with per-row errors, --valid-only,
// formula-safe CSV export that re-imports, Arabic names kept exactly, and a rebuild that restores it.
// The CLI runs in-process (runCli: the output and exit code the binary gives, without a process
// per command); no exit code of the binary itself is under test here.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCustodyInProcess as runCustody } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

describe('custody unit', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await makeTempDir('custody-units');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    expect((await runCustody(['init'], { env })).code).toBe(0);
  });

  const csv =
    'code,name_en,name_ar,aliases,parent_code\n215,Military Intelligence Branch 215,فرع ٢١٥,Raids Company;Branch 215,\n227,Branch 227,,,215\nX/1,Bad code,,,\n248,Branch 248,,,999\n';

  it('refuses the whole import when any row is wrong, listing row, column and reason', async () => {
    await writeFile(join(dir, 'units.csv'), csv);
    const r = await runCustody(['unit', 'import', join(dir, 'units.csv')], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('UNIT_IMPORT_REJECTED');
    expect(r.stderr).toMatch(/row 4, code: .*X\/1/);
    expect(r.stderr).toMatch(/row 5, parent_code: no unit with code 999/);
    expect(JSON.parse((await runCustody(['unit', 'list', '--json'], { env })).stdout)).toEqual([]);
  });

  it('imports only the valid rows when asked, reporting the rest', async () => {
    const r = await runCustody(
      ['unit', 'import', join(dir, 'units.csv'), '--valid-only', '--json'],
      { env },
    );
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      imported: number;
      skipped: { row: number; column: string }[];
    };
    expect(out.imported).toBe(2);
    expect(out.skipped.map((s) => [s.row, s.column])).toEqual([
      [4, 'code'],
      [5, 'parent_code'],
    ]);
    const units = JSON.parse((await runCustody(['unit', 'list', '--json'], { env })).stdout) as {
      code: number;
      name_ar: string | null;
      aliases: string[];
      parent_code: number | null;
    }[];
    expect(units.map((u) => u.code)).toEqual([215, 227]);
    expect(units[0]?.name_ar).toBe('فرع ٢١٥');
    expect(units[0]?.aliases).toEqual(['Branch 215', 'Raids Company']);
    expect(units[1]?.parent_code).toBe(215);
  });

  it('exports CSV that spreadsheets cannot execute, and that imports into another archive', async () => {
    expect(
      (
        await runCustody(['unit', 'add', '--name-en', '=HYPERLINK("http://x")', '--code', '300'], {
          env,
        })
      ).code,
    ).toBe(0);
    const out = join(dir, 'export.csv');
    expect(
      (await runCustody(['unit', 'export', '--format', 'csv', '--out', out], { env })).code,
    ).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(text).toContain('فرع ٢١٥');
    const other = { CUSTODY_ARCHIVE: join(dir, 'other') };
    expect((await runCustody(['init'], { env: other })).code).toBe(0);
    expect((await runCustody(['unit', 'import', out], { env: other })).code).toBe(0);
    const copied = JSON.parse(
      (await runCustody(['unit', 'list', '--json'], { env: other })).stdout,
    ) as { code: number; name_en: string }[];
    expect(copied.map((u) => u.code)).toEqual([215, 227, 300]);
  });

  it('refuses a code that is already registered', async () => {
    const r = await runCustody(['unit', 'add', '--name-en', 'Again', '--code', '215'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already registered/);
  });

  it('keeps the registry in the ledger: rebuild restores it and verify agrees', async () => {
    const before = (await runCustody(['unit', 'list', '--json'], { env })).stdout;
    expect((await runCustody(['rebuild'], { env })).code).toBe(0);
    expect((await runCustody(['unit', 'list', '--json'], { env })).stdout).toBe(before);
    expect((await runCustody(['verify'], { env })).code).toBe(0);
  });
});
