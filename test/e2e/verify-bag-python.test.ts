// verify_bag.py, the standard-library verifier that travels in every bag, on a real sample bag
// built in-process (a small stratified sample, two examiners, adjudication, exported with the full
// ledger): a clean bag passes all seven checks, and each tampering of issue 11 is its own test,
// asserting the exact finding code from Python (and from `custody verify-export` where that
// verifier has the same check, so the two stay in parity).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decideFromTruth, examinerForm, SCHEME, UNITS, worldSubjects, type WorldSubject } from '../../src/demo/examination-world.js';
import { hashLeaf, MerkleTree, toHex } from '../../src/core/index.js';
import { custodyIn } from '../support/archive-fixtures.js';
import { resealBag } from '../support/export-bag.fixture.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const hasTool = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const tools = hasTool('python3', ['--version']) && hasTool('openssl', ['version']);
const STATS_PY = existsSync(join(REPO_ROOT, 'src/verify/reference/custody_verify/stats.py'));

interface PyFinding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  step: number | null;
  details: Record<string, unknown>;
}
interface PyReport {
  valid: boolean;
  full_ledger: boolean | null;
  steps: { step: number; ok: boolean; detail: string }[];
  findings: PyFinding[];
  notCovered: string[];
}
interface TsReport {
  steps: { step: number; ok: boolean }[];
  findings: { code: string; severity: string }[];
}

const errorCodes = (r: { findings: { code: string; severity: string }[] }) => [...new Set(r.findings.filter((f) => f.severity === 'error').map((f) => f.code))].sort();

describe.skipIf(!tools)('verify_bag.py on a sample bag (checks 1–7, Python standard library and openssl)', () => {
  let base: string;
  let bag: string;
  let pinned: string;
  let sampleId: string;

  const py = (dir: string, ...args: string[]): SpawnSyncReturns<string> =>
    spawnSync('python3', [join(dir, 'verify_bag.py'), dir, ...args], { encoding: 'utf8' });
  const pyJson = (dir: string, ...args: string[]): { status: number | null; report: PyReport } => {
    const r = py(dir, '--key', pinned, '--json', ...args);
    expect(r.stderr).toBe('');
    return { status: r.status, report: JSON.parse(r.stdout) as PyReport };
  };
  /** Our own verifier on the same bag; its process checks (steps 6–7) may not exist yet. */
  const tsReport = async (dir: string): Promise<TsReport> =>
    JSON.parse((await custodyIn(['verify-export', dir, '--key', pinned, '--json'])).stdout) as TsReport;
  /** Where `custody verify-export` runs the process checks, it must find the same code. */
  const expectParity = async (dir: string, code: string) => {
    const ts = await tsReport(dir);
    if (ts.steps.some((s) => s.step === 7)) expect(errorCodes(ts)).toContain(code);
  };

  /** A copy of the bag, edited, its manifests (and Payload-Oxum) recomputed as a forger would. */
  const tampered = async (name: string, edit: (dir: string) => Promise<void>): Promise<string> => {
    const dir = join(await makeTempDir(`verify-bag-py-${name}`), 'bag');
    await cp(bag, dir, { recursive: true });
    await edit(dir);
    await resealBag(dir);
    return dir;
  };
  const editJson = async (dir: string, path: string, edit: (v: never) => void) => {
    const value = JSON.parse(await readFile(join(dir, path), 'utf8')) as never;
    edit(value);
    await writeFile(join(dir, path), `${JSON.stringify(value, null, 2)}\n`);
  };
  /** Replaces `from` by `to` once, in the first ledger line that contains every marker. */
  const editLedgerLine = async (dir: string, markers: string | string[], from: string, to: string): Promise<number> => {
    const path = join(dir, 'custody/ledger.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    const i = lines.findIndex((l) => [markers].flat().every((m) => l.includes(m)) && l.includes(from));
    expect(i).toBeGreaterThanOrEqual(0);
    lines[i] = (lines[i] ?? '').replace(from, to);
    await writeFile(path, lines.join('\n'));
    return (JSON.parse(lines[i] ?? '{}') as { seq: number }).seq;
  };

  beforeAll(async () => {
    base = await makeTempDir('verify-bag-py');
    const env = { CUSTODY_ARCHIVE: join(base, 'archive') };
    const ok = async (actor: string, ...args: string[]) => {
      const r = await custodyIn(args, { ...env, CUSTODY_ACTOR: actor });
      expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const subjects = worldSubjects(24);
    const photos = join(base, 'photos');
    await mkdir(photos);
    for (const s of subjects) await writeFile(join(photos, `img-${String(s.index).padStart(3, '0')}.bin`), `synthetic photograph ${s.index}`);
    await ok('registrar', 'init');
    await ok('registrar', 'ingest', photos, '--source', 'KITE', '--new-source');
    const items = (JSON.parse(await ok('registrar', 'items', '--json')) as { id: string; name: string }[]).sort((a, b) => a.name.localeCompare(b.name));
    await writeFile(join(base, 'units.csv'), `code,name_en,name_ar\n${UNITS.map((x) => `${x.code},${x.name_en},${x.name_ar}`).join('\n')}\n`);
    await ok('registrar', 'unit', 'import', join(base, 'units.csv'));
    await writeFile(join(base, 'scheme.json'), JSON.stringify(SCHEME));
    await ok('registrar', 'scheme', 'add', join(base, 'scheme.json'));
    const csv = ['number,sex,age_band,date_of_death,items', ...subjects.map((s) => `${s.number},${s.sex},${s.ageBand},${s.dateOfDeath},${items[s.index]?.id ?? ''}`)];
    await writeFile(join(base, 'subjects.csv'), `${csv.join('\n')}\n`);
    const imported = JSON.parse(await ok('registrar', 'subject', 'import', join(base, 'subjects.csv'), '--reason', 'cards transcribed', '--json')) as { ids: string[] };
    const bySubject = new Map(imported.ids.map((id, i) => [id, subjects[i] as WorldSubject]));
    const drawn = JSON.parse(await ok('statistician', 'sample', 'draw', '--name', 'main', '--over', 'subjects', '--method', 'stratified', '--by', 'unit', '--size', '12', '--json')) as { id: string; members: string[] };
    sampleId = drawn.id;
    await ok('coordinator', 'examine', 'assign', 'main', '--examiners', 'examiner-a,examiner-b');
    for (const [who, tag, rate] of [['examiner-a', 'A', 0.1], ['examiner-b', 'B', 0.15]] as const) {
      const forms = drawn.members.map((c) => JSON.stringify({ case: c, form: examinerForm(bySubject.get(c) as WorldSubject, tag, rate) }));
      await writeFile(join(base, `${tag}.jsonl`), `${forms.join('\n')}\n`);
      await ok(who, 'examine', 'submit', 'main', '--forms', join(base, `${tag}.jsonl`));
    }
    const pending = JSON.parse(await ok('adjudicator-c', 'adjudicate', 'main', '--list', '--json')) as { cases: { case: string; disagreements: { field: string; values: { value: string }[] }[] }[] };
    if (pending.cases.length > 0) {
      const batch = pending.cases.map((c) => ({ case: c.case, decisions: decideFromTruth(bySubject.get(c.case) as WorldSubject, c.disagreements, 'second review') }));
      await writeFile(join(base, 'adjudication.json'), JSON.stringify(batch));
      await ok('adjudicator-c', 'adjudicate', 'main', '--batch', join(base, 'adjudication.json'));
    }
    // An examiner's decision on two photographs of the sample: decisions.json then has a row.
    const itemOf = (c: string) => items[(bySubject.get(c) as WorldSubject).index]?.id ?? '';
    await ok('reviewer', 'decide', itemOf(drawn.members[0] ?? ''), itemOf(drawn.members[1] ?? ''), '--different', '--note', 'two people');
    pinned = join(base, 'pinned-key.txt');
    await writeFile(pinned, await ok('reader', 'key', '--public'));
    // Closed before the export: a bag links a plan's answers to its members only through the
    // links its close entry published (issue 12, blinded cases).
    await ok('coordinator', 'examine', 'close', 'main');
    bag = join(base, 'bag');
    await ok('prosecutor', 'export', '--select', 'sample:main', '--full-ledger', '--out', bag, '--json');
  }, 240_000);

  it('passes every check on the clean bag with the pinned key: evidence and process verified (full ledger)', async () => {
    const { status, report } = pyJson(bag);
    expect(report.findings).toEqual([]);
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([[1, true], [2, true], [3, true], [4, true], [5, true], [6, true], [7, true]]);
    expect(report.full_ledger).toBe(true);
    expect(status).toBe(0);
    const text = py(bag, '--key', pinned);
    expect(text.status, text.stdout).toBe(0);
    expect(text.stdout).toContain('Evidence files: VERIFIED');
    expect(text.stdout).toContain('Process: VERIFIED (full ledger)');
    expect(text.stdout).toMatch(/revealed answers checked against their commitments/);
    expect(text.stdout).toContain('not covered by the signature');
    expect(report.notCovered).toContain('data/tables/units.json');
    expect(report.notCovered).not.toContain('data/tables/items.json');
    expect(report.notCovered).not.toContain('data/tables/decisions.json');
    expect(JSON.parse(await readFile(join(bag, 'data/tables/decisions.json'), 'utf8'))).toHaveLength(1);
    // Nothing written inside the bag (no __pycache__, no temporary key file).
    expect(existsSync(join(bag, 'custody_verify', '__pycache__'))).toBe(false);
  });

  it('--help exits 0 and prints the usage instead of taking "--help" for a bag', () => {
    const r = spawnSync('python3', [join(bag, 'verify_bag.py'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: verify_bag\.py/);
    for (const flag of ['--key', '--receipt', '--explain', '--json']) expect(r.stdout).toContain(flag);
  });

  it('without a pinned key: verified, but says the key came from the bag (EXPORT_KEY_NOT_PINNED)', () => {
    const r = py(bag);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain('WARN EXPORT_KEY_NOT_PINNED');
    expect(r.stdout).toContain('Key: taken from the bag itself, NOT pinned');
  });

  it('a pinned key of another archive: EXPORT_KEY_MISMATCH and EXPORT_CHECKPOINT_SIGNATURE_INVALID', async () => {
    const other = join(base, 'other-archive');
    await custodyIn(['init'], { CUSTODY_ARCHIVE: other, CUSTODY_ACTOR: 'someone' });
    const otherKey = join(base, 'other-key.txt');
    await writeFile(otherKey, (await custodyIn(['key', '--public'], { CUSTODY_ARCHIVE: other, CUSTODY_ACTOR: 'someone' })).stdout);
    const r = spawnSync('python3', [join(bag, 'verify_bag.py'), bag, '--key', otherKey, '--json'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(errorCodes(JSON.parse(r.stdout) as PyReport)).toEqual(['EXPORT_CHECKPOINT_SIGNATURE_INVALID', 'EXPORT_KEY_MISMATCH']);
  });

  it('without openssl 3 the signature is not checked, and the verdict says NOT VERIFIED (EXPORT_SIGNATURE_UNCHECKED)', async () => {
    const bin = await makeTempDir('verify-bag-py-no-openssl');
    const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
    await symlink(python, join(bin, 'python3'));
    const r = spawnSync(join(bin, 'python3'), [join(bag, 'verify_bag.py'), bag, '--key', pinned], { encoding: 'utf8', env: { PATH: bin } });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL EXPORT_SIGNATURE_UNCHECKED');
    expect(r.stdout).toMatch(/openssl is not installed/);
    expect(r.stdout).toContain('Evidence files: NOT VERIFIED (EXPORT_SIGNATURE_UNCHECKED)');
  });

  it('a ledger line edited (manifests recomputed): the full ledger no longer recomputes the root (EXPORT_ENTRY_UNPROVEN)', async () => {
    const dir = await tampered('ledger-line', (d) => editLedgerLine(d, '"ingestion start"', '"source":"KITE"', '"source":"KITX"').then(() => undefined));
    const { status, report } = pyJson(dir);
    expect(status).toBe(1);
    expect(report.findings.filter((f) => f.code === 'EXPORT_ENTRY_UNPROVEN').map((f) => f.step)).toEqual([6]);
    expect(report.steps.find((s) => s.step === 6)?.ok).toBe(false);
    expect(py(dir, '--key', pinned).stdout).toMatch(/Process: NOT VERIFIED \(EXPORT_ENTRY_UNPROVEN/);
    const ts = await tsReport(dir);
    if (ts.steps.some((s) => s.step === 6)) expect(errorCodes(ts)).toContain('EXPORT_ENTRY_UNPROVEN');
  });

  /** The bag as a non-full-ledger export ships it: full_ledger false and one proof per line. */
  const perLineProofs = async (dir: string, skipSeq: number | null = null) => {
    const lines = (await readFile(join(dir, 'custody/ledger.jsonl'), 'utf8')).split('\n').filter(Boolean);
    const tree = new MerkleTree(lines.map((l) => hashLeaf(Buffer.from(l))));
    const proofs = lines
      .map((l, seq) => ({ leaf_hash: toHex(hashLeaf(Buffer.from(l))), proof: tree.inclusionProof(seq, tree.size).map(toHex), seq }))
      .map((p) => (p.seq === skipSeq ? { ...p, proof: [] } : p));
    await writeFile(join(dir, 'custody/ledger-proofs.jsonl'), proofs.map((p) => `${JSON.stringify(p)}\n`).join(''));
    await editJson(dir, 'custody/export.json', (e: { full_ledger: boolean }) => {
      e.full_ledger = false;
    });
  };

  it('without the full ledger, each line proven by its own proof: verified, but EXPORT_PROCESS_INCOMPLETE says it may not be complete', async () => {
    const dir = await tampered('per-line', (d) => perLineProofs(d));
    const { status, report } = pyJson(dir);
    expect(status).toBe(0);
    expect(report.full_ledger).toBe(false);
    expect(report.findings.map((f) => [f.code, f.severity, f.step])).toEqual([['EXPORT_PROCESS_INCOMPLETE', 'warning', 6]]);
    expect(report.findings[0]?.message).toMatch(/not that nothing was left out/);
    expect(py(dir, '--key', pinned).stdout).toContain('Process: NOT VERIFIED AS COMPLETE (EXPORT_PROCESS_INCOMPLETE)');
  });

  it('without the full ledger, a line whose proof does not lead to the root: EXPORT_ENTRY_UNPROVEN naming its seq', async () => {
    const dir = await tampered('per-line-unproven', (d) => perLineProofs(d, 0)); // entry 0 (creation): no item proof stands in for it
    const { status, report } = pyJson(dir);
    expect(status).toBe(1);
    expect(report.findings.filter((f) => f.code === 'EXPORT_ENTRY_UNPROVEN').map((f) => f.details)).toEqual([{ seq: 0 }]);
  });

  /** Takes the line of `seq` out of ledger.jsonl and lists it in withheld-entries.json, as --redact does. */
  const withhold = async (dir: string, seq: number, leafHash?: string) => {
    const path = join(dir, 'custody/ledger.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    const i = lines.findIndex((l) => (JSON.parse(l) as { seq: number }).seq === seq);
    const line = lines[i] ?? '';
    const entry = JSON.parse(line) as { type: string; details: { action?: unknown } };
    lines.splice(i, 1);
    await writeFile(path, lines.map((l) => `${l}\n`).join(''));
    const withheld = [{ seq, reason: 'source record', leaf_hash: leafHash ?? toHex(hashLeaf(Buffer.from(line))), type: entry.type, action: typeof entry.details.action === 'string' ? entry.details.action : null }];
    await writeFile(join(dir, 'custody/withheld-entries.json'), `${JSON.stringify(withheld, null, 2)}\n`);
  };

  it('a withheld entry listed with its leaf hash: the full ledger still recomputes the root; a wrong leaf hash does not', async () => {
    const dir = await tampered('withheld', (d) => withhold(d, 1));
    const { status, report } = pyJson(dir);
    expect(report.findings).toEqual([]);
    expect(status).toBe(0);
    expect(report.notCovered.join('\n')).toMatch(/withheld-entries\.json \(each withheld entry's stated type and action\)/);
    const wrong = await tampered('withheld-wrong', (d) => withhold(d, 1, '00'.repeat(32)));
    expect(errorCodes(pyJson(wrong).report)).toEqual(['EXPORT_ENTRY_UNPROVEN']);
  });

  it('the items table edited (data/tables/items.json, manifests recomputed): EXPORT_TABLE_MISMATCH naming table, row and column', async () => {
    let itemId = '';
    let size = 0;
    const dir = await tampered('items', (d) =>
      editJson(d, 'data/tables/items.json', (rows: { item_id: string; size: number }[]) => {
        const row = rows[1] as { item_id: string; size: number };
        [itemId, size] = [row.item_id, row.size];
        row.size += 1000;
      }),
    );
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toEqual(['EXPORT_TABLE_MISMATCH']);
    const f = report.findings.find((x) => x.code === 'EXPORT_TABLE_MISMATCH');
    expect(f?.details).toEqual({ table: 'data/tables/items.json', row: itemId, column: 'size', bag: size + 1000, derived: size });
    await expectParity(dir, 'EXPORT_TABLE_MISMATCH');
  });

  it('the sample members edited (data/tables/samples.json, two swapped): EXPORT_SAMPLE_MISMATCH at each position', async () => {
    let first = '';
    let second = '';
    const dir = await tampered('members', (d) =>
      editJson(d, 'data/tables/samples.json', (samples: { members: { case: string }[] }[]) => {
        const m = samples[0]?.members ?? [];
        [first, second] = [m[0]?.case ?? '', m[1]?.case ?? ''];
        (m[0] as { case: string }).case = second;
        (m[1] as { case: string }).case = first;
      }),
    );
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toEqual(['EXPORT_SAMPLE_MISMATCH']);
    expect(report.findings.filter((f) => f.code === 'EXPORT_SAMPLE_MISMATCH').map((f) => f.details)).toEqual([
      { sample: sampleId, position: 0, bag: second, derived: first },
      { sample: sampleId, position: 1, bag: first, derived: second },
    ]);
    await expectParity(dir, 'EXPORT_SAMPLE_MISMATCH');
  });

  it('a cataloguing entry edited (a subject\'s sex in custody/ledger.jsonl): EXPORT_ENTRY_UNPROVEN, and the subjects table no longer matches it', async () => {
    const subjects = JSON.parse(await readFile(join(bag, 'data/tables/subjects.json'), 'utf8')) as { subject_id: string; sex: string }[];
    const target = subjects[0] as { subject_id: string; sex: string };
    const other = target.sex === 'male' ? 'female' : 'male';
    const dir = await tampered('cataloguing', (d) =>
      editLedgerLine(d, [`"action":"subject.create"`, `"id":"${target.subject_id}"`], `"sex":"${target.sex}"`, `"sex":"${other}"`).then(() => undefined),
    );
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toEqual(['EXPORT_ENTRY_UNPROVEN', 'EXPORT_TABLE_MISMATCH']);
    const rows = report.findings.filter((f) => f.code === 'EXPORT_TABLE_MISMATCH').map((f) => f.details);
    expect(rows).toContainEqual({ table: 'data/tables/subjects.json', row: target.subject_id, column: 'sex', bag: target.sex, derived: other });
    await expectParity(dir, 'EXPORT_ENTRY_UNPROVEN');
  });

  it('a revealed answer edited in custody/ledger.jsonl: it no longer opens its commitment (EXPORT_COMMITMENT_MISMATCH)', async () => {
    let revealSeq = 0;
    const dir = await tampered('reveal', async (d) => {
      const path = join(d, 'custody/ledger.jsonl');
      const lines = (await readFile(path, 'utf8')).split('\n');
      const i = lines.findIndex((l) => l.includes('"examination.reveal"'));
      const entry = JSON.parse(lines[i] ?? '{}') as { seq: number; details: { answers: { answer: { findings: Record<string, { value: string }> } }[] } };
      revealSeq = entry.seq;
      const finding = (entry.details.answers[0] as { answer: { findings: Record<string, { value: string }> } }).answer.findings;
      // A finding without regions, so that its value follows its opening brace in the canonical line.
      const fragment = (code: string, value: string | undefined) => `"${code}":{"value":"${value ?? ''}"`;
      const code = Object.keys(finding).find((c) => (lines[i] ?? '').includes(fragment(c, finding[c]?.value))) ?? '';
      const before = fragment(code, finding[code]?.value);
      const after = fragment(code, finding[code]?.value === 'present' ? 'absent' : 'present');
      expect((lines[i] ?? '').includes(before)).toBe(true);
      lines[i] = (lines[i] ?? '').replace(before, after);
      await writeFile(path, lines.join('\n'));
    });
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toContain('EXPORT_COMMITMENT_MISMATCH');
    expect(errorCodes(report)).toContain('EXPORT_ENTRY_UNPROVEN');
    const f = report.findings.find((x) => x.code === 'EXPORT_COMMITMENT_MISMATCH');
    expect(f?.details).toMatchObject({ sample: sampleId, examiner: 'examiner-a', reveal_seq: revealSeq });
    await expectParity(dir, 'EXPORT_COMMITMENT_MISMATCH');
  });

  it('a revealed answer edited in the examinations table (data/tables/examinations.json): EXPORT_TABLE_MISMATCH on that cell', async () => {
    let key = '';
    const dir = await tampered('examinations', (d) =>
      editJson(d, 'data/tables/examinations.json', (rows: Record<string, string | null>[]) => {
        const row = rows.find((r) => r.examiner === 'examiner-b') as Record<string, string | null>;
        key = `${row.sample ?? ''}/${row.case ?? ''}/examiner-b`;
        row.sex = row.sex === 'male' ? 'female' : 'male';
      }),
    );
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(report.findings[0]?.details).toMatchObject({ table: 'data/tables/examinations.json', row: key, column: 'sex' });
    await expectParity(dir, 'EXPORT_TABLE_MISMATCH');
  });

  it('an examiner\'s decision edited (data/tables/decisions.json): EXPORT_TABLE_MISMATCH on its row (the seq) and column', async () => {
    let seq = 0;
    const dir = await tampered('decisions', (d) =>
      editJson(d, 'data/tables/decisions.json', (rows: { seq: number; decision: string }[]) => {
        const row = rows[0] as { seq: number; decision: string };
        seq = row.seq;
        row.decision = 'same-subject';
      }),
    );
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(report.findings[0]?.details).toMatchObject({ table: 'data/tables/decisions.json', row: seq, column: 'decision', bag: 'same-subject' });
  });

  it.skipIf(!STATS_PY)('the statistics table edited (a proportion, manifests recomputed): EXPORT_TABLE_MISMATCH at its pointer', async () => {
    const file = `data/tables/statistics-${sampleId}.json`;
    const dir = await tampered('statistics', (d) =>
      editJson(d, file, (doc: { findings: { present: number }[] }) => {
        (doc.findings[0] as { present: number }).present += 1;
      }),
    );
    const { report } = pyJson(dir);
    expect(errorCodes(report)).toEqual(['EXPORT_TABLE_MISMATCH']);
    expect(report.findings.map((f) => f.details)).toContainEqual(expect.objectContaining({ table: file, row: '/findings/0', column: 'present' }));
    await expectParity(dir, 'EXPORT_TABLE_MISMATCH');
  });

  it.skipIf(!STATS_PY)('the forgery from issue 11 (statistics table and one revealed answer, both manifests recomputed): both caught', async () => {
    const file = `data/tables/statistics-${sampleId}.json`;
    const dir = await tampered('forgery', async (d) => {
      await editJson(d, file, (doc: { findings: { present: number }[] }) => {
        (doc.findings[0] as { present: number }).present += 1;
      });
      await editLedgerLine(d, '"examination.reveal"', '"sex":"male"', '"sex":"female"');
    });
    const { status, report } = pyJson(dir);
    expect(status).toBe(1);
    expect(errorCodes(report)).toEqual(expect.arrayContaining(['EXPORT_COMMITMENT_MISMATCH', 'EXPORT_ENTRY_UNPROVEN', 'EXPORT_TABLE_MISMATCH']));
    expect(report.findings.map((f) => f.details)).toContainEqual(expect.objectContaining({ table: file, column: 'present' }));
  });

  it('--explain on a cell: the bag\'s value, the ledger\'s, the entries it rests on; exit 0, 1 once tampered, 2 for a bad pointer', async () => {
    const rows = JSON.parse(await readFile(join(bag, 'data/tables/items.json'), 'utf8')) as { size: number; ingestion_seq: number }[];
    const r = py(bag, '--key', pinned, '--explain', 'data/tables/items.json#/0/size');
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain(`in the bag:              ${rows[0]?.size}`);
    expect(r.stdout).toContain(`derived from the ledger: ${rows[0]?.size}`);
    expect(r.stdout).toContain('they agree');
    expect(r.stdout).toMatch(new RegExp(`seq ${rows[0]?.ingestion_seq}  ingestion\\b`));
    const sample = py(bag, '--explain', 'data/tables/samples.json#/0/members/3/case');
    expect(sample.status, sample.stdout).toBe(0);
    expect(sample.stdout).toMatch(/examination sample\.manifest/);
    const dir = await tampered('explain', (d) =>
      editJson(d, 'data/tables/items.json', (items: { size: number }[]) => {
        (items[0] as { size: number }).size += 1;
      }),
    );
    const bad = py(dir, '--explain', 'data/tables/items.json#/0/size');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('they DISAGREE');
    expect(py(bag, '--explain', 'data/tables/items.json#/999/size').status).toBe(2);
    expect(py(bag, '--explain', 'data/tables/items.json').status).toBe(2);
    const units = py(bag, '--explain', 'data/tables/units.json#/0/name_en');
    expect(units.status).toBe(1);
    expect(units.stdout).toContain('not covered by the signature');
  });
});
