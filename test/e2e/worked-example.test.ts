// Issue 10: the README's worked example ("A whole case from the CLI") runs as written. The bash
// block is taken from README.md, its inputs are made by scripts/worked-example-data.ts, and it runs
// under bash with a `custody` on the PATH that runs this checkout's bin/custody.js. Then the test
// reads what the run left behind: the ledger, the sheets, the published checkpoints.
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/csv.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const run = promisify(execFile);

interface Entry {
  seq: number;
  type: string;
  details: Record<string, unknown> & { action?: string };
}

/** The one ```bash block of the README section "A whole case from the CLI". */
async function readmeBlock(): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## A whole case from the CLI\n');
  expect(start, 'README section "A whole case from the CLI"').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  expect(blocks).toHaveLength(1);
  return blocks[0] ?? '';
}

describe('the README worked example, run as a script', () => {
  let dir: string;
  let stdout = '';
  let stderr = '';
  let ledger: Entry[] = [];

  beforeAll(async () => {
    dir = await makeTempDir('custody-worked-example');
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(
      join(bin, 'custody'),
      `#!/bin/sh\nexec node ${JSON.stringify(join(REPO_ROOT, 'bin/custody.js'))} "$@"\n`,
    );
    await chmod(join(bin, 'custody'), 0o755);
    const work = join(dir, 'case');
    await mkdir(work);
    await run('node', [
      join(REPO_ROOT, 'dist/scripts/worked-example-data.js'),
      'inputs',
      join(work, 'inputs'),
    ]);
    await writeFile(join(work, 'case.sh'), await readmeBlock());
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: dir,
      CUSTODY_CHECKOUT: REPO_ROOT,
      LANG: 'C.UTF-8',
    };
    try {
      ({ stdout, stderr } = await run('bash', ['case.sh'], {
        cwd: work,
        env,
        maxBuffer: 64 * 1024 * 1024,
      }));
    } catch (e) {
      const failed = e as { code?: number; stdout?: string; stderr?: string };
      throw new Error(
        `the worked example exited ${String(failed.code)}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
      );
    }
    const lines = (await readFile(join(work, 'archive/ledger/entries.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    ledger = lines.map((l) => JSON.parse(l) as Entry);
  }, 240_000);

  const actions = (action: string) => ledger.filter((e) => e.details.action === action);
  /** The links the plan's close published, each case code to its subject. */
  const closeLinks = () => {
    const [close] = actions('examination.close');
    return (close?.details.cases ?? []) as { code: string; case: string }[];
  };

  it('generates 150 subjects whose numbers use all three digit systems, one unit with only a text code, photos by file name', async () => {
    const [header, ...rows] = parseCsv(
      await readFile(join(dir, 'case/inputs/subjects.csv'), 'utf8'),
    ).map((r) => r.cells);
    expect(rows).toHaveLength(150);
    const numbers = rows.map((r) => r[header?.indexOf('number') ?? -1] ?? '');
    expect(numbers.some((n) => /^[0-9]+\//.test(n))).toBe(true);
    expect(numbers.some((n) => /^[٠-٩]+\//.test(n))).toBe(true);
    expect(numbers.some((n) => /^[۰-۹]+\//.test(n))).toBe(true);
    expect(numbers.some((n) => n.endsWith('/AFI'))).toBe(true);
    expect(
      rows.every((r) => /^card-\d{3}\.jpg$/.test(r[header?.indexOf('items') ?? -1] ?? '')),
    ).toBe(true);
    const units = await readFile(join(dir, 'case/inputs/units.csv'), 'utf8');
    expect(units).toMatch(/^AFI,Air Force Intelligence,المخابرات الجوية,/m);
  });

  it('imports every subject with its photograph linked by file name, and attributes the AFI cards to the text-coded unit', () => {
    const created = actions('subject.create');
    expect(created).toHaveLength(151);
    for (const c of created) expect((c.details.items as string[]).length).toBe(1);
    const afi = created.filter((c) =>
      /\/(AFI|جوية)$/.test((c.details.subject as { number_raw: string | null }).number_raw ?? ''),
    );
    expect(afi).toHaveLength(30);
    const afiUnit = new Set(afi.map((c) => (c.details.subject as { unit_id: string }).unit_id));
    expect(afiUnit.size).toBe(1);
    // The body without a card, attributed with --unit جوية (the alias), joins the same unit.
    const nocard = created.filter(
      (c) => ((c.details.subject as { number_raw?: string | null }).number_raw ?? null) === null,
    );
    expect(nocard).toHaveLength(1);
    expect((nocard[0]?.details.subject as { unit_id: string }).unit_id).toBe([...afiUnit][0]);
    expect(stdout).toMatch(/^\s+31\s+AFI\s+Air Force Intelligence\s+المخابرات الجوية$/m);
  });

  it('fixes the sample in steps: the seed entry names the checkpoint published before it', async () => {
    const [frame] = actions('sample.frame');
    const [seed] = actions('sample.seed');
    const [manifest] = actions('sample.manifest');
    expect(frame !== undefined && seed !== undefined && manifest !== undefined).toBe(true);
    expect(frame!.seq).toBeLessThan(seed!.seq);
    expect(seed!.seq).toBeLessThan(manifest!.seq);
    expect(seed!.details.seed_source).toBe('beacon');
    const cp = seed!.details.checkpoint as { size: number; root: string };
    expect(cp.size).toBeGreaterThan(frame!.seq);
    const published = await readFile(
      join(dir, 'case/published', `${String(cp.size).padStart(16, '0')}.checkpoint`),
      'utf8',
    );
    const [, size, root] = published.split('\n');
    expect(Number(size)).toBe(cp.size);
    expect(Buffer.from(root ?? '', 'base64').toString('hex')).toBe(cp.root);
    expect((manifest!.details.members as unknown[]).length).toBe(40);
  });

  it('refuses each batch with a bad line whole (nothing written), and completes the corrected re-run', () => {
    for (const who of ['dr-a', 'dr-b', 'adjudication'])
      expect(stdout).toContain(`${who}, file with a slip: 0 ledger entries written`);
    // Each refusal names the planted slip, and only it.
    expect(stderr).toMatch(
      /1 of 40 line\(s\) refused, 1 problem\(s\); nothing was written \[FORM_INVALID\]\n {2}line 4, case \w+, age_band: /,
    );
    expect(stderr).toMatch(
      /1 of 40 line\(s\) refused, 1 problem\(s\); nothing was written \[FORM_INVALID\]\n {2}line 3, case \w+, findings\.emaciation\.value: /,
    );
    expect(stderr).toMatch(
      /1 of \d+ line\(s\) refused, 1 problem\(s\); nothing was written \[ADJUDICATION_INVALID\]\n {2}line \d+, case \w+, findings\.burns\.value: /,
    );
    expect(stdout).toContain('40 sealed answer(s) submitted; 0 case(s) complete and revealed');
    expect(stdout).toContain('40 sealed answer(s) submitted; 40 case(s) complete and revealed');
    const submits = actions('examination.submit');
    expect(submits).toHaveLength(80);
    expect(actions('examination.reveal')).toHaveLength(40);
    // Each corrected file went in as one run of entries: nothing else between an examiner's first and last.
    for (const examiner of ['dr-a', 'dr-b']) {
      const seqs = submits.filter((s) => s.details.examiner === examiner).map((s) => s.seq);
      expect(seqs).toHaveLength(40);
      const between = ledger.filter(
        (e) => e.seq >= Math.min(...seqs) && e.seq <= Math.max(...seqs),
      );
      expect(
        between.every(
          (e) =>
            e.details.action === 'examination.submit' || e.details.action === 'examination.reveal',
        ),
      ).toBe(true);
    }
    const adjudicated = actions('examination.adjudicate');
    expect(stdout).toContain(`${adjudicated.length} case(s) adjudicated`);
    expect(adjudicated.length).toBeGreaterThan(0);
  });

  it('the adjudicator sets the regions that follow from deciding burns "present", though the regions were not in dispute', async () => {
    const disputes = JSON.parse(await readFile(join(dir, 'case/sheets/disputes.json'), 'utf8')) as {
      cases: { case: string; disagreements: { field: string }[] }[];
    };
    const burnsCase = disputes.cases.find((c) =>
      c.disagreements.some((d) => d.field === 'findings.burns.value'),
    );
    expect(burnsCase?.disagreements.map((d) => d.field)).toEqual(['findings.burns.value']);
    // The ledger names the case by its code; the plan's close published the link to the subject
    // the adjudicator's list names (an archive without accounts shows ids).
    const code = closeLinks().find((l) => l.case === burnsCase?.case)?.code;
    expect(code).toMatch(/^k-[0-9a-f]{12}$/);
    const entry = actions('examination.adjudicate').find((e) => e.details.case === code);
    const decisions = entry?.details.decisions as { field: string; value: string }[];
    expect(decisions.map((d) => [d.field, d.value])).toEqual([
      ['findings.burns.value', 'present'],
      ['findings.burns.regions', 'upper_limbs'],
    ]);
    const final = entry?.details.final as { findings: Record<string, unknown> };
    expect(final.findings.burns).toEqual({ value: 'present', regions: ['upper_limbs'] });
  });

  it('closes the plan once every case is final: the close publishes the case-id key and a link for each of the 40 cases', () => {
    const closes = actions('examination.close');
    expect(closes).toHaveLength(1);
    expect(closes[0]?.details.case_id_key).toMatch(/^[0-9a-f]{64}$/);
    const links = closeLinks();
    expect(links).toHaveLength(40);
    const [manifest] = actions('sample.manifest');
    expect(links.map((l) => l.case).sort()).toEqual(
      [...(manifest?.details.members as string[])].sort(),
    );
    // Before the close no entry of the plan named a subject: each names its case by code.
    const codes = new Set(links.map((l) => l.code));
    for (const e of [
      ...actions('examination.submit'),
      ...actions('examination.reveal'),
      ...actions('examination.adjudicate'),
    ])
      expect(codes.has(e.details.case as string)).toBe(true);
    expect(stdout).toMatch(/plan prevalence closed \(entry \d+\)/);
  });

  it('stats by unit count the text-coded unit AFI', async () => {
    const stats = JSON.parse(await readFile(join(dir, 'case/stats.json'), 'utf8')) as {
      cases: { final: number };
      findings: {
        code: string;
        breakdowns: {
          unit: {
            label: string | null;
            assessed: number;
            unit?: { code: unknown; name_ar: string | null };
          }[];
        };
      }[];
    };
    expect(stats.cases.final).toBe(40);
    for (const f of stats.findings) {
      const afi = f.breakdowns.unit.find((u) => u.unit?.code === 'AFI');
      expect(afi?.label).toBe('Air Force Intelligence');
      expect(afi?.unit?.name_ar).toBe('المخابرات الجوية');
      expect(afi?.assessed).toBeGreaterThan(0);
    }
    expect(f0Total(stats.findings[0]?.breakdowns.unit ?? [])).toBe(40);
  });

  it('ends with custody verify: the archive is intact', async () => {
    expect(stdout).toContain('VERIFIED: the archive is intact');
    const names = await readdir(join(dir, 'case/published'));
    expect(names.length).toBeGreaterThan(0);
    for (const n of names)
      expect(stdout).toContain(`consistent with trusted checkpoint published/${n}`);
  });
});

function f0Total(rows: readonly { assessed: number }[]): number {
  return rows.reduce((a, r) => a + r.assessed, 0);
}
