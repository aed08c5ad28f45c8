import { CatalogueLabels, itemText, subjectText, unitText } from '../catalogue/labels.service.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CheckpointFiles } from '../ledger/checkpoint-files.adapter.js';
import { defineCodebook } from '../examination/codebook/index.js';
import { caseOutcomes, describeSample, loadSample } from '../examination/blind/index.js';
import { drawPlan, recordFrame, type PlanInput } from '../examination/sampling/plan.service.js';
import { drawRecorded, fixSeed, frameDetails, frameFileFor } from '../examination/sampling/steps.service.js';
import { flag, parseNonNegativeInt, printJson, requireStr, str, UsageError, writeOutFile, type Command, type ParsedArgs } from './command.js';
import { atOption, configFrom, operationContext, wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const sampleCommand: Command = {
  name: 'sample',
  summary: 'sampling plans: freeze a frame, fix a seed, draw (each a ledger entry; in one step or three); show a plan and its cases',
  usage:
    'custody sample draw --name NAME --over subjects|items --method simple|systematic|stratified [--by unit|month] --size N|--census [--population M] [--seed TEXT] [--codebook FILE.json] [--json] | ' +
    'in steps: custody sample frame NAME --over … --method … [--by …] --size N|--census [--population M] [--codebook FILE.json] [--csv [--out FILE]]; custody checkpoint --publish DIR; ' +
    'custody sample seed NAME --beacon NAME --round N --value HEX [--published DIR (default $CUSTODY_PUBLISH_CHECKPOINTS)]; custody sample draw NAME | ' +
    'custody sample frame NAME --csv [--out FILE] (the frame as scripts/redraw-sample.py reads it) | ' +
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
    census: { type: 'boolean' },
    csv: { type: 'boolean' },
    out: { type: 'string' },
    beacon: { type: 'string' },
    round: { type: 'string' },
    value: { type: 'string' },
    published: { type: 'string' },
    at: { type: 'string' },
  },
  async run(args, io) {
    const [action, name, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
    switch (action) {
      case 'frame': {
        if (name === undefined) throw new UsageError(`name the plan: sample frame NAME …\nusage: ${this.usage}`);
        const creating = ['over', 'method', 'by', 'size', 'population', 'codebook'].some((k) => args.values[k] !== undefined) || flag(args, 'census');
        if (creating) {
          const input = await planInput(args, name, this);
          const f = await withArchive(args, io, 'write', 'sample frame', (a) => recordFrame(a, operationContext(a), input));
          if (!flag(args, 'csv')) {
            if (wantsJson(args)) printJson(io, { id: f.id, name, frame_size: f.frameSize, frame_digest: f.frameDigest, size: f.size, entries: { frame: f.seq }, merged_duplicate_objects: f.merged });
            else
              io.stdout(
                `plan ${name} (${f.id}): frame of ${f.frameSize} frozen, ${f.size} to draw\n  frame  ${f.frameDigest}  (entry ${f.seq})\n` +
                  `next: custody checkpoint --publish DIR, then custody sample seed ${name} --beacon NAME --round N --value HEX\n`,
              );
            return 0;
          }
        } else if (!flag(args, 'csv')) throw new UsageError(`sample frame ${name}: give the frame (--over, --method, --size|--census) or --csv to write it out\nusage: ${this.usage}`);
        const file = await withArchive(args, io, 'read', 'sample frame --csv', async (a) => frameFileFor(await frameDetails(a, await loadSample(a, name))));
        const out = str(args, 'out');
        if (out !== undefined) {
          await writeOutFile(out, file.text);
          io.stderr(`wrote ${out}: python3 scripts/redraw-sample.py --${file.kind} ${out} --seed SEED ${file.kind === 'strata' ? '--n SIZE' : '--n SIZE --method METHOD'} --digests\n`);
        } else io.stdout(file.text);
        return 0;
      }
      case 'seed': {
        if (name === undefined) throw new UsageError(`name the plan: sample seed NAME …\nusage: ${this.usage}`);
        const folderOpt = str(args, 'published') ?? configFrom(args, io).publishCheckpointsDir ?? undefined;
        if (folderOpt === undefined || folderOpt === '')
          throw new UsageError('sample seed needs the folder where checkpoints were published: --published DIR or CUSTODY_PUBLISH_CHECKPOINTS (see `custody checkpoint --publish DIR`)');
        const folder = resolve(folderOpt);
        const beacon = { beacon: requireStr(args, 'beacon', this), round: parseNonNegativeInt(requireStr(args, 'round', this), '--round'), value: requireStr(args, 'value', this) };
        const r = await withArchive(args, io, 'write', 'sample seed', async (a) => fixSeed(a, operationContext(a), await loadSample(a, name), beacon, new CheckpointFiles(folder), folder));
        if (wantsJson(args)) printJson(io, { name, seed: r.seed, entries: { seed: r.seq }, checkpoint: r.checkpoint });
        else io.stdout(`plan ${name}: seed fixed from ${beacon.beacon} round ${beacon.round} (entry ${r.seq}), after checkpoint ${r.checkpoint.size} ${r.checkpoint.root}\nnext: custody sample draw ${name}\n`);
        return 0;
      }
      case 'draw': {
        if (name !== undefined && str(args, 'name') === undefined) {
          const d = await withArchive(args, io, 'write', 'sample draw', async (a) => {
            const sample = await loadSample(a, name);
            return { id: sample.id, ...(await drawRecorded(a, operationContext(a), sample)) };
          });
          printDrawn(io, args, { id: d.id, name, draw: d.draw, entries: d.entries, merged: null });
          return 0;
        }
        if (name !== undefined) throw new UsageError(`give the plan's name once\nusage: ${this.usage}`);
        const input = await planInput(args, requireStr(args, 'name', this), this);
        const plan = await withArchive(args, io, 'write', 'sample draw', (a) => drawPlan(a, operationContext(a), input));
        printDrawn(io, args, { id: plan.id, name: plan.name, draw: plan.draw, entries: plan.entries, merged: plan.merged });
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
            const who = c.label === null ? '' : 'item' in c.label ? `  ${tt(itemText(c.label, c.case))}` : `  ${tt(subjectText(c.label))}`;
            const stratum = c.stratum === null ? '' : ` [${tt(c.stratum_unit === null ? c.stratum : unitText(c.stratum_unit))}]`;
            io.stdout(`  ${String(c.position + 1).padStart(4)} ${c.case}${stratum}${who}  ${c.status} (${c.submitted}/${c.examiners.length})\n`);
          }
        }
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`sample what? frame, seed, draw, list or show\nusage: ${this.usage}`);
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

async function planInput(args: ParsedArgs, name: string, cmd: Command): Promise<PlanInput> {
  const census = flag(args, 'census');
  if (census && str(args, 'size') !== undefined) throw new UsageError('give --size N or --census, not both');
  return {
    name,
    unit: (str(args, 'over') ?? 'subjects') as PlanInput['unit'],
    method: (str(args, 'method') ?? 'simple') as PlanInput['method'],
    stratify: (str(args, 'by') ?? null) as PlanInput['stratify'],
    size: census ? 0 : parseNonNegativeInt(requireStr(args, 'size', cmd), '--size'),
    census,
    population: str(args, 'population') === undefined ? null : parseNonNegativeInt(str(args, 'population'), '--population'),
    seed: str(args, 'seed'),
    codebook: await readCodebook(str(args, 'codebook')),
  };
}

function printDrawn(
  io: Parameters<Command['run']>[1],
  args: ParsedArgs,
  plan: { id: string; name: string; draw: { method: string; frameSize: number; frameDigest: string; seed: string; n: number; manifestDigest: string; members: readonly string[] }; entries: { frame: number; seed: number; manifest: number }; merged: number | null },
): void {
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
    ...(plan.merged === null ? {} : { merged_duplicate_objects: plan.merged }),
    members: plan.draw.members,
  };
  if (wantsJson(args)) printJson(io, out);
  else
    io.stdout(
      `plan ${plan.name} (${plan.id}): ${plan.draw.n} of ${plan.draw.frameSize} drawn (${plan.draw.method})\n` +
        `  frame  ${plan.draw.frameDigest}  (entry ${plan.entries.frame})\n  seed   ${plan.draw.seed}  (entry ${plan.entries.seed})\n` +
        `  manifest ${plan.draw.manifestDigest}  (entry ${plan.entries.manifest})\n`,
    );
}
