// Issue 10, atomic batches: `examine submit --forms` and `adjudicate --batch` check every line
// before writing, write one ledger batch, name line, case and field of every problem, and skip the
// lines already recorded identically, so a corrected file can be run again. Also: the CSV answer
// sheet round trip, the readable form, and an adjudicator setting the regions that follow from a
// decided value. In-process CLI on a small sample over items.
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CODEBOOK } from '../../src/examination/codebook/index.js';
import { custodyIn, custodyInExpect, ledgerPath } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

type Form = { sex: string; age_band: string; findings: Record<string, { value: string; regions?: string[] }>; notes?: string };

function form(overrides: Record<string, { value: string; regions?: string[] }> = {}, age = '30-39'): Form {
  const findings: Form['findings'] = {};
  for (const f of DEFAULT_CODEBOOK.findings) findings[f.code] = { value: 'absent' };
  return { sex: 'male', age_band: age, findings: { ...findings, ...overrides } };
}

describe('examination batches are all or nothing, and re-runnable', () => {
  let dir: string;
  let env: Record<string, string>;
  let cases: string[] = [];
  const as = (actor: string, ...args: string[]) => custodyIn(args, { ...env, CUSTODY_ACTOR: actor });
  const ok = async (actor: string, ...args: string[]) => {
    const r = await as(actor, ...args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const ledger = () => readFile(ledgerPath(join(dir, 'archive')));
  const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

  beforeAll(async () => {
    dir = await makeTempDir('custody-batches');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (let i = 0; i < 6; i++)
      await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 40 * i, g: 255 - 40 * i, b: 90 } } }).png().toFile(join(photos, `p${i}.png`));
    await ok('registrar', 'init');
    await ok('registrar', 'ingest', photos, '--source', 'KITE', '--new-source');
    await ok('registrar', 'analyze');
    const drawn = JSON.parse((await ok('statistician', 'sample', 'draw', '--name', 'm', '--over', 'items', '--size', '4', '--json')).stdout) as { members: string[] };
    cases = drawn.members;
    await ok('coordinator', 'examine', 'assign', 'm', '--examiners', 'dr-a,dr-b');
  }, 120_000);

  it('a bad line in --forms writes nothing and is named by line, case and field; the corrected file completes; a re-run skips', async () => {
    const rows = cases.map((c) => ({ case: c, form: form() }));
    const bad = structuredClone(rows);
    (bad[2] as { form: Form }).form.findings.burns = { value: 'maybe' };
    await writeFile(join(dir, 'a-bad.jsonl'), jsonl(bad));
    const before = await ledger();
    const r = await as('dr-a', 'examine', 'submit', 'm', '--forms', join(dir, 'a-bad.jsonl'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[FORM_INVALID]');
    expect(r.stderr).toContain(`line 3, case ${cases[2]}, findings.burns.value: expected present|absent|cannot_assess`);
    expect(r.stderr).not.toContain('undefined');
    expect((await ledger()).equals(before)).toBe(true);

    // Corrected: lines 1-2 are fine, line 3 corrected; all four go in one ledger batch.
    await writeFile(join(dir, 'a.jsonl'), jsonl(rows));
    const first = JSON.parse((await ok('dr-a', 'examine', 'submit', 'm', '--forms', join(dir, 'a.jsonl'), '--json')).stdout) as { submitted: unknown[]; skipped: unknown[] };
    expect(first.submitted).toHaveLength(4);
    expect(first.skipped).toHaveLength(0);
    const again = await ok('dr-a', 'examine', 'submit', 'm', '--forms', join(dir, 'a.jsonl'));
    expect(again.stdout).toContain('0 sealed answer(s) submitted');
    expect(again.stdout).toContain('4 line(s) skipped');
  });

  it('a line that differs from the answer already sealed is refused with its line and case, and nothing is written', async () => {
    const rows = cases.map((c) => ({ case: c, form: form() }));
    (rows[1] as { form: Form }).form.age_band = '40-49';
    await writeFile(join(dir, 'a-changed.jsonl'), jsonl(rows));
    const before = await ledger();
    const r = await as('dr-a', 'examine', 'submit', 'm', '--forms', join(dir, 'a-changed.jsonl'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[EXAMINATION_ALREADY_SUBMITTED]');
    expect(r.stderr).toContain(`line 2, case ${cases[1]}:`);
    expect(r.stderr).not.toContain('30-39'); // the sealed answer is never shown
    expect((await ledger()).equals(before)).toBe(true);
  });

  it('reads the readable form, and the CSV answer sheet comes back through --forms', async () => {
    const sheet = (await ok('dr-b', 'examine', 'form', 'm', cases[0] ?? '')).stdout;
    expect(sheet).toContain('findings.burns.value');
    expect(sheet).toContain('Photographs');
    expect(sheet).toContain(DEFAULT_CODEBOOK.findings[0]?.label ?? '?');
    expect(sheet).not.toContain('{');
    const previews = sheet.match(/\S+\.256\.blurred\.webp/g) ?? [];
    expect(previews).toHaveLength(1);
    expect(existsSync(previews[0] ?? '')).toBe(true);
    const plain = (await ok('dr-b', 'examine', 'form', 'm', cases[0] ?? '', '--unblurred')).stdout;
    expect(plain).toMatch(/\S+\.256\.webp/);
    await ok('dr-b', 'examine', 'form', 'm', '--csv', '--out', join(dir, 'b.csv'));
    const blank = await readFile(join(dir, 'b.csv'), 'utf8');
    const [header, ...lines] = blank.trim().split(/\r?\n/);
    const cols = (header ?? '').split(',');
    expect(lines).toHaveLength(4);
    // dr-b fills it in: burns cannot be assessed on case 0 (dr-a said absent), and a bad age on row 3.
    const filled = lines.map((line, i) => {
      const cells = line.split(',');
      return cols.map((c, k) => {
        if (c === 'case') return cells[k];
        if (c === 'sex') return 'male';
        if (c === 'age_band') return i === 2 ? 'old' : '30-39';
        if (c === 'findings.burns.value') return i === 0 ? 'cannot_assess' : 'absent';
        if (c.endsWith('.value')) return 'absent';
        return '';
      }).join(',');
    });
    await writeFile(join(dir, 'b-bad.csv'), [header, ...filled].join('\n') + '\n');
    const before = await ledger();
    const r = await as('dr-b', 'examine', 'submit', 'm', '--forms', join(dir, 'b-bad.csv'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`line 4, case ${cases[2]}, age_band:`);
    expect((await ledger()).equals(before)).toBe(true);
    filled[2] = (filled[2] ?? '').replace(',old,', ',30-39,');
    await writeFile(join(dir, 'b.csv'), [header, ...filled].join('\n') + '\n', { flag: 'w' });
    const done = await ok('dr-b', 'examine', 'submit', 'm', '--forms', join(dir, 'b.csv'));
    expect(done.stdout).toContain('4 sealed answer(s) submitted; 4 case(s) complete and revealed');
  });

  it('adjudicate --batch: a bad line writes nothing; the corrected batch sets the regions that follow from "present"', async () => {
    const list = JSON.parse((await ok('dr-c', 'adjudicate', 'm', '--list', '--json')).stdout) as { cases: { case: string; disagreements: { field: string }[] }[] };
    expect(list.cases.map((c) => c.case)).toEqual([cases[0]]);
    expect(list.cases[0]?.disagreements.map((d) => d.field)).toEqual(['findings.burns.value']);
    const decisions = [
      { field: 'findings.burns.value', value: 'present', reason: 'visible on the left forearm at full size' },
      { field: 'findings.burns.regions', value: 'upper_limbs', reason: 'left forearm' },
    ];
    const region = DEFAULT_CODEBOOK.regions.find((x) => x.code === 'upper_limbs') ?? DEFAULT_CODEBOOK.regions[0];
    decisions[1]!.value = region?.code ?? '';
    const badBatch = [{ case: cases[0], decisions: [decisions[0]] }, { case: 'no-such-case', decisions }];
    await writeFile(join(dir, 'adj-bad.json'), JSON.stringify(badBatch, null, 2));
    const before = await ledger();
    const r = await as('dr-c', 'adjudicate', 'm', '--batch', join(dir, 'adj-bad.json'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`line 2, case ${cases[0]}, findings.burns.regions:`);
    expect(r.stderr).toMatch(/line \d+, case no-such-case, case: .*\[EXAMINATION_CASE_NOT_FOUND\]/);
    expect(r.stderr).not.toContain('undefined');
    expect((await ledger()).equals(before)).toBe(true);

    await writeFile(join(dir, 'adj.jsonl'), `${JSON.stringify({ case: cases[0], decisions })}\n`);
    await ok('dr-c', 'adjudicate', 'm', '--batch', join(dir, 'adj.jsonl'));
    const show = JSON.parse((await ok('reader', 'examine', 'show', 'm', cases[0] ?? '', '--json')).stdout) as { final: Form; status: string };
    expect(show.status).toBe('final');
    expect(show.final.findings.burns).toEqual({ value: 'present', regions: [region?.code] });
    const rerun = await ok('dr-c', 'adjudicate', 'm', '--batch', join(dir, 'adj.jsonl'));
    expect(rerun.stdout).toContain('0 case(s) adjudicated; 1 skipped');
  });

  it('verifies clean afterwards', async () => {
    await custodyInExpect(0, ['verify', '--archive', join(dir, 'archive')]);
  });
});
