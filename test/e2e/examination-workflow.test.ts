// The whole examination workflow through the CLI, as issue 4 asks: 300 generated subjects, a
// stratified sample of 150 drawn honestly (frame → seed → manifest, re-drawn by an independent
// Python script), two examiners who disagree realistically, sealed commitments and their reveal,
// adjudication, agreement, prevalence with intervals, a chart, and statistics that come back byte
// for byte after `custody rebuild` and `--at` a later tree size. Blindness is tried through every
// command an examiner could use.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalize, type JsonValue } from '../../src/core/canonical-json.js';
import {
  checkpointSizes,
  custodyIn,
  readLedgerLines,
  resignCheckpoints,
  writeLedgerLines,
} from '../support/archive-fixtures.js';
import { cp } from 'node:fs/promises';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';
import { decideFromTruth, examinerForm, SCHEME, truth, UNITS, worldSubjects, type WorldSubject } from '../../src/demo/examination-world.js';

const SECRET_NOTE = 'A-ONLY-NOTE-7f3a: examiner A wrote this before B submitted';

interface LogEntry {
  seq: number;
  actor: string;
  type: string;
  details: Record<string, JsonValue> & { action?: string; case?: string; examiner?: string; seed?: string; sealed?: string; commitment?: string };
}

describe('examination workflow (300 subjects, stratified sample of 150, two examiners)', () => {
  let dir: string;
  let env: Record<string, string>;
  const subjects = worldSubjects(300);
  const bySubjectId = new Map<string, WorldSubject>();
  let cases: string[] = [];
  const run = (actor: string, ...args: string[]) => custodyIn(args, { ...env, CUSTODY_ACTOR: actor });
  const ok = async (actor: string, ...args: string[]) => {
    const r = await run(actor, ...args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const log = async (): Promise<LogEntry[]> =>
    (await ok('reader', 'log', '--json')).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: LogEntry }).entry);

  beforeAll(async () => {
    dir = await makeTempDir('custody-exam');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    const photos = join(dir, 'photos');
    await import('node:fs/promises').then((fs) => fs.mkdir(photos));
    for (const s of subjects) await writeFile(join(photos, `img-${String(s.index).padStart(3, '0')}.bin`), `synthetic photograph ${s.index}`);
    await ok('registrar', 'init');
    await ok('registrar', 'ingest', photos, '--source', 'KITE', '--new-source');
    const items = (JSON.parse((await ok('registrar', 'items', '--json')).stdout) as { id: string; name: string }[]).sort((a, b) => a.name.localeCompare(b.name));
    await writeFile(join(dir, 'units.csv'), `code,name_en,name_ar\n${UNITS.map((x) => `${x.code},${x.name_en},${x.name_ar}`).join('\n')}\n`);
    await ok('registrar', 'unit', 'import', join(dir, 'units.csv'));
    await writeFile(join(dir, 'scheme.json'), JSON.stringify(SCHEME));
    await ok('registrar', 'scheme', 'add', join(dir, 'scheme.json'));
    const csv = ['number,sex,age_band,date_of_death,items', ...subjects.map((s) => `${s.number},${s.sex},${s.ageBand},${s.dateOfDeath},${items[s.index]?.id ?? ''}`)].join('\n');
    await writeFile(join(dir, 'subjects.csv'), `${csv}\n`);
    const imported = JSON.parse((await ok('registrar', 'subject', 'import', join(dir, 'subjects.csv'), '--reason', 'catalogue cards transcribed', '--json')).stdout) as { imported: number; ids: string[] };
    expect(imported.imported).toBe(300);
    imported.ids.forEach((id, i) => bySubjectId.set(id, subjects[i] as WorldSubject));
  }, 240_000);

  it('draws a stratified sample in three entries that an independent script re-draws exactly', async () => {
    const drawn = JSON.parse(
      (await ok('statistician', 'sample', 'draw', '--name', 'main', '--over', 'subjects', '--method', 'stratified', '--by', 'unit', '--size', '150', '--json')).stdout,
    ) as { members: string[]; entries: { frame: number; seed: number; manifest: number }; frame_digest: string; seed: string; manifest_digest: string };
    expect(drawn.members).toHaveLength(150);
    expect(drawn.entries.seed).toBe(drawn.entries.frame + 1); // the seed is fixed after the frame is frozen
    expect(drawn.entries.manifest).toBe(drawn.entries.seed + 1);
    cases = drawn.members;
    const entries = await log();
    const frame = entries.find((e) => e.details.action === 'sample.frame');
    const seed = entries.find((e) => e.details.action === 'sample.seed');
    const manifest = entries.find((e) => e.details.action === 'sample.manifest');
    expect(frame?.details.frame_size).toBe(300);
    expect(frame?.details.frame_digest).toBe(drawn.frame_digest); // the frozen frame is the one drawn from
    // Outsider: only the ledger entries and the procedure's reference script.
    const strata = frame?.details.strata as { name: string; units: string[] }[];
    await writeFile(join(dir, 'strata.csv'), strata.flatMap((s) => s.units.map((id) => `${s.name},${id}`)).join('\n') + '\n');
    const py = spawnSync('python3', [join(REPO_ROOT, 'scripts/redraw-sample.py'), '--strata', join(dir, 'strata.csv'), '--seed', seed?.details.seed ?? '', '--n', '150', '--digests'], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const lines = py.stdout.trim().split('\n');
    expect(lines.join('\n')).toContain(drawn.frame_digest);
    expect(lines.join('\n')).toContain(drawn.manifest_digest);
    expect(lines.slice(-150)).toEqual(manifest?.details.members);
    // Stratified by unit: every sampled subject's stratum is its unit.
    const show = JSON.parse((await ok('reader', 'sample', 'show', 'main', '--json')).stdout) as { cases: { case: string; stratum: string }[]; strata: { name: string; frame_size: number }[] };
    expect(show.strata.reduce((n, s) => n + s.frame_size, 0)).toBe(300);
  }, 120_000);

  it('keeps answers sealed until the last examiner submits, through every command', async () => {
    await ok('coordinator', 'examine', 'assign', 'main', '--examiners', 'examiner-a,examiner-b');
    // The form shows images and codebook, not the number, the unit or the date.
    const form = (await ok('examiner-b', 'examine', 'form', 'main', cases[0] ?? '', '--json')).stdout;
    const sheet = (await ok('examiner-b', 'examine', 'form', 'main', cases[0] ?? '')).stdout;
    const s0 = bySubjectId.get(cases[0] ?? '') as WorldSubject;
    expect(form).toContain('"findings"');
    // Digests and ids are random-looking text that can hold a unit code by chance ("…0215bd…"): leave them out.
    const shown = (form + sheet).replace(/[0-9a-f]{64}|[0-9A-Z]{26}/g, '');
    for (const hidden of [s0.number, s0.dateOfDeath, String(s0.unitCode), 'Branch']) expect(shown).not.toContain(hidden);
    // A form for someone else's case is refused.
    const notMine = await run('examiner-z', 'examine', 'form', 'main', cases[0] ?? '');
    expect(notMine.code).toBe(1);
    expect(notMine.stderr).toContain('EXAMINATION_NOT_ASSIGNED');

    const formsA = cases.map((c) => JSON.stringify({ case: c, form: examinerForm(bySubjectId.get(c) as WorldSubject, 'A', 0.06, SECRET_NOTE) }));
    await writeFile(join(dir, 'a.jsonl'), `${formsA.join('\n')}\n`);
    await ok('examiner-a', 'examine', 'submit', 'main', '--forms', join(dir, 'a.jsonl'));

    // B, before submitting, tries every door.
    const attempts: string[][] = [
      ['examine', 'show', 'main', cases[0] ?? '', '--json'],
      ['examine', 'status', 'main', '--json'],
      ['adjudicate', 'main', cases[0] ?? '', '--list', '--json'],
      ['agreement', '--sample', 'main', '--json'],
      ['stats', 'main', '--json'],
      ['log', '--json'],
      ['sample', 'show', 'main', '--json'],
      ['subject', 'show', cases[0] ?? '', '--json'],
      ['show', '1', '--json'],
    ];
    for (const args of attempts) {
      const r = await run('examiner-b', ...args);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(SECRET_NOTE);
      expect(r.stdout, args.join(' ')).not.toMatch(/"(emaciation|blunt_force_injury)":\{"value"/);
    }
    const sealed = await run('examiner-b', 'examine', 'show', 'main', cases[0] ?? '');
    expect(sealed.code).toBe(1);
    expect(sealed.stderr).toContain('EXAMINATION_SEALED');
    const early = await run('adjudicator-c', 'adjudicate', 'main', cases[0] ?? '', '--set', 'sex=male', '--reason', 'too early');
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('EXAMINATION_CASE_UNFINISHED');
    const stats = JSON.parse((await ok('examiner-b', 'stats', 'main', '--json')).stdout) as { cases: { final: number; revealed: number } };
    expect(stats.cases).toMatchObject({ final: 0, revealed: 0 });
    // A cannot change a sealed answer.
    const again = await run('examiner-a', 'examine', 'submit', 'main', cases[0] ?? '', '--form', join(dir, 'a.jsonl'));
    expect(again.code).not.toBe(0);

    const formsB = cases.map((c) => JSON.stringify({ case: c, form: examinerForm(bySubjectId.get(c) as WorldSubject, 'B', 0.09) }));
    await writeFile(join(dir, 'b.jsonl'), `${formsB.join('\n')}\n`);
    const b = JSON.parse((await ok('examiner-b', 'examine', 'submit', 'main', '--forms', join(dir, 'b.jsonl'), '--json')).stdout) as { submitted: { revealed: boolean }[] };
    expect(b.submitted.every((s) => s.revealed)).toBe(true);
  }, 240_000);

  it('records commitments that the revealed answers and salts open, checked without Custody code', async () => {
    const entries = await log();
    const commits = new Map(entries.filter((e) => e.details.action === 'examination.submit').map((e) => [`${e.details.case ?? ''}/${e.details.examiner ?? ''}`, e]));
    const reveals = entries.filter((e) => e.details.action === 'examination.reveal');
    expect(commits.size).toBe(300);
    expect(reveals).toHaveLength(150);
    for (const r of reveals) {
      for (const a of r.details.answers as { examiner: string; answer: JsonValue; salt: string }[]) {
        const c = commits.get(`${r.details.case ?? ''}/${a.examiner}`);
        expect(c?.actor).toBe(a.examiner);
        expect(c?.seq).toBeLessThan(r.seq);
        // commitment = SHA-256(JCS(answer) || salt bytes)
        const digest = createHash('sha256').update(canonicalize(a.answer)).update(Buffer.from(a.salt, 'hex')).digest('hex');
        expect(digest).toBe(c?.details.commitment);
        // The sealed copy in the commit entry is ciphertext: it does not carry the answer in clear.
        expect(c?.details.sealed ?? '').not.toContain('present');
      }
    }
  });

  it('adjudicates every disagreement, with reasons, by someone who did not examine the case', async () => {
    const status = JSON.parse((await ok('reader', 'examine', 'status', 'main', '--json')).stdout) as { cases: { case: string; status: string; disagreements: number }[] };
    const disputed = status.cases.filter((c) => c.status === 'awaiting_adjudication');
    // Realistic: most cases have at least one disagreement across 14 fields, not all.
    expect(disputed.length).toBeGreaterThan(20);
    expect(disputed.length).toBeLessThan(150);
    const selfJudged = await run('examiner-a', 'adjudicate', 'main', disputed[0]?.case ?? '', '--set', 'sex=male', '--reason', 'mine');
    expect(selfJudged.stderr).toContain('EXAMINATION_ADJUDICATOR_IS_EXAMINER');
    const pending = JSON.parse((await ok('adjudicator-c', 'adjudicate', 'main', '--list', '--json')).stdout) as { cases: { case: string; disagreements: { field: string; values: { value: string }[] }[] }[] };
    expect(pending.cases.map((c) => c.case).sort()).toEqual(disputed.map((c) => c.case).sort());
    const batch = pending.cases.map((c) => ({
      case: c.case,
      decisions: decideFromTruth(bySubjectId.get(c.case) as WorldSubject, c.disagreements, 'second review of the photographs at full resolution'),
    }));
    await writeFile(join(dir, 'adjudication.json'), JSON.stringify(batch));
    await ok('adjudicator-c', 'adjudicate', 'main', '--batch', join(dir, 'adjudication.json'));
    const after = JSON.parse((await ok('reader', 'examine', 'status', 'main', '--json')).stdout) as { cases: { status: string }[] };
    expect(after.cases.every((c) => c.status === 'final')).toBe(true);
  }, 240_000);

  let statsText = '';
  let statsSize = 0;
  it('computes prevalence with intervals, breakdowns and agreement, and draws the chart', async () => {
    const charts = join(dir, 'charts');
    const r = await ok('statistician', 'stats', 'main', '--json', '--charts', charts);
    statsText = r.stdout;
    const stats = JSON.parse(statsText) as {
      checkpoint: { tree_size: number; root: string };
      code_version: string;
      codebook: { version: string; digest: string };
      sample: { method: string; frame_digest: string; seed: string; manifest_digest: string };
      cases: { final: number };
      findings: { code: string; present: number; absent: number; cannot_assess: number; assessed: number; stratified: { estimate: number; interval: { method: string; lower: number; upper: number } } | null; sentence: string; breakdowns: Record<string, { key: string; present: number }[]>; agreement: { coefficients: { name: string; value: number | null }[] } | null }[];
    };
    statsSize = stats.checkpoint.tree_size;
    expect(stats.cases.final).toBe(150);
    expect(stats.code_version).toMatch(/^custody \d/);
    expect(stats.codebook.version).toBe('custody-forensic-v2');
    expect(stats.sample.method).toBe('stratified');
    // Adjudicated to the truth, so the counts are the truth's over the sample.
    const emaciation = stats.findings.find((f) => f.code === 'emaciation');
    // Where both examiners made the same mistake there was nothing to adjudicate: realistic.
    const truthValues = cases.map((c) => {
      const s = bySubjectId.get(c) as WorldSubject;
      const a = (examinerForm(s, 'A', 0.06) as { findings: Record<string, { value: string }> }).findings.emaciation?.value;
      const b = (examinerForm(s, 'B', 0.09) as { findings: Record<string, { value: string }> }).findings.emaciation?.value;
      return a === b ? a : truth(s).emaciation;
    });
    expect(emaciation?.present).toBe(truthValues.filter((v) => v === 'present').length);
    expect(emaciation?.cannot_assess).toBe(truthValues.filter((v) => v === 'cannot_assess').length);
    expect(emaciation?.assessed).toBe(150 - (emaciation?.cannot_assess ?? 0));
    expect(emaciation?.stratified?.interval.method).toMatch(/Wilson/);
    expect(emaciation?.stratified?.interval.lower).toBeLessThan(emaciation?.stratified?.estimate ?? 0);
    expect(emaciation?.sentence).toMatch(/^\d+ of \d+ examined individuals \(weighted estimate \d+% of the \d+ catalogued subjects in the covered strata; 95% CI \d+–\d+%\) showed emaciation/);
    // The population is named: every stratum entered the estimate, so it covers the whole frame of 300.
    expect(emaciation?.stratified).toMatchObject({ covered_population: 300, frame_population: 300 });
    expect(emaciation?.breakdowns.unit?.map((b) => b.key)).toHaveLength(UNITS.length);
    expect(emaciation?.breakdowns.unit?.reduce((n, b) => n + b.present, 0)).toBe(emaciation?.present);
    expect(emaciation?.breakdowns.month?.length).toBeGreaterThan(6);
    expect(emaciation?.breakdowns.sex?.map((b) => b.key)).toContain('male');
    expect(emaciation?.breakdowns.age_band?.map((b) => b.key)).toContain('18-29');
    const alpha = emaciation?.agreement?.coefficients.find((c) => c.name === 'krippendorff_alpha')?.value ?? 0;
    expect(alpha).toBeGreaterThan(0.5); // examiners err 6% and 9% of the time
    expect(alpha).toBeLessThan(1);
    expect(emaciation?.agreement?.coefficients.map((c) => c.name)).toContain('cohen_kappa');
    const svg = await readFile(join(charts, 'prevalence.svg'), 'utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain('Emaciation');
    expect(await readFile(join(charts, 'deaths-by-unit-month.svg'), 'utf8')).toContain('<svg');
    const agreement = JSON.parse((await ok('reader', 'agreement', '--sample', 'main', '--json')).stdout) as { findings: { code: string; agreement: unknown }[]; age_band: { level: string } };
    expect(agreement.findings).toHaveLength(12);
    expect(agreement.age_band.level).toBe('ordinal');
  }, 120_000);

  it('gives byte-identical statistics after rebuild and --at the same tree size later', async () => {
    await ok('registrar', 'rebuild');
    expect((await ok('statistician', 'stats', 'main', '--json')).stdout).toBe(statsText);
    // More work lands on the ledger; the figures as of the earlier checkpoint do not move.
    await ok('registrar', 'subject', 'add', '--number', '99999/215/1', '--reason', 'late card');
    const later = await ok('statistician', 'stats', 'main', '--json', '--at', String(statsSize));
    expect(later.stdout).toBe(statsText);
    const bad = await run('statistician', 'stats', 'main', '--at', '999999');
    expect(bad.code).toBe(2);
  }, 120_000);

  it('refuses imports with mixed digit systems or wrong columns, naming row and column, and stores nothing', async () => {
    const before = (await log()).length;
    await writeFile(join(dir, 'bad.csv'), 'number,sex,colour\n1/215/1,male,red\n');
    const cols = await run('registrar', 'subject', 'import', join(dir, 'bad.csv'), '--reason', 'x', '--json');
    expect(cols.code).toBe(1);
    expect(cols.stderr).toMatch(/row 1.*colour/s);
    await writeFile(join(dir, 'mixed.csv'), 'number,sex\n١٢۳/215/7,male\n5/215/7,male,extra\n');
    const mixed = await run('registrar', 'subject', 'import', join(dir, 'mixed.csv'), '--reason', 'x');
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/row 2.*number.*(mix|digit)/is);
    expect(mixed.stderr).toMatch(/row 3/);
    expect((await log()).length).toBe(before);
  }, 60_000);

  it('catches an insider who rewrites a revealed answer or the drawn members and re-signs the checkpoints', async () => {
    const tamper = async (name: string, edit: (entry: LogEntry) => boolean): Promise<{ codes: string[]; stats: { code: number | null; stderr: string } }> => {
      const copy = join(await makeTempDir(`custody-exam-${name}`), 'archive');
      await cp(env.CUSTODY_ARCHIVE ?? '', copy, { recursive: true });
      const lines = await readLedgerLines(copy);
      const i = lines.findIndex((l) => edit(JSON.parse(l) as LogEntry));
      expect(i).toBeGreaterThan(0);
      const entry = JSON.parse(lines[i] ?? '') as LogEntry;
      edit(entry);
      lines[i] = canonicalize(entry);
      await writeLedgerLines(copy, lines);
      const origin = (JSON.parse(await readFile(join(copy, 'custody.json'), 'utf8')) as { origin: string }).origin;
      await resignCheckpoints({ dir: copy, origin, verifierKey: '', env: {} }, await checkpointSizes(copy));
      const cenv = { CUSTODY_ARCHIVE: copy, CUSTODY_ACTOR: 'insider' };
      expect((await custodyIn(['rebuild'], cenv)).code).toBe(0);
      const v = await custodyIn(['verify', '--json'], cenv);
      expect(v.code).toBe(1);
      const codes = (JSON.parse(v.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
      return { codes, stats: await custodyIn(['stats', 'main'], cenv) };
    };
    // An answer changed after the reveal: it no longer opens its commitment.
    const answer = await tamper('reveal', (e) => {
      if (e.details.action !== 'examination.reveal') return false;
      const a = (e.details.answers as { answer: { findings: Record<string, { value: string }> } }[])[0];
      const f = a?.answer.findings.emaciation;
      if (f !== undefined) f.value = f.value === 'present' ? 'absent' : 'present';
      return true;
    });
    expect(answer.codes).toContain('EXAMINATION_REVEAL_MISMATCH');
    expect(answer.stats.code).toBe(1);
    expect(answer.stats.stderr).toContain('EXAMINATION_REVEAL_MISMATCH');
    // Members swapped for others: not what the documented draw gives from frame and seed.
    const draw = await tamper('draw', (e) => {
      if (e.details.action !== 'sample.manifest') return false;
      const m = e.details.members as string[];
      m.reverse();
      return true;
    });
    expect(draw.codes).toContain('SAMPLE_DRAW_MISMATCH');
  }, 120_000);
});
