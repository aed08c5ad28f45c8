// Issue 13, "Arabic definitions belong to the codebook (versioned and digested like the English
// ones)": the Arabic came as a new codebook version, custody-forensic-v2, so that plans drawn with
// custody-forensic-v1 (the default until then, recorded in the ledger with its digest) keep
// verifying. One archive holds a plan with each version, both examined, adjudicated and exported:
// `custody verify`, `custody stats`, `custody verify-export` and the bag's own Python verifier
// accept both, each citing its own version and digest.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import { decideFromTruth, examinerForm, SCHEME, UNITS, worldSubjects, type WorldSubject } from '../../src/demo/examination-world.js';
import { CUSTODY_FORENSIC_V1, CUSTODY_FORENSIC_V2, codebookDigest } from '../../src/examination/codebook/index.js';
import { custodyIn } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

const V1_DIGEST = 'ffbc768df3bdf2bf304851184b6a4e6a90882fdb3656a468822cc69e3c709f3a';
const hasPython = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0 && spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

describe('plans drawn with codebook v1 and v2 side by side', () => {
  let base: string;
  let env: Record<string, string>;
  const bags: Record<'old' | 'new', string> = { old: '', new: '' };
  let pinned = '';
  const run = (actor: string, ...args: string[]) => custodyIn(args, { ...env, CUSTODY_ACTOR: actor });
  const ok = async (actor: string, ...args: string[]) => {
    const r = await run(actor, ...args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    base = await makeTempDir('codebook-versions');
    env = { CUSTODY_ARCHIVE: join(base, 'archive') };
    const subjects = worldSubjects(16);
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
    // The old plan: drawn with v1 exactly as an earlier Custody recorded it (v1 was its default).
    await writeFile(join(base, 'v1.json'), canonicalize(CUSTODY_FORENSIC_V1));
    for (const [name, extra] of [['old', ['--codebook', join(base, 'v1.json')]], ['new', []]] as const) {
      const drawn = JSON.parse(await ok('statistician', 'sample', 'draw', '--name', name, '--over', 'subjects', '--method', 'simple', '--size', '6', '--seed', name, ...extra, '--json')) as { members: string[] };
      await ok('coordinator', 'examine', 'assign', name, '--examiners', 'examiner-a,examiner-b');
      for (const [who, tag, rate] of [['examiner-a', 'A', 0.1], ['examiner-b', 'B', 0.2]] as const) {
        const forms = drawn.members.map((c) => JSON.stringify({ case: c, form: examinerForm(bySubject.get(c) as WorldSubject, tag, rate) }));
        await writeFile(join(base, `${name}-${tag}.jsonl`), `${forms.join('\n')}\n`);
        await ok(who, 'examine', 'submit', name, '--forms', join(base, `${name}-${tag}.jsonl`));
      }
      const pending = JSON.parse(await ok('adjudicator-c', 'adjudicate', name, '--list', '--json')) as { cases: { case: string; disagreements: { field: string; values: { value: string }[] }[] }[] };
      if (pending.cases.length > 0) {
        const batch = pending.cases.map((c) => ({ case: c.case, decisions: decideFromTruth(bySubject.get(c.case) as WorldSubject, c.disagreements, 'second review') }));
        await writeFile(join(base, `${name}-adj.json`), JSON.stringify(batch));
        await ok('adjudicator-c', 'adjudicate', name, '--batch', join(base, `${name}-adj.json`));
      }
      // Closed before the export: a bag links a plan's answers to its members only once the plan is closed.
      await ok('coordinator', 'examine', 'close', name);
    }
    pinned = join(base, 'pinned-key.txt');
    await writeFile(pinned, await ok('reader', 'key', '--public'));
    for (const name of ['old', 'new'] as const) {
      bags[name] = join(base, `bag-${name}`);
      await ok('prosecutor', 'export', '--select', `sample:${name}`, '--full-ledger', '--out', bags[name], '--json');
    }
  }, 240_000);

  it('the v1 plan keeps its recorded version and digest, the new plan records v2 with its Arabic', async () => {
    const old = JSON.parse(await ok('statistician', 'stats', 'old', '--json')) as { codebook: { version: string; digest: string } };
    const now = JSON.parse(await ok('statistician', 'stats', 'new', '--json')) as { codebook: { version: string; digest: string } };
    expect(old.codebook).toEqual({ version: 'custody-forensic-v1', digest: V1_DIGEST });
    expect(now.codebook).toEqual({ version: 'custody-forensic-v2', digest: codebookDigest(CUSTODY_FORENSIC_V2) });
    expect(now.codebook.digest).not.toBe(V1_DIGEST);
  });

  it('custody verify passes on the archive holding both', async () => {
    const r = await run('reader', 'verify', '--json');
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('custody verify-export passes on the bag of each plan', async () => {
    for (const name of ['old', 'new'] as const) {
      const r = await run('reader', 'verify-export', bags[name], '--key', pinned, '--json');
      expect(r.code, `${name}\n${r.stdout}\n${r.stderr}`).toBe(0);
      const report = JSON.parse(r.stdout) as { findings: { code: string; severity: string }[] };
      expect(report.findings.filter((f) => f.severity === 'error'), name).toEqual([]);
    }
  });

  it.skipIf(!hasPython)("the bag's own Python verifier (verify_bag.py) passes on the bag of each plan", () => {
    for (const name of ['old', 'new'] as const) {
      const r = spawnSync('python3', [join(bags[name], 'verify_bag.py'), bags[name], '--key', pinned, '--json'], { encoding: 'utf8' });
      const report = JSON.parse(r.stdout) as { valid: boolean; findings: { code: string }[] };
      expect(report.findings, `${name}: ${r.stderr}`).toEqual([]);
      expect(report.valid).toBe(true);
      expect(r.status).toBe(0);
    }
  });

  it('custody report --bag reads the bag of the v1 plan', async () => {
    const out = join(base, 'old.html');
    const r = await custodyIn(['report', '--template', 'tribunal', '--bag', bags.old, '--out', out, '--json'], { ...env, CUSTODY_ACTOR: 'registrar', CUSTODY_CHROMIUM: '' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it("the report's findings section defines the findings with the plans' own codebook, v1 for a v1 plan", async () => {
    const out = join(base, 'archive-report.html');
    const r = await custodyIn(['report', '--template', 'tribunal', '--out', out, '--json'], { ...env, CUSTODY_ACTOR: 'registrar', CUSTODY_CHROMIUM: '' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('Findings (codebook custody-forensic-v1)');
    expect(html).not.toContain('Findings (codebook custody-forensic-v2)');
  });
});
