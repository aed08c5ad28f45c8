import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unitText } from '../catalogue/labels.service.js';
import { type UnitAttribution } from '../catalogue/units/attribution.service.js';
import { catalogueCounts } from '../catalogue/units/counts.service.js';
import { loadSample } from '../examination/blind/index.js';
import { PlanError } from '../examination/sampling/plan.service.js';
import { statisticsView } from '../examination/statistics/statistics-view.service.js';
import type { StatisticsReport } from '../examination/statistics/index.js';
import { deathsByUnitMonthSpec, prevalenceChartSpec, renderSvgDocument } from '../reports/charts/index.js';
import { prevalenceRows } from '../reports/report/index.js';
import { printJson, str, UsageError, type Command, type Io } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { cliMessage } from './error-hints.js';

export const statsCommand: Command = {
  name: 'stats',
  summary: "prevalence of each finding in a sample, with 95% intervals, breakdowns and agreement, tied to a checkpoint",
  usage: 'custody stats [PLAN] [--at TREE-SIZE] [--json] [--charts DIR]',
  options: { at: { type: 'string' }, charts: { type: 'string' } },
  async run(args, io) {
    const [plan, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    const charts = str(args, 'charts');
    const { view, counts } = await withArchive(args, io, 'read', 'stats', async (a) => {
      let ref = plan;
      if (ref === undefined) {
        const all = await a.examinations.listSamples();
        if (all.length !== 1)
          throw new UsageError(all.length === 0 ? 'there is no sampling plan yet (`custody sample draw`)' : `name the plan: ${all.map((s) => s.name).join(', ')}`);
        ref = all[0]?.name ?? '';
      }
      const sample = await loadSample(a, ref).catch((e: unknown) => {
        if (e instanceof PlanError) throw new UsageError(cliMessage(e));
        throw e;
      });
      // The catalogue counts feed only the deaths-by-unit-month chart.
      return {
        view: await statisticsView(a, sample),
        counts: charts === undefined ? null : await catalogueCounts(a),
      };
    }, { at: atOption(args) ?? 'signed' }); // a replay of the ledger at the checkpoint, never the live index
    const { report, attribution } = view;
    if (charts !== undefined && counts !== null) await writeCharts(charts, report, counts.by_unit.map((u) => [u.unit, u.name_en ?? u.name_ar ?? u.unit]), counts.by_unit_month);
    if (wantsJson(args)) printJson(io, view.json);
    else printText(io, report, attribution);
    return 0;
  },
};

async function writeCharts(dir: string, report: StatisticsReport, unitNames: [string, string][], byUnitMonth: { unit: string; month: string; count: number; by_photograph?: number }[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  // The same rows as the tribunal report's chart and the web UI's (one figure per plan and checkpoint).
  const rows = prevalenceRows(report);
  const at = `tree size ${report.checkpoint.tree_size}`;
  await writeFile(join(dir, 'prevalence.svg'), await renderSvgDocument(prevalenceChartSpec(rows, { title: `Prevalence of findings, plan ${report.sample.name} (${at})` })));
  const names = new Map(unitNames);
  const dated = byUnitMonth.filter((r) => /^\d{4}-\d{2}$/.test(r.month)).map((r) => ({ unit: names.get(r.unit) ?? r.unit, month: r.month, count: r.count, byPhotograph: r.by_photograph ?? 0 }));
  if (dated.length > 0)
    await writeFile(join(dir, 'deaths-by-unit-month.svg'), await renderSvgDocument(deathsByUnitMonthSpec(dated, { title: `Deaths by unit and month (${at})` })));
}

function printText(io: Io, r: StatisticsReport, a: UnitAttribution): void {
  io.stdout(`plan ${r.sample.name}: ${r.sample.method}${r.sample.stratify === null ? '' : ` by ${r.sample.stratify}`}, ${r.sample.size} of ${r.sample.frame_size} ${r.sample.unit}\n`);
  io.stdout(`checkpoint: tree size ${r.checkpoint.tree_size}, root ${r.checkpoint.root}${r.checkpoint.signed ? ' (signed)' : ''}; codebook ${r.codebook.version}; ${r.code_version}\n`);
  io.stdout(`cases: ${r.cases.final} final of ${r.cases.sampled} (${r.cases.awaiting_submissions} awaiting submissions, ${r.cases.awaiting_adjudication} awaiting adjudication)\n\n`);
  for (const f of r.findings) {
    const kappa = f.agreement?.coefficients.find((c) => c.name === 'krippendorff_alpha')?.value;
    io.stdout(`${f.sentence}${kappa == null ? '' : ` [alpha ${kappa.toFixed(2)}]`}\n`);
  }
  io.stdout(`\nbreakdowns ${a.breakdowns}${a.strata === null ? '' : `; the stratified estimate keeps its ${a.strata}`}\n`);
  if (a.changed_after_frame.length === 0) io.stdout('No subject changed unit after the frame was fixed.\n');
  else {
    io.stdout(`${a.changed_after_frame.length} subject(s) changed unit after the frame was fixed:\n`);
    for (const c of a.changed_after_frame)
      io.stdout(`  subject ${c.number ?? c.subject} [${c.subject}]: ${unitText(c.from)} → ${unitText(c.to)} (entry ${c.entries.map((e) => `${e.seq}: ${e.reason}`).join('; ')})\n`);
  }
}
