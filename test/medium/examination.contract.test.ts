// The examination workflow through the services on SQLite and on PostgreSQL: a plan, sealed
// submissions and their reveal, an adjudication, statistics; then `rebuild` gives back every
// row, the statistics are the same bytes, an --at snapshot agrees, and verification is clean.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { initArchive, openArchive, type Archive } from '../../src/app.js';
import { operationContext } from '../../src/cli/context.js';
import { createSubject } from '../../src/catalogue/subjects/subjects.service.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { canonicalize } from '../../src/core/canonical-json.js';
import { INDEX_TABLES, type IndexTable } from '../../src/db/schema.js';
import { adjudicateCase, assignExaminers, submitAnswer } from '../../src/examination/blind/examination.service.js';
import { caseOutcomes, loadSample } from '../../src/examination/blind/outcomes.js';
import { codebookDigest, defineCodebook } from '../../src/examination/codebook/index.js';
import { drawPlan } from '../../src/examination/sampling/plan.service.js';
import { computeStatistics } from '../../src/examination/statistics/statistics.service.js';
import { IngestService } from '../../src/ingest/ingest.service.js';
import { verifyArchive } from '../../src/integrity/archive-verify.service.js';
import { rebuildIndex } from '../../src/integrity/index-rebuild.service.js';
import { hashFiles } from '../../src/store/hash-files.adapter.js';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

async function dumpAll(archive: Archive): Promise<string> {
  const out: string[] = [];
  for (const table of Object.keys(INDEX_TABLES) as IndexTable[])
    for (const row of await archive.index.dumpTable(table)) out.push(`${table} ${canonicalize(row)}`);
  return out.join('\n');
}

describeDatabases('examination', (db) => {
  let config: Config;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeEach(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    const dir = await makeTempDir('custody-exam-contract');
    const source = join(dir, 'source');
    await import('node:fs/promises').then((fs) => fs.mkdir(source));
    for (let i = 0; i < 12; i++) await writeFile(join(source, `p${String(i).padStart(2, '0')}.bin`), `synthetic ${i}`);
    // Four JPEGs, one of them twice: an item frame must count it once.
    for (let i = 0; i < 4; i++) {
      const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 40 * i, g: 90, b: 120 } } }).jpeg().toBuffer();
      await writeFile(join(source, `img${i}.jpg`), jpeg);
      if (i === 0) await writeFile(join(source, 'img0-copy.jpg'), jpeg);
    }
    config = loadConfig({ CUSTODY_ACTOR: 'registrar', ...(made.url === null ? {} : { DATABASE_URL: made.url }) }, { archive: join(dir, 'archive') });
    await initArchive(config);
    const archive = await openArchive(config, 'write', 'setup');
    try {
      await new IngestService(archive).run({ paths: [source], source: 'OLIVE', receivedBy: null, medium: null, note: null, manifestPath: null, deliveryId: null });
      const items = (await archive.index.listItems()).sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const [i, item] of items.filter((x) => x.name.endsWith('.bin')).entries()) await createSubject(archive, operationContext(archive), { sex: 'male', dateOfDeath: `2013-0${1 + (i % 3)}` }, [item.id], 'card');
    } finally {
      await archive.close();
    }
  });
  afterEach(() => cleanup());

  const as = async <T>(actor: string, fn: (a: Archive) => Promise<T>, mode: 'read' | 'write' = 'write'): Promise<T> => {
    const archive = await openArchive({ ...config, actor }, mode, 'test');
    try {
      return await fn(archive);
    } finally {
      await archive.close();
    }
  };

  it('runs plan → sealed submissions → reveal → adjudication → statistics, and rebuilds to the same bytes', async () => {
    const plan = await as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'p', unit: 'subjects', method: 'simple', size: 6, seed: 'fixed seed' }));
    expect(plan.draw.members).toHaveLength(6);
    await as('coordinator', (a) => assignExaminers(a, operationContext(a), 'p', ['ex-a', 'ex-b']));
    const world = worldSubjects(6);
    const cases = [...plan.draw.members];
    for (const [i, c] of cases.entries()) await as('ex-a', (a) => submitAnswer(a, operationContext(a), 'p', c, 'ex-a', examinerForm(world[i] ?? world[0]!, 'A', 0.3)));
    // Sealed: the index holds ciphertext and a commitment, no answer.
    const sealed = await as('reader', async (a) => a.examinations.submissions(plan.id), 'read');
    expect(sealed.every((s) => s.answer_json === null && s.salt === null && s.sealed.length > 40)).toBe(true);
    for (const [i, c] of cases.entries()) await as('ex-b', (a) => submitAnswer(a, operationContext(a), 'p', c, 'ex-b', examinerForm(world[i] ?? world[0]!, 'B', 0.3)));
    const outcomes = await as('reader', async (a) => caseOutcomes(a, await loadSample(a, 'p')), 'read');
    expect(outcomes.every((o) => o.answers?.length === 2)).toBe(true);
    const disputed = outcomes.find((o) => o.status === 'awaiting_adjudication');
    expect(disputed).toBeDefined();
    await as('adj', (a) =>
      adjudicateCase(a, operationContext(a), 'p', disputed?.case ?? '', (disputed?.disagreements ?? []).map((d) => ({ field: d.field, value: d.values[0]?.value ?? '', reason: 'reviewed' })), 'adj'),
    );
    const stats = await as('reader', async (a) => JSON.stringify(await computeStatistics(a, await loadSample(a, 'p'))), 'read');
    const size = JSON.parse(stats) as { checkpoint: { tree_size: number } };

    const archive = await openArchive(config, 'write', 'rebuild', { skipIndexSync: true });
    try {
      const before = await dumpAll(archive);
      expect(before).toContain('exam_adjudications');
      await rebuildIndex(archive);
      expect(await dumpAll(archive)).toBe(before);
      expect(JSON.stringify(await computeStatistics(archive, await loadSample(archive, 'p')))).toBe(stats);
      const verified = await verifyArchive({ archive, hashFiles }, []);
      expect(verified.findings.filter((f) => f.severity === 'error')).toEqual([]);
    } finally {
      await archive.close();
    }
    const snapshot = await openArchive(config, 'read', 'stats', { at: size.checkpoint.tree_size });
    try {
      expect(JSON.stringify(await computeStatistics(snapshot, await loadSample(snapshot, 'p')))).toBe(stats);
    } finally {
      await snapshot.close();
    }
  }, 120_000);

  it('draws over items with one unit per object: a copy is never a second unit', async () => {
    const plan = await as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'images', unit: 'items', method: 'systematic', size: 4, seed: 's' }));
    expect(plan.draw.frameSize).toBe(4);
    expect(plan.merged).toBe(1);
    expect(new Set(plan.draw.members).size).toBe(4);
    const refused = as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'too-many', unit: 'items', method: 'simple', size: 5 }));
    await expect(refused).rejects.toMatchObject({ code: 'SAMPLE_SIZE_EXCEEDS_FRAME' });
    const again = as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'images', unit: 'items', method: 'simple', size: 1 }));
    await expect(again).rejects.toMatchObject({ code: 'SAMPLE_EXISTS' });
  });

  it('uses the codebook recorded with the plan: its findings, version and digest', async () => {
    const codebook = defineCodebook({
      version: 'team-local-v2',
      title: 'Two findings only',
      instructions: 'Record what you see.',
      regions: [],
      findings: [
        { code: 'emaciation', label: 'Emaciation', definition: 'Marked loss of body fat and muscle.', regional: false },
        { code: 'tattoo', label: 'Tattoo', definition: 'Any tattoo, for identification.', regional: false },
      ],
    });
    const plan = await as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'local', unit: 'subjects', method: 'simple', size: 3, seed: 's', codebook }));
    await as('coordinator', (a) => assignExaminers(a, operationContext(a), 'local', ['ex-a', 'ex-b']));
    const form = { sex: 'male', age_band: '30-39', findings: { emaciation: { value: 'present' }, tattoo: { value: 'absent' } } };
    // A form for the default codebook does not fit this plan.
    const wrong = as('ex-a', (a) => submitAnswer(a, operationContext(a), 'local', plan.draw.members[0] ?? '', 'ex-a', examinerForm(worldSubjects(1)[0]!, 'A', 0)));
    await expect(wrong).rejects.toMatchObject({ code: 'FORM_INVALID' });
    for (const c of plan.draw.members) for (const ex of ['ex-a', 'ex-b']) await as(ex, (a) => submitAnswer(a, operationContext(a), 'local', c, ex, form));
    const stats = await as('reader', async (a) => computeStatistics(a, await loadSample(a, 'local')), 'read');
    expect(stats.codebook).toEqual({ version: 'team-local-v2', digest: codebookDigest(codebook) });
    expect(stats.findings.map((f) => [f.code, f.present, f.assessed])).toEqual([
      ['emaciation', 3, 3],
      ['tattoo', 0, 3],
    ]);
  });

  it('stratifies by month of death, allocating the size in proportion', async () => {
    const plan = await as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'by-month', unit: 'subjects', method: 'stratified', stratify: 'month', size: 6, seed: 's' }));
    const strata = 'strata' in plan.draw ? plan.draw.strata : [];
    expect(strata.map((s) => [s.name, s.frameSize, s.n])).toEqual([
      ['2013-01', 4, 2],
      ['2013-02', 4, 2],
      ['2013-03', 4, 2],
    ]);
    const bad = as('statistician', (a) => drawPlan(a, operationContext(a), { name: 'no-by', unit: 'subjects', method: 'stratified', size: 2 }));
    await expect(bad).rejects.toMatchObject({ code: 'SAMPLE_PLAN_INVALID' });
  });
});
