import { CatalogueLabels, itemText, subjectText, unitText } from '../catalogue/labels.service.js';
import { readFile } from 'node:fs/promises';
import { defineCodebook } from '../examination/codebook/index.js';
import { caseOutcomes, describeSample, loadSample } from '../examination/blind/outcomes.js';
import { drawPlan, type PlanInput } from '../examination/sampling/plan.service.js';
import { parseNonNegativeInt, printJson, requireStr, str, UsageError, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';

export const sampleCommand: Command = {
  name: 'sample',
  summary: 'sampling plans: freeze a frame, fix a seed, draw (each a ledger entry); show a plan and its cases',
  usage:
    'custody sample draw --name NAME --over subjects|items --method simple|systematic|stratified [--by unit|month] --size N [--population M] [--seed TEXT] [--codebook FILE.json] [--json] | ' +
    'custody sample show NAME [--at N] [--json] | custody sample list [--at N] [--json]',
  options: {
    name: { type: 'string' },
    over: { type: 'string' },
    method: { type: 'string' },
    by: { type: 'string' },
    size: { type: 'string' },
    population: { type: 'string' },
    seed: { type: 'string' },
    codebook: { type: 'string' },
    at: { type: 'string' },
  },
  async run(args, io) {
    const [action, name, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    switch (action) {
      case 'draw': {
        const input: PlanInput = {
          name: requireStr(args, 'name', this),
          unit: (str(args, 'over') ?? 'subjects') as PlanInput['unit'],
          method: (str(args, 'method') ?? 'simple') as PlanInput['method'],
          stratify: (str(args, 'by') ?? null) as PlanInput['stratify'],
          size: parseNonNegativeInt(requireStr(args, 'size', this), '--size'),
          population: str(args, 'population') === undefined ? null : parseNonNegativeInt(str(args, 'population'), '--population'),
          seed: str(args, 'seed'),
          codebook: await readCodebook(str(args, 'codebook')),
        };
        const plan = await withArchive(args, io, 'write', 'sample draw', (a) => drawPlan(a, input));
        const out = {
          id: plan.id,
          name: plan.name,
          method: plan.draw.method,
          frame_size: plan.draw.frameSize,
          frame_digest: plan.draw.frameDigest,
          seed: plan.draw.seed,
          size: plan.draw.n,
          manifest_digest: plan.draw.manifestDigest,
          entries: plan.entries,
          merged_duplicate_objects: plan.merged,
          members: plan.draw.members,
        };
        if (wantsJson(args)) printJson(io, out);
        else
          io.stdout(
            `plan ${plan.name} (${plan.id}): ${plan.draw.n} of ${plan.draw.frameSize} drawn (${plan.draw.method})\n` +
              `  frame  ${plan.draw.frameDigest}  (entry ${plan.entries.frame})\n  seed   ${plan.draw.seed}  (entry ${plan.entries.seed})\n` +
              `  manifest ${plan.draw.manifestDigest}  (entry ${plan.entries.manifest})\n`,
          );
        return 0;
      }
      case 'list': {
        const rows = await withArchive(args, io, 'read', 'sample list', (a) => a.examinations.listSamples(), { at: atOption(args) });
        const out = rows.map((s) => ({ id: s.id, name: s.name, over: s.unit_kind, method: s.method, by: s.stratify, size: s.size, frame_size: s.frame_size, frame_digest: s.frame_digest, seed: s.seed, manifest_digest: s.manifest_digest }));
        if (wantsJson(args)) printJson(io, { count: out.length, samples: out });
        else for (const s of out) io.stdout(`${s.name}\t${s.over}\t${s.method}${s.by === null ? '' : ` by ${s.by}`}\t${s.size} of ${s.frame_size}\n`);
        return 0;
      }
      case 'show': {
        if (name === undefined) throw new UsageError(`name the plan\nusage: ${this.usage}`);
        const out = await withArchive(args, io, 'read', 'sample show', async (a) => {
          const s = await loadSample(a, name);
          const cases = await caseOutcomes(a, s);
          const labels = await CatalogueLabels.load(a);
          return {
            ...describeSample(s),
            cases: cases.map((c) => ({
              case: c.case,
              position: c.position,
              stratum: c.stratum,
              examiners: c.examiners,
              submitted: c.submitted.length,
              status: c.status,
              // Names beside the ids: the photograph's file, the subject's number, the stratum's unit.
              label: s.unit_kind === 'items' ? labels.item(c.case) : labels.subject(c.case),
              stratum_unit: s.stratify === 'unit' && c.stratum !== null ? labels.unit(c.stratum) : null,
            })),
          };
        }, { at: atOption(args) });
        if (wantsJson(args)) printJson(io, out);
        else {
          io.stdout(`plan ${out.name} (${out.id}): ${out.size} of ${out.frame_size} ${out.over}, ${out.method}${out.by === null ? '' : ` by ${out.by}`}\n`);
          io.stdout(`  frame ${out.frame_digest} (entry ${out.entries.frame}), seed ${out.seed ?? '-'} (entry ${out.entries.seed ?? '-'}), manifest ${out.manifest_digest ?? '-'} (entry ${out.entries.manifest ?? '-'})\n`);
          io.stdout(`  codebook ${out.codebook.version} ${out.codebook.digest}\n`);
          if (out.cases.length === 0) io.stdout('  No cases drawn yet.\n');
          for (const c of out.cases) {
            const who = c.label === null ? '' : 'item' in c.label ? `  ${itemText(c.label, c.case)}` : `  ${subjectText(c.label)}`;
            const stratum = c.stratum === null ? '' : ` [${c.stratum_unit === null ? c.stratum : unitText(c.stratum_unit)}]`;
            io.stdout(`  ${String(c.position + 1).padStart(4)} ${c.case}${stratum}${who}  ${c.status} (${c.submitted}/${c.examiners.length})\n`);
          }
        }
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`sample what? draw, list or show\nusage: ${this.usage}`);
    }
  },
};

async function readCodebook(file: string | undefined): Promise<PlanInput['codebook']> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --codebook ${file}: ${(e as Error).message}`);
  }
  try {
    return defineCodebook(JSON.parse(text));
  } catch (e) {
    if (e instanceof SyntaxError) throw new UsageError(`--codebook ${file} is not JSON: ${e.message}`);
    throw e;
  }
}
