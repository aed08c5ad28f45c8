// Issue 15, "Ante-mortem and post-mortem data" and "Candidate subjects for a missing person":
// `custody subject pm` records PM data (a ledger entry citing the identification codebook), and
// `custody missing candidates` ranks subjects against a report by the sum of the factors' weights,
// each factor shown with its outcome and weight (no opaque score), never showing a photograph or the family's data, and saying a candidate is not an
// identification. On SQLite and PostgreSQL (the index is involved).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { custodyInExpect, type LogLine, type TestArchive } from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

const NAME_AR = 'زيدون قطرميز';

interface CandidateJson {
  rank: number;
  subject: string;
  score: number;
  factors: { factor: string; outcome: string; detail: string; weight: number }[];
  agreed: number;
  disagreed: number;
}

describeDatabases('custody missing candidates and subject pm', (db) => {
  let base: string;
  let a: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  const run = (code: number, args: string[]) => custodyInExpect(code, [...args, '--archive', a.dir], a.env);
  const json = async <T>(args: string[]): Promise<T> => JSON.parse((await run(0, [...args, '--json'])).stdout) as T;
  const ledger = (): Promise<Buffer> => readFile(join(a.dir, 'ledger', 'entries.jsonl'));
  const subject = async (...flags: string[]): Promise<string> => json<string>(['subject', 'add', ...flags, '--reason', 'card']);
  const log = async (): Promise<LogLine[]> =>
    (await run(0, ['log', '--json'])).stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogLine);
  const outcomes = (c: CandidateJson | undefined): Record<string, string> => Object.fromEntries((c?.factors ?? []).map((f) => [f.factor, f.outcome]));

  beforeEach(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    base = await makeTempDir(`candidates-${db.kind}`);
    a = { dir: join(base, 'archive'), origin: '', verifierKey: '', env: made.url === null ? {} : { DATABASE_URL: made.url } };
    await run(0, ['init']);
    await run(0, ['unit', 'add', '--name-en', 'Air Force Intelligence', '--code', 'AFI']);
    await run(0, ['unit', 'add', '--name-en', 'Branch 215', '--code', '215', '--parent', 'AFI']);
    await run(0, ['unit', 'add', '--name-en', 'Military Intelligence', '--code', 'MI']);
  });
  afterEach(() => cleanup());

  it('subject pm records PM fields as a ledger entry citing the codebook; a later --set keeps the other fields, an empty value clears one', async () => {
    const s = await subject('--sex', 'male');
    await run(0, ['subject', 'pm', s, '--set', 'marks=face:scar:left cheek;chest:tattoo', '--set', 'build=slight', '--reason', 'photographs 12–14']);
    const file = join(base, 'pm.json');
    await writeFile(file, JSON.stringify({ height_cm: 172, dental: 'upper incisor missing' }));
    await run(0, ['subject', 'pm', s, '--file', file, '--set', 'build=', '--reason', 'second look']);
    const view = await json<{ pm: Record<string, unknown>; codebook: { version: string; digest: string } }>(['subject', 'pm', s]);
    expect(view.pm).toEqual({ marks: [{ region: 'face', kind: 'scar', description: 'left cheek' }, { region: 'chest', kind: 'tattoo', description: null }], height_cm: 172, dental: 'upper incisor missing' });
    expect(view.codebook.version).toBe('custody-identification-v1');
    const codebook = await json<{ digest: string }>(['missing', 'codebook']);
    expect(view.codebook.digest).toBe(codebook.digest);
    const entries = (await log()).filter((l) => l.entry.details.action === 'pm.record');
    expect(entries.map((l) => l.entry.details.reason)).toEqual(['photographs 12–14', 'second look']);
    await run(0, ['verify']);
  });

  it('a PM value outside the codebook is PM_INVALID naming the field, and nothing is written; an unknown subject is PM_SUBJECT_NOT_FOUND', async () => {
    const s = await subject();
    const size = (await ledger()).length;
    const bad = await run(1, ['subject', 'pm', s, '--set', 'marks=face:wound', '--set', 'shoe_size=42', '--set', 'height_cm=12', '--reason', 'x']);
    expect(bad.stderr).toContain('[PM_INVALID]');
    for (const field of ['marks', 'shoe_size', 'height_cm']) expect(bad.stderr).toContain(field);
    expect((await run(1, ['subject', 'pm', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--set', 'build=slight', '--reason', 'x'])).stderr).toContain('[PM_SUBJECT_NOT_FOUND]');
    expect((await run(2, ['subject', 'pm', s, '--set', 'build=slight'])).stderr).toContain('[USAGE]');
    expect((await ledger()).length).toBe(size);
  });

  it('candidates: each factor agreed, disagreed or missing with its weight; ordered by the sum; no family data, and not an identification', async () => {
    const s1 = await subject('--unit', '215', '--sex', 'male', '--age-band', '18-29', '--date-of-death', '2013-08-01');
    const s2 = await subject('--unit', 'MI', '--sex', 'male', '--age-band', '30-39', '--date-of-photography', '2013-07');
    const s3 = await subject('--unit', 'AFI', '--sex', 'female', '--age-band', '18-29', '--date-of-death', '2012-01-01');
    const s4 = await subject();
    await run(0, ['subject', 'pm', s1, '--set', 'marks=face:scar', '--reason', 'photo']);
    await run(0, ['subject', 'pm', s3, '--set', 'marks=back:tattoo', '--reason', 'photo']);
    const csv = join(base, 'r.csv');
    await writeFile(csv, `name_ar,sex,birth,event,event_date,unit,marks\n${NAME_AR},male,1985,arrest,2013-05-21,AFI,face:scar:left cheek\n`);
    const [id] = (await json<{ ids: string[] }>(['missing', 'import', csv, '--org', 'Org A'])).ids;
    const r = await run(0, ['missing', 'candidates', id ?? '', '--json']);
    expect(r.stdout).not.toContain(NAME_AR);
    const out = JSON.parse(r.stdout) as { candidates: CandidateJson[]; notice: string };
    expect(out.notice).toContain('not an identification');
    expect(out.candidates.map((c) => c.subject)).toEqual([s1, s4, s2, s3]);
    const [c1, c4, c2, c3] = out.candidates;
    expect(outcomes(c1)).toEqual({ unit: 'agree', date: 'agree', sex: 'agree', age: 'agree', marks: 'agree' });
    expect(c1?.factors.find((f) => f.factor === 'unit')?.detail).toContain('part of Air Force Intelligence');
    expect(outcomes(c4)).toEqual({ unit: 'missing', date: 'missing', sex: 'missing', age: 'missing', marks: 'missing' });
    expect(outcomes(c2)).toEqual({ unit: 'disagree', date: 'agree', sex: 'agree', age: 'close', marks: 'missing' });
    expect(outcomes(c3)).toEqual({ unit: 'agree', date: 'disagree', sex: 'disagree', age: 'agree', marks: 'disagree' });
    // Factors, their weights and the sum that orders them: no photograph, no item.
    expect(Object.keys(c1 ?? {}).sort()).toEqual(['agreed', 'close', 'disagreed', 'factors', 'missing', 'number', 'rank', 'score', 'subject']);
    for (const c of out.candidates) expect(c.score).toBeCloseTo(c.factors.reduce((t, f) => t + f.weight, 0), 6);
    expect(c4?.score).toBe(0);
    expect(c2?.factors.find((f) => f.factor === 'unit')?.weight).toBeLessThan(0);
    expect(c2?.factors.find((f) => f.factor === 'date')?.weight).toBeGreaterThan(0);
    const text = await run(0, ['missing', 'candidates', id ?? '', '--limit', '2']);
    expect(text.stdout).toContain('A candidate is not an identification');
    expect(text.stdout).toContain(`1. subject ${s1}: score`);
    expect(text.stdout).toMatch(/unit {3}agree {5}\+\d+\.\d\d /);
    expect(text.stdout).not.toContain(s3);
  });
});
