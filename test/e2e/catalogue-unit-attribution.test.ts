// Units without numbers (issue 10): a text code ("AFI") or an alias ("جوية") read from a numbering
// scheme's text field, or named with --unit, attributes a subject; duplicates are refused; units
// are edited and retired, never deleted; counts follow the current attribution (and --at); and
// the index rebuilds byte for byte from the ledger. Also: an unregistered source is refused.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePointer } from '../../src/reports/report/footnotes.js';
import { custodyIn, withIndexDb } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

const SCHEME = {
  id: 'card',
  pattern: '{detainee}/{branch}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'text', regex: '[\\p{L}\\p{N}]{1,20}', registry: 'units' },
  },
};

interface Counts {
  attribution: string;
  by_unit: { unit: string; code: number | string | null; name_en: string | null; count: number }[];
  checkpoint: { tree_size: number };
}

describe('units with text codes', () => {
  let dir: string;
  let env: Record<string, string>;
  const cli = (...args: string[]) => custodyIn(args, env);
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const counts = async (...extra: string[]) =>
    JSON.parse((await ok('unit', 'counts', '--json', ...extra)).stdout) as Counts;
  const countOf = (c: Counts, code: number | string) => c.by_unit.find((u) => u.code === code)?.count;
  let afi = '';
  let subjectByAlias = '';

  beforeAll(async () => {
    dir = await makeTempDir('custody-unit-codes');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    await writeFile(join(dir, 'scheme.json'), JSON.stringify(SCHEME));
    await ok('init');
    await ok('scheme', 'add', join(dir, 'scheme.json'));
    const r = await ok(
      'unit', 'add', '--code', 'AFI', '--name-en', 'Air Force Intelligence', '--name-ar', 'المخابرات الجوية',
      '--alias', 'جوية', '--json',
    );
    afi = (JSON.parse(r.stdout) as { units: { id: string }[] }).units[0]?.id ?? '';
    await ok('unit', 'add', '--code', '215', '--name-en', 'Branch 215', '--name-ar', 'فرع ٢١٥');
  });

  it('attributes subjects through a text code, an alias and --unit, and counts the text-coded unit', async () => {
    await ok('subject', 'add', '--number', '1/AFI', '--reason', 'card');
    subjectByAlias = (await ok('subject', 'add', '--number', '2/جوية', '--reason', 'card')).stdout.trim().split(' ')[1] ?? '';
    await ok('subject', 'add', '--unit', 'afi', '--reason', 'no card, unit from the transfer list');
    await ok('subject', 'add', '--number', '3/٢١٥', '--reason', 'card');
    const c = await counts();
    expect(c.attribution).toMatch(/current attribution at tree size \d+/);
    expect(countOf(c, 'AFI')).toBe(3);
    expect(countOf(c, 215)).toBe(1);
    expect(c.by_unit.some((u) => u.unit === 'unattributed')).toBe(false);
    expect((await ok('unit', 'counts')).stdout).toContain('by unit (current attribution at tree size');
  });

  it('refuses a number, --unit, or both disagreeing, when the unit is unknown or conflicts', async () => {
    const unknown = await cli('subject', 'add', '--number', '4/XYZ', '--reason', 'card', '--json');
    expect(unknown.code).toBe(1);
    const noUnit = await cli('subject', 'add', '--unit', 'XYZ', '--reason', 'r', '--json');
    expect(noUnit.stderr).toContain('[UNIT_NOT_FOUND]');
    const conflict = await cli('subject', 'add', '--number', '5/AFI', '--unit', '215', '--reason', 'r', '--json');
    expect(conflict.stderr).toContain('[SUBJECT_UNIT_CONFLICT]');
  });

  it('refuses a duplicate unit name or alias unless --allow-duplicate-name', async () => {
    const dup = await cli('unit', 'add', '--code', 'AFI2', '--name-en', 'air force intelligence', '--json');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('[UNIT_IMPORT_REJECTED]');
    expect(dup.stderr).toContain('already a name, alias or code of unit AFI');
    const alias = await cli('unit', 'add', '--code', 'X9', '--name-en', 'Other', '--alias', 'جوية');
    expect(alias.code).toBe(1);
    const units = JSON.parse((await ok('unit', 'list', '--json')).stdout) as { code: unknown }[];
    expect(units.map((u) => u.code)).not.toContain('AFI2');
    await ok('unit', 'add', '--code', 'AFI2', '--name-en', 'Air Force Intelligence', '--allow-duplicate-name');
  });

  it('edits a unit with a reason, takes a text code as parent, and retires a unit without deleting it', async () => {
    const noReason = await cli('unit', 'edit', 'AFI2', '--name-en', 'Mistake');
    expect(noReason.code).toBe(2);
    await ok('unit', 'edit', 'AFI2', '--name-en', 'Registered twice by mistake', '--reason', 'duplicate of AFI');
    const dupEdit = await cli('unit', 'edit', 'AFI2', '--alias', 'جوية', '--reason', 'r', '--json');
    expect(dupEdit.stderr).toContain('[UNIT_DUPLICATE_NAME]');
    await ok('unit', 'add', '--code', 'AFI-X'.replace('-', ''), '--name-en', 'AFI investigations section', '--parent', 'AFI');
    const cycle = await cli('unit', 'edit', 'AFI', '--parent', 'AFIX', '--reason', 'r', '--json');
    expect(cycle.stderr).toContain('[UNIT_INVALID]');
    await ok('unit', 'retire', 'AFI2', '--reason', 'registered twice');
    const again = await cli('unit', 'retire', 'AFI2', '--reason', 'again', '--json');
    expect(again.stderr).toContain('[UNIT_RETIRED]');
    const use = await cli('subject', 'add', '--unit', 'AFI2', '--reason', 'r', '--json');
    expect(use.stderr).toContain('[UNIT_RETIRED]');
    const units = JSON.parse((await ok('unit', 'list', '--json')).stdout) as { code: unknown; retired_seq: number | null; parent_code: unknown }[];
    expect(units.find((u) => u.code === 'AFI2')?.retired_seq).toEqual(expect.any(Number));
    expect(units.find((u) => u.code === 'AFIX')?.parent_code).toBe('AFI');
    expect((await ok('unit', 'list')).stdout).toMatch(/AFI2 .*retired at entry \d+/);
  });

  it('counts by the current attribution, and by the attribution then with --at', async () => {
    const before = await counts();
    await ok('subject', 'edit', subjectByAlias, '--number', '2/215', '--reason', 'card re-read: branch 215');
    const after = await counts();
    expect(countOf(after, 'AFI')).toBe(2);
    expect(countOf(after, 215)).toBe(2);
    const then = await counts('--at', String(before.checkpoint.tree_size));
    expect(countOf(then, 'AFI')).toBe(3);
    const log = (await ok('log', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l) as { entry: { details: Record<string, unknown> } });
    const edit = log.at(-1)?.entry.details;
    expect(edit?.previous_unit_id).toBe(afi);
  });

  it('stats keep the strata as drawn and list the subjects whose unit changed after the frame', async () => {
    const drawn = JSON.parse((await ok('sample', 'draw', '--name', 'by-unit', '--over', 'subjects', '--method', 'stratified', '--by', 'unit', '--size', '4', '--seed', 'fixed', '--json')).stdout) as unknown;
    expect(drawn).toBeTruthy();
    const moved = (JSON.parse((await ok('subject', 'list', '--json')).stdout) as { id: string; number_normalised: string | null }[]).find((x) => x.number_normalised === '1/AFI');
    await ok('subject', 'edit', moved?.id ?? '', '--unit', '215', '--reason', 'transfer record: held by branch 215');
    const stats = JSON.parse((await ok('stats', 'by-unit', '--json')).stdout) as {
      unit_attribution: { breakdowns: string; strata: string; changed_after_frame: { subject: string; from: { code: unknown } | null; to: { code: unknown } | null }[] };
    };
    expect(stats.unit_attribution.breakdowns).toMatch(/current attribution at tree size/);
    expect(stats.unit_attribution.strata).toMatch(/as drawn/);
    const changed = stats.unit_attribution.changed_after_frame;
    expect(changed.map((c) => [c.subject, c.from?.code, c.to?.code])).toEqual([[moved?.id, 'AFI', 215]]);
    const text = (await ok('stats', 'by-unit')).stdout;
    expect(text).toContain('1 subject(s) changed unit after the frame was fixed');
    expect(text).toContain('Air Force Intelligence / المخابرات الجوية (AFI) → Branch 215');
    const show = JSON.parse((await ok('sample', 'show', 'by-unit', '--json')).stdout) as { cases: { case: string; stratum: string }[] };
    // A census of the four subjects: the moved one was drawn in the AFI stratum, and stays there.
    expect(show.cases).toHaveLength(4);
    expect(show.cases.find((c) => c.case === moved?.id)?.stratum).toBe(afi);
    const showText = (await ok('sample', 'show', 'by-unit')).stdout;
    expect(showText).toContain('[Air Force Intelligence / المخابرات الجوية (AFI)]');
    expect(showText).toContain('subject 1/AFI');
  });

  it('the tribunal report lists the subject whose unit changed after the frame, cited to stats --json', async () => {
    const stats = JSON.parse((await ok('stats', 'by-unit', '--json')).stdout) as Record<string, unknown> & { checkpoint: { tree_size: number } };
    const size = stats.checkpoint.tree_size;
    const out = join(dir, 'report.html');
    const r = JSON.parse((await ok('report', '--template', 'tribunal', '--at', String(size), '--out', out, '--json')).stdout) as {
      footnotes: { command: string[]; pointer: string; value: unknown }[];
    };
    const html = await readFile(out, 'utf8');
    expect(html).toContain('Subjects whose unit changed after the frame was fixed');
    expect(html).toContain('transfer record: held by branch 215');
    const cited = r.footnotes.filter((f) => f.pointer.startsWith('/unit_attribution/changed_after_frame/'));
    expect(cited.map((f) => f.pointer).sort()).toEqual(['/unit_attribution/changed_after_frame/0/subject', '/unit_attribution/changed_after_frame/length']);
    for (const f of cited) {
      expect(f.command).toEqual(['custody', 'stats', 'by-unit', '--at', String(size), '--json']);
      const again = JSON.parse((await ok(...f.command.slice(1))).stdout) as unknown;
      expect(resolvePointer(again, f.pointer), f.pointer).toEqual(f.value);
    }
    expect(cited.find((f) => f.pointer.endsWith('/length'))?.value).toBe(1);
  });

  it('rebuilds the index byte for byte, and verify finds it clean', async () => {
    const dump = () =>
      withIndexDb({ dir: env.CUSTODY_ARCHIVE ?? '', origin: '', verifierKey: '', env: {} }, async (db) => {
        const out: unknown[] = [];
        for (const t of ['units', 'subjects', 'subject_events', 'sources'])
          out.push(await db.rows(`select * from ${t} order by 1`));
        return JSON.stringify(out);
      });
    const before = await dump();
    await ok('rebuild');
    expect(await dump()).toBe(before);
    await ok('verify');
  });

  it('refuses to ingest from an unregistered source unless --new-source registers it', async () => {
    const photos = join(dir, 'photos');
    await mkdir(photos, { recursive: true });
    await writeFile(join(photos, 'a.bin'), 'photo a');
    const typo = await cli('ingest', photos, '--source', 'JASMNE', '--json');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('[SOURCE_NOT_REGISTERED]');
    expect((JSON.parse((await ok('items', '--json')).stdout) as unknown[]).length).toBe(0);
    expect((await ok('source', 'list')).stdout).not.toContain('JASMNE');
    await ok('ingest', photos, '--source', 'JASMINE', '--new-source');
    expect((await ok('source', 'list')).stdout).toContain('JASMINE');
    await ok('source', 'add', 'ORCHID');
    const second = join(dir, 'second');
    await mkdir(second);
    await writeFile(join(second, 'b.bin'), 'photo b');
    await ok('ingest', second, '--source', 'ORCHID');
    // subject add/link take photographs by path in a delivery, too
    const items = JSON.parse((await ok('items', '--json')).stdout) as { id: string; relative_path: string }[];
    const b = items.find((i) => i.relative_path.endsWith('b.bin'));
    const created = (await ok('subject', 'add', '--item', b?.relative_path ?? '', '--reason', 'by path')).stdout.trim().split(' ')[1] ?? '';
    const shown = JSON.parse((await ok('subject', 'show', created, '--json')).stdout) as { items: string[] };
    expect(shown.items).toEqual([b?.id]);
    const missing = await cli('subject', 'link', created, '--item', 'no/such.bin', '--reason', 'r');
    expect(missing.stderr).toContain('no item at no/such.bin');
  });
});
