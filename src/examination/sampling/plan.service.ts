// `custody sample draw`: a sampling plan in three ledger entries, in this order, so that no one
// can choose the seed after seeing the frame's members fall:
//   1. sample.frame     the frame, frozen: every unit id (per stratum), its digest (PROCEDURE.md §1)
//   2. sample.seed      the seed, fixed only once the frame is on the ledger
//   3. sample.manifest  the draw (PROCEDURE.md §4–6): members in draw order, manifest digest
// Anyone can re-draw the members from entries 1 and 2 with scripts/redraw-sample.py. The three
// steps can also be taken one at a time, days apart (steps.service.ts): recordFrame here.
import { randomBytes } from 'node:crypto';
import { type JsonValue, CustodyError,
  hint,
} from '../../core/index.js';
import type { EntryDraft, ExaminationDetails, SampleFrameDetails, SampleManifestDetails } from '../../ledger/index.js';
import { codebookDigest, DEFAULT_CODEBOOK, type Codebook } from '../codebook/index.js';
import { drawSimpleRandom, drawSystematic, type SampleDraw } from './draw.js';
import { canonicalFrame, compareCodePoints, dedupeFrame, digestSorted, frameDigest } from './frame.js';
import { drawStratified, strataDigest, type StratifiedDraw } from './stratified.js';
import { SamplingError } from './errors.js';
import { requireRole, type ActingContext, type Commits, type ExaminationReads, type IndexReads } from '../ports.js';

/** What freezing a frame reads (the plans, the catalogue's subjects, the items and their links) and writes (../ports.ts). */
export type FramePorts = ExaminationReads<'findSample' | 'framableItems' | 'allSubjectItems'> & IndexReads<'listSubjects'> & Commits;

export type PlanErrorCode =
  | 'SAMPLE_EXISTS'
  | 'SAMPLE_NOT_FOUND'
  | 'SAMPLE_PLAN_INVALID'
  /** `sample seed` on a plan whose seed is already fixed, or `sample draw` on a drawn plan. */
  | 'SAMPLE_STEP_DONE'
  /** `sample draw NAME` before `sample seed NAME`. */
  | 'SAMPLE_NOT_SEEDED'
  /** `sample seed` without a signed checkpoint, published outside the archive, that covers the frame entry. */
  | 'SAMPLE_FRAME_UNPUBLISHED';
export class PlanError extends CustodyError<PlanErrorCode> {}

export interface PlanInput {
  name: string;
  unit: 'subjects' | 'items';
  method: 'simple' | 'systematic' | 'stratified';
  stratify?: 'unit' | 'month' | null;
  size: number;
  /** Take the whole frame (size = frame size), in random order. */
  census?: boolean;
  /** Known population size for extrapolation; defaults to the frame size. */
  population?: number | null;
  /** Given (e.g. from a public lottery drawn after the frame was published), else 32 random bytes. */
  seed?: string;
  codebook?: Codebook;
}

export interface DrawnPlan {
  id: string;
  name: string;
  draw: SampleDraw | StratifiedDraw;
  entries: { frame: number; seed: number; manifest: number };
  merged: number;
}

/** Stratum of a subject: its unit, or the month (YYYY-MM) of death, else of photography. */
export function stratumOf(
  by: 'unit' | 'month',
  s: { unit_id: string | null; date_of_death: string | null; date_of_photography: string | null } | undefined,
): string {
  if (by === 'unit') return s?.unit_id ?? 'unattributed';
  const date = s?.date_of_death ?? s?.date_of_photography ?? null;
  return date !== null && date.length >= 7 ? date.slice(0, 7) : 'undated';
}

export async function drawPlan(archive: FramePorts, ctx: ActingContext, input: PlanInput): Promise<DrawnPlan> {
  requireRole(ctx, 'sample.manage');
  const frame = await recordFrame(archive, ctx, input);
  // Only now, with the frame on the ledger, is the seed chosen.
  const seed = input.seed ?? randomBytes(32).toString('hex');
  const [seedEntry] = await archive.commit([
    draft(ctx.actor, { action: 'sample.seed', sample: frame.id, seed, seed_source: input.seed === undefined ? 'random' : 'given' }),
  ]);
  const { draw, manifestSeq } = await commitDraw(archive, ctx, frame.id, frame.details, seed);
  return {
    id: frame.id,
    name: input.name,
    draw,
    entries: { frame: frame.seq, seed: seedEntry?.entry.seq ?? -1, manifest: manifestSeq },
    merged: frame.merged,
  };
}

export interface RecordedFrame {
  id: string;
  seq: number;
  size: number;
  frameSize: number;
  frameDigest: string;
  merged: number;
  details: { [k: string]: JsonValue };
}

/** Step 1: freezes the frame in a `sample.frame` entry. The size is checked against it first. */
export async function recordFrame(archive: FramePorts, ctx: ActingContext, input: PlanInput): Promise<RecordedFrame> {
  requireRole(ctx, 'sample.manage');
  checkInput(input);
  if ((await archive.examinations.findSample(input.name)) !== undefined)
    throw new PlanError('SAMPLE_EXISTS', `a sampling plan named ${input.name} already exists`);
  const { units, merged } = await buildFrame(archive, input.unit, input.stratify ?? null);
  const codebook = input.codebook ?? DEFAULT_CODEBOOK;
  const id = ctx.newId();
  const stratify = input.method === 'stratified' ? (input.stratify ?? null) : null;
  const strata = stratify === null ? null : groupStrata(units);
  const digest =
    strata === null
      ? frameDigest(units.map((u) => u.id))
      : digestOfStrata(strata);
  const frameSize = units.length;
  const size = input.census === true ? frameSize : input.size;
  if (size > frameSize)
    throw new SamplingError(
      'SAMPLE_SIZE_EXCEEDS_FRAME',
      `cannot draw ${size} of ${frameSize} ${input.unit}: the frame holds only ${frameSize}; nothing was recorded`,
      { details: { n: size, frameSize, ...hint({ remedy: ['census'] }) } },
    );
  if (size < 1) throw new SamplingError('SAMPLE_SIZE_INVALID', `the frame is empty: there are no ${input.unit} to sample`);
  const population = input.population ?? (input.unit === 'subjects' ? frameSize : null);
  if (population !== null && population < frameSize)
    throw new PlanError('SAMPLE_PLAN_INVALID', `the population is smaller than the frame (${frameSize} ${input.unit})`, { details: hint({ field: 'population', value: population }) });
  const sample = {
    id,
    name: input.name,
    unit: input.unit,
    method: input.method,
    stratify,
    size,
    population,
    codebook: { version: codebook.version, digest: codebookDigest(codebook), definition: codebook as unknown as JsonValue },
  };
  const frameDetails: SampleFrameDetails = { action: 'sample.frame', sample, frame_digest: digest, frame_size: frameSize, merged };
  if (strata === null) frameDetails.frame = canonicalFrame(units.map((u) => u.id));
  else frameDetails.strata = [...strata].map(([name, ids]) => ({ name, units: ids, frame_digest: digestSorted(ids) }));
  const [frameEntry] = await archive.commit([draft(ctx.actor, frameDetails)]);
  return { id, seq: frameEntry?.entry.seq ?? -1, size, frameSize, frameDigest: digest, merged: merged.length, details: frameDetails };
}

/** Step 3: draws from the recorded frame entry's details and the seed, and records the manifest. */
export async function commitDraw(
  archive: Commits,
  ctx: Pick<ActingContext, 'actor' | 'role'>,
  id: string,
  frameDetails: { readonly [k: string]: JsonValue },
  seed: string,
): Promise<{ draw: SampleDraw | StratifiedDraw; manifestSeq: number }> {
  requireRole(ctx, 'sample.manage');
  const s = frameDetails.sample as { method: PlanInput['method']; size: number };
  const strata = Array.isArray(frameDetails.strata)
    ? new Map((frameDetails.strata as { name: string; units: string[] }[]).map((x) => [x.name, x.units]))
    : null;
  const ids = Array.isArray(frameDetails.frame) ? (frameDetails.frame as string[]) : [];
  const draw = drawMembers(s.method, s.size, ids, strata, seed);
  const manifest: SampleManifestDetails = {
    action: 'sample.manifest',
    sample: id,
    method: draw.method,
    frame_digest: draw.frameDigest,
    seed,
    members: [...draw.members],
    manifest_digest: draw.manifestDigest,
  };
  if ('strata' in draw)
    manifest.strata = draw.strata.map((x) => ({ name: x.name, seed: x.seed, frame_digest: x.frameDigest, frame_size: x.frameSize, n: x.n, members: [...x.members] }));
  const [manifestEntry] = await archive.commit([draft(ctx.actor, manifest)]);
  return { draw, manifestSeq: manifestEntry?.entry.seq ?? -1 };
}

interface FrameUnit {
  id: string;
  stratum: string;
}

async function buildFrame(
  archive: Omit<FramePorts, 'commit'>,
  unit: 'subjects' | 'items',
  stratify: 'unit' | 'month' | null,
): Promise<{ units: FrameUnit[]; merged: { [k: string]: JsonValue }[] }> {
  const subjects = new Map((await archive.index.listSubjects()).filter((s) => s.status === 'active').map((s) => [s.id, s]));
  if (unit === 'subjects') {
    return { units: [...subjects.values()].map((s) => ({ id: s.id, stratum: stratify === null ? '' : stratumOf(stratify, s) })), merged: [] };
  }
  // Items: one unit per object, so two copies of one photograph are never two units.
  const items = await archive.examinations.framableItems();
  const deduped = dedupeFrame(items.map((i) => ({ id: i.id, objectSha256: i.sha256 })));
  const subjectOf = new Map((await archive.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id]));
  return {
    units: deduped.frame.map((id) => {
      const s = subjects.get(subjectOf.get(id) ?? '');
      return { id, stratum: stratify === null ? '' : stratumOf(stratify, s) };
    }),
    merged: deduped.merged.map((m) => ({ object: m.objectSha256, kept: m.kept, dropped: [...m.dropped] })),
  };
}

function groupStrata(units: readonly FrameUnit[]): Map<string, string[]> {
  const strata = new Map<string, string[]>();
  for (const u of units) strata.set(u.stratum, [...(strata.get(u.stratum) ?? []), u.id]);
  const names = [...strata.keys()].sort(compareCodePoints);
  return new Map(names.map((n) => [n, canonicalFrame(strata.get(n) ?? [])]));
}

/** PROCEDURE.md §6, over strata already in name order with canonical frames (groupStrata). */
function digestOfStrata(strata: ReadonlyMap<string, string[]>): string {
  return strataDigest([...strata].map(([name, ids]) => [name, digestSorted(ids)] as const));
}

function drawMembers(method: PlanInput['method'], size: number, ids: readonly string[], strata: Map<string, string[]> | null, seed: string): SampleDraw | StratifiedDraw {
  if (strata !== null) return drawStratified(Object.fromEntries(strata), { total: size }, seed);
  return method === 'systematic' ? drawSystematic(ids, size, seed) : drawSimpleRandom(ids, size, seed);
}

function checkInput(input: PlanInput): void {
  if (input.name.trim() === '' || /[\p{Cc}/]/u.test(input.name))
    throw new PlanError('SAMPLE_PLAN_INVALID', 'the plan needs a name without "/" or control characters', { details: hint({ field: 'name' }) });
  if (!['subjects', 'items'].includes(input.unit)) throw new PlanError('SAMPLE_PLAN_INVALID', 'a plan is over subjects or items', { details: hint({ field: 'over', value: input.unit }) });
  if (!['simple', 'systematic', 'stratified'].includes(input.method))
    throw new PlanError('SAMPLE_PLAN_INVALID', 'the method is simple, systematic or stratified', { details: hint({ field: 'method', value: input.method }) });
  if (input.method === 'stratified' && input.stratify !== 'unit' && input.stratify !== 'month')
    throw new PlanError('SAMPLE_PLAN_INVALID', 'a stratified plan is stratified by unit or by month', { details: hint({ field: 'by' }) });
  if (input.method !== 'stratified' && input.stratify != null)
    throw new PlanError('SAMPLE_PLAN_INVALID', 'strata apply to a stratified plan only', { details: hint({ field: 'by' }) });
  if (input.census !== true && (!Number.isSafeInteger(input.size) || input.size < 1)) throw new SamplingError('SAMPLE_SIZE_INVALID', `sample size must be a whole number >= 1, got ${input.size}`);
}

/** A sampling entry by `actor` (the operation context's). */
export function draft(actor: string, details: ExaminationDetails): EntryDraft {
  return { actor, type: 'examination', items: [], objects: [], details };
}
