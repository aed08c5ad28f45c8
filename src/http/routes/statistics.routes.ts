import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { openArchive, type Archive } from '../../app.js';
import { loadSample } from '../../examination/blind/index.js';
import { statisticsView } from '../../examination/statistics/statistics-view.service.js';
import { statisticsChartSvg } from '../../reports/report/statistics-charts.service.js';
import { wilsonInterval } from '../../stats/index.js';
import { derivedOf } from '../derived.js';
import { HttpError } from '../errors.js';
import { defineRoute, type RouteDef } from './route.js';
import { Open } from './schemas.js';

export const PLAN_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$';

export const statisticsRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/statistics',
    blind: 'refused',
    access: { permission: 'statistics.read' },
    summary: 'the sampling plans whose statistics can be asked for: name, method and size',
    tags: ['statistics'],
    schema: {
      response: {
        200: Type.Object({
          plans: Type.Array(
            Type.Object({
              id: Type.String(),
              name: Type.String(),
              method: Type.String(),
              size: Type.Integer(),
            }),
          ),
        }),
      },
    },
    async handler({ archive }) {
      const plans = await archive.examinations.listSamples();
      return {
        plans: plans.map((p) => ({
          id: p.id,
          name: p.name,
          method: p.method,
          size: Number(p.size),
        })),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/statistics/:plan',
    blind: 'refused',
    access: { permission: 'statistics.read' },
    summary:
      "a plan's prevalence estimates, intervals, breakdowns and agreement at the latest signed checkpoint (as `custody stats --json`)",
    tags: ['statistics'],
    schema: {
      params: Type.Object(
        { plan: Type.String({ pattern: PLAN_PATTERN, description: 'the plan name or id' }) },
        { additionalProperties: false },
      ),
      response: {
        200: Open({
          sample: Open({ name: Type.String() }),
          checkpoint: Open({ tree_size: Type.Integer(), root: Type.String() }),
          findings: Type.Array(Open({})),
          unit_attribution: Open({}),
        }),
      },
    },
    async handler({ params, archive, request }) {
      return (await planStatistics(request, archive, params.plan)).json;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/statistics/:plan/charts/:chart.svg',
    blind: 'refused',
    access: { permission: 'statistics.read' },
    summary:
      "a chart of a plan's statistics at the latest signed checkpoint, as SVG drawn on the server by the report's own Vega-Lite spec (`prevalence`: each finding's estimate with its 95% interval)",
    tags: ['statistics'],
    schema: {
      params: Type.Object(
        {
          plan: Type.String({ pattern: PLAN_PATTERN, description: 'the plan name or id' }),
          // Each of STATISTICS_CHARTS, written out so that the handler's type is the literal.
          chart: Type.Union([Type.Literal('prevalence')], { description: 'which chart' }),
        },
        { additionalProperties: false },
      ),
    },
    async handler({ params, archive, request, reply }) {
      const { key, json } = await planStatistics(request, archive, params.plan);
      const cache = derivedOf(request.server.custody).statistics;
      const chartKey = `${key}\u0000chart:${params.chart}`;
      const stats = await json;
      let svg = cache.get(chartKey) as Promise<string | null> | undefined;
      if (svg === undefined) {
        svg = statisticsChartSvg(stats, params.chart);
        cache.set(chartKey, svg);
        svg.catch(() => cache.delete(chartKey));
      }
      const doc = await svg;
      if (doc === null)
        throw new HttpError(
          'HTTP_NOT_FOUND',
          `no finding of plan ${params.plan} has an estimate to draw yet`,
          {
            details: { plan: params.plan, chart: params.chart },
          },
        );
      // Our own renderer's SVG (text escaped by Vega, no scripts, nothing fetched); still, opened
      // on its own it runs under a policy that allows nothing but its inline styles.
      void reply.header('X-Content-Type-Options', 'nosniff');
      void reply.header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      void reply.header('Cache-Control', 'private, no-cache');
      // The checkpoint the figures were computed from, for the page's caption: the latest signed
      // one may have moved on since the page read the plan's statistics.
      void reply.header('X-Custody-Checkpoint', String(stats.checkpoint.tree_size));
      return reply.type('image/svg+xml; charset=utf-8').send(doc);
    },
  }),
];

type PlanStatistics = ReturnType<
  typeof withUnitIntervals<Awaited<ReturnType<typeof statisticsView>>['json']>
>;

/**
 * A plan's statistics as GET /api/statistics/:plan returns them. As the CLI: over a replay of the
 * ledger at the latest signed checkpoint, never the live index. A signed size never changes, so its
 * statistics are computed once per plan (and its charts once per plan and chart).
 */
async function planStatistics(
  request: FastifyRequest,
  archive: Archive,
  plan: string,
): Promise<{ key: string; json: Promise<PlanStatistics> }> {
  const derived = derivedOf(request.server.custody);
  const signed = await derived.latestSigned();
  const cache = derived.statistics;
  const key = `${signed ?? 'none'}\u0000${plan}`;
  let out = cache.get(key) as Promise<PlanStatistics> | undefined;
  if (out === undefined) {
    out = (async () => {
      const at = await openArchive(archive.config, 'read', 'stats', { at: 'signed' });
      try {
        return withUnitIntervals((await statisticsView(at, await loadSample(at, plan))).json);
      } finally {
        await at.close();
      }
    })();
    cache.set(key, out);
    out.catch(() => cache.delete(key));
  }
  return { key, json: out };
}

interface UnitRow {
  present: number;
  assessed: number;
}

/**
 * The web UI shows the breakdown by unit with intervals: each unit row gains the Wilson 95%
 * interval of its proportion (the unit's cases taken as a simple random sample of the unit, as each
 * stratum of a plan stratified by unit is), null when none was assessed. Fields added only, and
 * only here: `custody stats --json` and the export's statistics table stay as they are.
 */
function withUnitIntervals<
  T extends { findings: readonly { breakdowns: { unit: readonly UnitRow[] } }[] },
>(json: T): T {
  return {
    ...json,
    findings: json.findings.map((f) => ({
      ...f,
      breakdowns: {
        ...f.breakdowns,
        unit: f.breakdowns.unit.map((b) => ({
          ...b,
          interval: b.assessed === 0 ? null : wilsonInterval(b.present, b.assessed),
        })),
      },
    })),
  };
}
