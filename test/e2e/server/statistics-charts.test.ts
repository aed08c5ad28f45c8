// Issue 13, "Statistics" → charts (the project's Vega-Lite specs): GET
// /api/statistics/:plan/charts/prevalence.svg draws the plan's figures at the latest signed
// checkpoint with the report's own spec builder and renderer, as SVG the statistics page embeds
// as an image. The oracle is the statistics route's JSON, read independently of the chart code:
// one error bar per finding with an estimate, as long as its interval, and each finding's label
// with its sample size as text. Over a stratified plan examined by two examiners and adjudicated
// (test/support/catalogue-fixtures.ts), on SQLite and PostgreSQL.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  findAll,
  hasClasses,
  parseXml,
  textContent,
  type XmlElement,
} from '../../../src/reports/charts/xml.fixture.js';
import { custodyInExpect, type TestArchive } from '../../support/archive-fixtures.js';
import { buildCatalogue, PLAN } from '../../support/catalogue-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

interface Interval {
  lower: number;
  upper: number;
}
interface Finding {
  code: string;
  label: string;
  assessed: number;
  proportion: number | null;
  wilson: Interval | null;
  stratified: { estimate: number; interval: Interval } | null;
}

const CHART = `/api/statistics/${PLAN}/charts/prevalence.svg`;
/** The spec's plot width for 0–100% (reports/charts/specs.ts). */
const PLOT_WIDTH = 480;

const marks = (svg: XmlElement, mark: string, tag: string): XmlElement[] =>
  findAll(svg, (e) => e.name === 'g' && hasClasses(e, `mark-${mark}`, 'role-mark')).flatMap((g) =>
    findAll(g, (e) => e.name === tag),
  );

describeDatabases('statistics charts over HTTP (issue 13)', (db) => {
  let s: ServedArchive;
  let investigator: Client;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    const archive: TestArchive = {
      dir: join(await makeTempDir(`stats-charts-${db.kind}`), 'archive'),
      origin: '',
      verifierKey: '',
      env: made.url === null ? {} : { DATABASE_URL: made.url },
    };
    await custodyInExpect(0, ['init', '--archive', archive.dir], archive.env);
    // Examined before any account exists: the examiners are free-text names, as in the demo.
    await buildCatalogue(archive, { subjects: 12, examine: true });
    s = await servedArchive(
      `stats-charts-${db.kind}`,
      [
        ['Investigator Ina', 'investigator'],
        ['Auditor Abe', 'auditor'],
        ['Examiner Eve', 'examiner'],
      ],
      { reuse: archive, dbUrl: made.url },
    );
    investigator = await signIn(s.server, 'Investigator Ina');
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  it("draws the plan's prevalence figures: one error bar per finding with an estimate, as long as its interval, each labelled with its sample size", async () => {
    const stats = await investigator.request('GET', `/api/statistics/${PLAN}`);
    expect(stats.statusCode, stats.body).toBe(200);
    const { findings, checkpoint } = stats.json<{
      findings: Finding[];
      checkpoint: { tree_size: number };
    }>();
    // The headline figure of each finding: the weighted estimate of a stratified plan.
    const drawn = findings.flatMap((f) => {
      const i = f.stratified?.interval ?? f.wilson;
      const p = f.stratified?.estimate ?? f.proportion;
      return i === null || p === null || f.assessed < 1 ? [] : [{ ...f, i, p }];
    });
    expect(drawn.length).toBeGreaterThan(1);

    const r = await investigator.request('GET', CHART);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toMatch(/^image\/svg\+xml\b/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-custody-checkpoint']).toBe(String(checkpoint.tree_size));
    expect(r.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(r.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
    const svg = parseXml(r.body);
    expect(svg.name).toBe('svg');
    expect(Number(svg.attributes['width'])).toBeGreaterThan(0);
    expect(findAll(svg, (e) => e.name === 'script' || e.name === 'foreignObject')).toEqual([]);

    const rules = marks(svg, 'rule', 'line');
    expect(rules).toHaveLength(drawn.length);
    rules.forEach((line, k) =>
      expect(Number(line.attributes['x2'])).toBeCloseTo(
        (drawn[k]!.i.upper - drawn[k]!.i.lower) * PLOT_WIDTH,
        6,
      ),
    );
    expect(marks(svg, 'symbol', 'path')).toHaveLength(drawn.length);
    const texts = findAll(svg, (e) => e.name === 'text').map(textContent);
    for (const f of drawn) {
      expect(texts).toContain(`${f.label} (n = ${f.assessed})`);
      expect(texts.some((t) => t.startsWith(`${(f.p * 100).toFixed(1)}% (`))).toBe(true);
    }
    // Computed once per signed checkpoint: the same bytes again.
    expect((await investigator.request('GET', CHART)).body).toBe(r.body);
  });

  it('refuses a chart it does not draw (400) and a plan that does not exist, drawing nothing', async () => {
    const unknown = await investigator.request('GET', `/api/statistics/${PLAN}/charts/pie.svg`);
    expect([unknown.statusCode, unknown.json<{ code: string }>().code]).toEqual([
      400,
      'HTTP_BAD_REQUEST',
    ]);
    const missing = await investigator.request(
      'GET',
      '/api/statistics/no-such-plan/charts/prevalence.svg',
    );
    expect(missing.statusCode).toBeGreaterThanOrEqual(400);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is refused without a session, to a role without statistics.read (auditor), and to an examiner', async () => {
    const anonymous = await s.server.inject({ method: 'GET', url: CHART });
    expect([anonymous.statusCode, anonymous.json<{ code: string }>().code]).toEqual([
      401,
      'HTTP_UNAUTHENTICATED',
    ]);
    for (const who of ['Auditor Abe', 'Examiner Eve']) {
      const r = await (await signIn(s.server, who)).request('GET', CHART);
      expect([r.statusCode, r.json<{ code: string }>().code], who).toEqual([403, 'HTTP_FORBIDDEN']);
      expect(r.body).not.toContain('<svg');
    }
  });
});
