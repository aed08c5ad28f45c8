// Issue 11, "Findings the defence can verify from the bag alone": verify-export re-derives every
// generated table of a bag from the ledger entries it carries (check 7) — items, subjects, the
// revealed and final answers, the sample members (redrawn from frame and seed) and the statistics —
// and opens every reveal against its commitment. One small archive (16 subjects, a stratified
// sample of 10, two examiners, adjudication) is exported once with --full-ledger; each test copies
// the bag, forges one thing as a forger without the key would (then reseals both manifests), and
// asserts the exact finding.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decideFromTruth, examinerForm, SCHEME, UNITS, worldSubjects, type WorldSubject } from '../../src/demo/examination-world.js';
import { custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { resealBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';

interface Finding {
  code: string;
  severity: string;
  step: number;
  path?: string;
  message: string;
  details?: Record<string, unknown>;
}
interface Report {
  valid: boolean;
  steps: { step: number; ok: boolean; detail: string }[];
  findings: Finding[];
  notCovered: string[];
}
type Json = Record<string, unknown>;

describe('verify-export re-derives the process from the ledger (issue 11)', () => {
  let base: string;
  let bag: string;
  let pinned: string;
  let env: Record<string, string>;
  let sampleId = '';
  let moved = ''; // a sampled subject re-attributed to another unit after the frame

  beforeAll(async () => {
    base = await makeTempDir('custody-process');
    env = { CUSTODY_ARCHIVE: join(base, 'archive') };
    const as = (actor: string, ...args: string[]) => custodyInExpect(0, args, { ...env, CUSTODY_ACTOR: actor });
    const subjects = worldSubjects(16);
    const photos = join(base, 'photos');
    await import('node:fs/promises').then((fs) => fs.mkdir(photos));
    for (const s of subjects) await writeFile(join(photos, `img-${String(s.index).padStart(3, '0')}.bin`), `synthetic photograph ${s.index}`);
    await as('registrar', 'init');
    await as('registrar', 'ingest', photos, '--source', 'KITE', '--new-source');
    const items = (JSON.parse((await as('registrar', 'items', '--json')).stdout) as { id: string; name: string }[]).sort((a, b) => a.name.localeCompare(b.name));
    await writeFile(join(base, 'units.csv'), `code,name_en,name_ar\n${UNITS.map((x) => `${x.code},${x.name_en},${x.name_ar}`).join('\n')}\n`);
    await as('registrar', 'unit', 'import', join(base, 'units.csv'));
    await writeFile(join(base, 'scheme.json'), JSON.stringify(SCHEME));
    await as('registrar', 'scheme', 'add', join(base, 'scheme.json'));
    const csv = ['number,sex,age_band,date_of_death,items', ...subjects.map((s) => `${s.number},${s.sex},${s.ageBand},${s.dateOfDeath},${items[s.index]?.id ?? ''}`)].join('\n');
    await writeFile(join(base, 'subjects.csv'), `${csv}\n`);
    const imported = JSON.parse((await as('registrar', 'subject', 'import', join(base, 'subjects.csv'), '--reason', 'cards transcribed', '--json')).stdout) as { ids: string[] };
    const byId = new Map(imported.ids.map((id, i) => [id, subjects[i] as WorldSubject]));
    const drawn = JSON.parse((await as('statistician', 'sample', 'draw', '--name', 'main', '--over', 'subjects', '--method', 'stratified', '--by', 'unit', '--size', '10', '--json')).stdout) as { id: string; members: string[] };
    sampleId = drawn.id;
    await as('coordinator', 'examine', 'assign', 'main', '--examiners', 'examiner-a,examiner-b');
    for (const [who, rate] of [['a', 0.1], ['b', 0.15]] as const) {
      const forms = drawn.members.map((c) => JSON.stringify({ case: c, form: examinerForm(byId.get(c) as WorldSubject, who.toUpperCase(), rate) }));
      await writeFile(join(base, `${who}.jsonl`), `${forms.join('\n')}\n`);
      await as(`examiner-${who}`, 'examine', 'submit', 'main', '--forms', join(base, `${who}.jsonl`));
    }
    const pending = JSON.parse((await as('adjudicator-c', 'adjudicate', 'main', '--list', '--json')).stdout) as { cases: { case: string; disagreements: { field: string; values: { value: string }[] }[] }[] };
    expect(pending.cases.length).toBeGreaterThan(0);
    const batch = pending.cases.map((c) => ({ case: c.case, decisions: decideFromTruth(byId.get(c.case) as WorldSubject, c.disagreements, 'second review') }));
    await writeFile(join(base, 'adjudication.json'), JSON.stringify(batch));
    await as('adjudicator-c', 'adjudicate', 'main', '--batch', join(base, 'adjudication.json'));
    // After the frame, one sampled subject is re-attributed: the statistics name it in unit_attribution.
    moved = drawn.members[0] ?? '';
    const other = UNITS.find((x) => x.code !== byId.get(moved)?.unitCode)?.code ?? 215;
    await as('registrar', 'subject', 'edit', moved, '--unit', String(other), '--reason', 'transfer record');
    const itemOf = (subject: string) => items[byId.get(subject)?.index ?? -1]?.id ?? '';
    await as('examiner-a', 'decide', itemOf(drawn.members[0] ?? ''), itemOf(drawn.members[1] ?? ''), '--different', '--note', 'two people');
    // Closed before the export: a bag links a plan's answers to its members only through the
    // links its close entry published (issue 12, blinded cases).
    await as('coordinator', 'examine', 'close', 'main');
    pinned = join(base, 'pinned-key.txt');
    await writeFile(pinned, (await as('reader', 'key', '--public')).stdout);
    bag = join(base, 'bag');
    await as('prosecutor', 'export', '--select', 'sample:main', '--full-ledger', '--out', bag);
  }, 240_000);

  let n = 0;
  /** A copy of the bag, edited by `edit`, both manifests recomputed as a forger would. */
  const forged = async (edit: (dir: string) => Promise<void>): Promise<string> => {
    const dir = join(base, `forged-${++n}`);
    await cp(bag, dir, { recursive: true });
    await edit(dir);
    await resealBag(dir);
    return dir;
  };
  const verify = async (dir: string, code: number): Promise<Report> => {
    const r = await custodyInExpect(code, ['verify-export', dir, '--key', pinned, '--json']);
    return JSON.parse(r.stdout) as Report;
  };
  const editJson = async (dir: string, path: string, edit: (v: unknown) => void): Promise<void> => {
    const v = JSON.parse(await readFile(join(dir, path), 'utf8')) as unknown;
    edit(v);
    await writeFile(join(dir, path), `${JSON.stringify(v, null, 2)}\n`);
  };
  const editLedger = async (dir: string, pick: (e: Json) => boolean, edit: (e: Json) => void): Promise<void> => {
    const path = join(dir, 'custody/ledger.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l !== '' && pick(JSON.parse(l) as Json));
    expect(at).toBeGreaterThanOrEqual(0);
    const e = JSON.parse(lines[at] ?? '') as Json;
    edit(e);
    lines[at] = JSON.stringify(e);
    await writeFile(path, lines.join('\n'));
  };
  const codes = (r: Report) => [...new Set(r.findings.filter((f) => f.severity === 'error').map((f) => f.code))].sort();
  const process = (r: Report) => r.findings.filter((f) => f.step === 7);
  const statsPath = () => `data/tables/statistics-${sampleId}.json`;
  const action = (e: Json) => (e.details as Json).action;

  it('a clean bag passes every check, the process re-derived from the full ledger', async () => {
    const r = await verify(bag, 0);
    expect(r.valid).toBe(true);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const step7 = r.steps.find((s) => s.step === 7);
    expect(step7?.ok).toBe(true);
    expect(step7?.detail).toMatch(/1 sample\(s\) redrawn from frame and seed; 20 revealed answer\(s\) open their commitments; statistics recomputed \(full ledger\)/);
    // What the ledger does not determine is named, not silently passed.
    expect(r.notCovered).toEqual(expect.arrayContaining(['data/tables/units.json', 'data/tables/authenticity.json', `${statsPath()}#/code_version`]));
    expect(r.notCovered).not.toContain(`${statsPath()}#/unit_attribution`); // derived: the bag carries the full ledger
    const text = (await custodyInExpect(0, ['verify-export', bag, '--key', pinned])).stdout;
    expect(text).toMatch(/^Process: VERIFIED \(full ledger\)/m);
    expect(text).toContain('Not covered by the signature');
  });
  const mismatch = (r: Report, table: string) => process(r).filter((f) => f.code === 'EXPORT_TABLE_MISMATCH' && f.details?.table === table);

  it('the forgery from the issue: the statistics figure and one revealed answer edited, both manifests recomputed', async () => {
    let revealed: Json | undefined;
    const dir = await forged(async (d) => {
      await editJson(d, statsPath(), (v) => {
        const f = (v as { findings: Json[] }).findings[0] as Json;
        expect(f.code).toBe('emaciation');
        f.proportion = 0.91;
        (f.stratified as Json).estimate = 0.91;
      });
      await editLedger(d, (e) => action(e) === 'examination.reveal', (e) => {
        const a = ((e.details as Json).answers as Json[])[0] as Json;
        const findings = (a.answer as Json).findings as Record<string, { value: string }>;
        findings.emaciation = { value: findings.emaciation?.value === 'present' ? 'absent' : 'present' };
        revealed = { case: (e.details as Json).case, examiner: a.examiner, seq: e.seq };
      });
    });
    const r = await verify(dir, 1);
    expect(r.valid).toBe(false);
    // The statistics table names the table, the row and the column, with both values.
    expect(mismatch(r, statsPath()).every((f) => f.path === statsPath())).toBe(true);
    expect(mismatch(r, statsPath()).map((f) => f.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: statsPath(), row: '/findings/0', column: 'proportion', bag: 0.91 }),
        expect.objectContaining({ table: statsPath(), row: '/findings/0/stratified', column: 'estimate', bag: 0.91 }),
      ]),
    );
    // The edited reveal no longer opens the examiner's commitment.
    expect(process(r).filter((f) => f.code === 'EXPORT_COMMITMENT_MISMATCH').map((f) => f.details)).toEqual([
      expect.objectContaining({ sample: sampleId, case: revealed?.case, examiner: revealed?.examiner, reveal_seq: revealed?.seq }),
    ]);
    // And the answer the ledger now gives is not the one examinations.json shows: its row names
    // the case by the member its close entry published for the reveal's code.
    const close = (await readFile(join(dir, 'custody/ledger.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Json)
      .find((e) => action(e) === 'examination.close');
    const member = ((close?.details as Json | undefined)?.cases as Json[] | undefined)?.find((c) => c.code === revealed?.case)?.case;
    expect(member).toEqual(expect.any(String));
    expect(mismatch(r, 'data/tables/examinations.json').map((f) => f.details?.row)).toContain(`${sampleId}/${String(member)}/${String(revealed?.examiner)}`);
    const text = (await custodyInExpect(1, ['verify-export', dir, '--key', pinned])).stdout;
    expect(text).toMatch(/^Evidence files: VERIFIED$/m);
    expect(text).toMatch(/^Process: NOT VERIFIED \(.*EXPORT_TABLE_MISMATCH.*\)$/m);
    expect(text).toMatch(/^NOT VERIFIED: /m);
  });

  it('the statistics table edited alone (an interval bound) is a mismatch naming its row and column', async () => {
    const dir = await forged((d) =>
      editJson(d, statsPath(), (v) => {
        const interval = ((v as { findings: Json[] }).findings[1]?.stratified as Json).interval as Json;
        interval.upper = 0.99;
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(mismatch(r, statsPath()).map((f) => f.details)).toEqual([expect.objectContaining({ row: '/findings/1/stratified/interval', column: 'upper', bag: 0.99 })]);
  });

  it('the subjects whose unit changed after the frame, edited out of the statistics, are re-derived from the ledger', async () => {
    const stats = JSON.parse(await readFile(join(bag, statsPath()), 'utf8')) as { unit_attribution: { changed_after_frame: Json[] } };
    expect(stats.unit_attribution.changed_after_frame).toHaveLength(1);
    const dir = await forged((d) =>
      editJson(d, statsPath(), (v) => {
        (v as { unit_attribution: { changed_after_frame: Json[] } }).unit_attribution.changed_after_frame = [];
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(mismatch(r, statsPath()).map((f) => f.details?.row)).toEqual(['/unit_attribution/changed_after_frame']);
  });

  it('a decision edited in decisions.json is a mismatch naming its entry and the column', async () => {
    let seq = 0;
    const dir = await forged((d) =>
      editJson(d, 'data/tables/decisions.json', (v) => {
        const row = (v as Json[])[0] as Json;
        seq = row.seq as number;
        row.decision = 'same-subject';
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(mismatch(r, 'data/tables/decisions.json').map((f) => f.details)).toEqual([expect.objectContaining({ row: String(seq), column: 'decision', bag: 'same-subject', derived: 'different' })]);
  });

  it('the items table edited (a file\'s original path) is a mismatch naming the item and the column', async () => {
    let item = '';
    const dir = await forged((d) =>
      editJson(d, 'data/tables/items.json', (v) => {
        const row = (v as Json[])[0] as Json;
        item = String(row.item_id);
        row.original_path = '/evidence/planted.jpg';
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(mismatch(r, 'data/tables/items.json').map((f) => f.details)).toEqual([expect.objectContaining({ row: item, column: 'original_path', bag: '/evidence/planted.jpg' })]);
  });

  it('the sample members edited in samples.json: the redraw from frame and seed disagrees', async () => {
    let second = '';
    const dir = await forged((d) =>
      editJson(d, 'data/tables/samples.json', (v) => {
        const members = ((v as Json[])[0] as { members: { case: string }[] }).members;
        const [a, b] = [members[0]?.case ?? '', members[1]?.case ?? ''];
        second = b;
        (members[0] as { case: string }).case = b;
        (members[1] as { case: string }).case = a;
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_SAMPLE_MISMATCH']);
    expect(process(r).map((f) => f.details)).toEqual([expect.objectContaining({ sample: sampleId, position: 0, bag: second })]);
  });

  it('the sample manifest entry edited in the ledger: the redraw disagrees with it', async () => {
    const dir = await forged((d) =>
      editLedger(d, (e) => action(e) === 'sample.manifest', (e) => {
        const m = (e.details as Json).members as string[];
        [m[0], m[1]] = [m[1] ?? '', m[0] ?? ''];
      }),
    );
    const r = await verify(dir, 1);
    expect(process(r).filter((f) => f.code === 'EXPORT_SAMPLE_MISMATCH').map((f) => f.details?.position)).toContain(0);
    expect(process(r).find((f) => f.code === 'EXPORT_SAMPLE_MISMATCH')?.message).toMatch(/the manifest entry/);
  });

  it('an answer edited in examinations.json is a mismatch naming sample/case/examiner and the finding', async () => {
    let key = '';
    const dir = await forged((d) =>
      editJson(d, 'data/tables/examinations.json', (v) => {
        const row = (v as Json[]).find((x) => x.examiner === 'examiner-a') as Json;
        key = `${String(row.sample)}/${String(row.case)}/examiner-a`;
        row.emaciation = row.emaciation === 'present' ? 'absent' : 'present';
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(mismatch(r, 'data/tables/examinations.json').map((f) => f.details)).toEqual([expect.objectContaining({ row: key, column: 'emaciation' })]);
  });

  it('a subjects table cell edited (the unit) is a mismatch naming the subject and the column', async () => {
    let subject = '';
    const dir = await forged((d) =>
      editJson(d, 'data/tables/subjects.json', (v) => {
        const row = (v as Json[])[0] as Json;
        subject = String(row.subject_id);
        row.unit_id = 'another-unit';
      }),
    );
    const r = await verify(dir, 1);
    expect(codes(r)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(mismatch(r, 'data/tables/subjects.json').map((f) => f.details)).toEqual([expect.objectContaining({ row: subject, column: 'unit_id', bag: 'another-unit' })]);
  });

  it('a cataloguing entry edited in the ledger (a subject\'s unit): the subjects table no longer follows from it', async () => {
    const subjects = JSON.parse(await readFile(join(bag, 'data/tables/subjects.json'), 'utf8')) as Json[];
    const target = subjects.find((x) => x.subject_id !== moved) as Json;
    const units = (JSON.parse(await readFile(join(bag, 'data/tables/units.json'), 'utf8')) as Json[]).map((u) => String(u.id));
    const other = units.find((u) => u !== target.unit_id) ?? '';
    const dir = await forged((d) =>
      editLedger(d, (e) => action(e) === 'subject.create' && ((e.details as Json).subject as Json).id === target.subject_id, (e) => {
        ((e.details as Json).subject as Json).unit_id = other;
      }),
    );
    const r = await verify(dir, 1);
    expect(mismatch(r, 'data/tables/subjects.json').map((f) => f.details)).toEqual([
      expect.objectContaining({ row: target.subject_id, column: 'unit_id', bag: target.unit_id, derived: other }),
    ]);
  });

  it('a reveal whose answer no longer opens its commitment (the salt changed) is EXPORT_COMMITMENT_MISMATCH', async () => {
    let at: Json = {};
    const dir = await forged((d) =>
      editLedger(d, (e) => action(e) === 'examination.reveal', (e) => {
        const a = ((e.details as Json).answers as Json[])[1] as Json;
        a.salt = '0'.repeat(64);
        at = { case: (e.details as Json).case, examiner: a.examiner, reveal_seq: e.seq };
      }),
    );
    const r = await verify(dir, 1);
    // Check 6 finds the edited line (the full ledger no longer recomputes the root); check 7 says which answer.
    expect(codes(r)).toEqual(['EXPORT_COMMITMENT_MISMATCH', 'EXPORT_ENTRY_UNPROVEN']);
    expect(process(r).map((f) => f.code)).toEqual(['EXPORT_COMMITMENT_MISMATCH']);
    const f = process(r).filter((x) => x.code === 'EXPORT_COMMITMENT_MISMATCH');
    expect(f.map((x) => x.details)).toEqual([expect.objectContaining({ sample: sampleId, ...at })]);
    expect((f[0]?.details?.submit_seq as number) < (at.reveal_seq as number)).toBe(true);
  });

  it('the plan\'s frame entry removed from ledger.jsonl: one finding says its tables cannot be derived, not one per row', async () => {
    const dir = await forged(async (d) => {
      const path = join(d, 'custody/ledger.jsonl');
      const lines = (await readFile(path, 'utf8')).split('\n');
      await writeFile(path, lines.filter((l) => l === '' || action(JSON.parse(l) as Json) !== 'sample.frame').join('\n'));
    });
    const r = await verify(dir, 1);
    expect(process(r).map((f) => [f.code, f.details?.table])).toEqual([['EXPORT_TABLE_MISMATCH', 'data/tables/samples.json']]);
    expect(process(r)[0]?.message).toMatch(/does not carry its entries/);
  });

  it('without the full ledger, a sampled subject whose cataloguing entries are missing leaves the breakdowns by unit and month not covered, the rest still compared', async () => {
    const subjects = JSON.parse(await readFile(join(bag, 'data/tables/subjects.json'), 'utf8')) as Json[];
    const gone = String(subjects.find((x) => x.subject_id !== moved)?.subject_id);
    const dir = await forged(async (d) => {
      const path = join(d, 'custody/ledger.jsonl');
      const lines = (await readFile(path, 'utf8')).split('\n');
      await writeFile(path, lines.filter((l) => l === '' || ((JSON.parse(l) as { details: { subject?: Json } }).details.subject?.id ?? '') !== gone).join('\n'));
    });
    const r = await verify(dir, 1);
    // The subject's own row cannot be derived: that is a finding.
    expect(mismatch(r, 'data/tables/subjects.json').map((f) => [f.details?.row, f.details?.column])).toEqual([[gone, null]]);
    // The statistics: counts and estimates still agree; the breakdowns that need the subject are named as not covered.
    expect(mismatch(r, statsPath())).toEqual([]);
    expect(r.notCovered.some((x) => x.startsWith(`${statsPath()}#/findings/*/breakdowns/unit|month`))).toBe(true);
  });

  it('hostile tables and entries give findings, never a crash (exit 1, not 70)', async () => {
    const cases: [string, (d: string) => Promise<void>][] = [
      ['samples.json members not objects', (d) => editJson(d, 'data/tables/samples.json', (v) => { ((v as Json[])[0] as Json).members = [null, 7, 'x']; })],
      ['a revealed answer that is not an answer', (d) => editLedger(d, (e) => action(e) === 'examination.reveal', (e) => { (((e.details as Json).answers as Json[])[0] as Json).answer = { findings: 'none' }; })],
      ['the frame entry\'s codebook changed under its digest', (d) => editLedger(d, (e) => action(e) === 'sample.frame', (e) => { ((((e.details as Json).sample as Json).codebook as Json).definition as Json).version = 'forged'; })],
      ['statistics.json not JSON', (d) => writeFile(join(d, statsPath()), '{ not json')],
    ];
    for (const [name, edit] of cases) {
      const r = await custodyIn(['verify-export', await forged(edit), '--key', pinned, '--json']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(1);
      const report = JSON.parse(r.stdout) as Report;
      expect(report.steps.find((x) => x.step === 7)?.ok, name).toBe(false);
    }
  });

  it('--explain on a statistics cell prints the bag value, the derived value and the entries it rests on (exit 0)', async () => {
    const pointer = `${statsPath()}#/findings/0/proportion`;
    const text = (await custodyInExpect(0, ['verify-export', bag, '--key', pinned, '--explain', pointer])).stdout;
    const stats = JSON.parse(await readFile(join(bag, statsPath()), 'utf8')) as { findings: { proportion: number }[] };
    const value = stats.findings[0]?.proportion;
    expect(text).toContain(`in the bag:       ${String(value)}`);
    expect(text).toContain(`from the ledger:  ${String(value)}`);
    expect(text).toContain('agree: yes');
    expect(text).toMatch(/ examination sample\.frame\n/);
    expect(text).toMatch(/ examination examination\.reveal\n/);
    const json = JSON.parse((await custodyInExpect(0, ['verify-export', bag, '--key', pinned, '--explain', pointer, '--json'])).stdout) as Json;
    expect(json).toMatchObject({ pointer, bag: value, derived: value, agrees: true });
    expect((json.entries as number[]).length).toBeGreaterThan(20);
  });

  it('--explain on a forged cell says they disagree (exit 1)', async () => {
    const dir = await forged((d) =>
      editJson(d, statsPath(), (v) => {
        ((v as { findings: Json[] }).findings[0] as Json).proportion = 0.91;
      }),
    );
    const r = await custodyInExpect(1, ['verify-export', dir, '--key', pinned, '--explain', `${statsPath()}#/findings/0/proportion`, '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ bag: 0.91, agrees: false });
  });

  it('--explain with a pointer that names no figure is a usage error (exit 2)', async () => {
    for (const bad of ['data/tables/items.json', 'data/tables/nothing.json#/0', `${statsPath()}#/findings/999/proportion`, `${statsPath()}#findings`]) {
      const r = await custodyIn(['verify-export', bag, '--key', pinned, '--explain', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('--explain');
    }
  });
});
