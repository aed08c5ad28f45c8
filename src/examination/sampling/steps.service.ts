// Sampling in steps, days apart if need be: `sample frame` (plan.service.ts recordFrame), then
// `sample seed` with a public beacon value, then `sample draw`. The seed is accepted only once a
// checkpoint that covers the frame entry has been published outside the archive and verifies with
// the archive's key against the ledger: from then on the frame cannot be changed unseen, and the
// seed entry names that checkpoint (size and root) so anyone can check the order of events.
import {
  type JsonValue,
  parseVerifierKey,
  verifyCheckpoint,
  toHex,
  hint,
} from '../../core/index.js';
import type { SamplesTable } from '../../db/index.js';
import { commitDraw, draft, PlanError } from './plan.service.js';
import type { SampleDraw } from './draw.js';
import type { StratifiedDraw } from './stratified.js';
import type { Ledger } from '../../ledger/ledger.service.js';
import { requireRole, type ActingContext, type Commits } from '../ports.js';

/** The ledger's entries: where the index says a plan's frame entry is, its details are read. */
export interface FrameReads {
  readonly ledger: Pick<Ledger, 'read'>;
}

/** What checking a published checkpoint against the ledger reads: the archive's key, origin and roots. */
export interface SignedRootReads {
  readonly verifierKey: string;
  readonly manifest: { readonly origin: string };
  readonly ledger: Pick<Ledger, 'size' | 'root'>;
}

/** The folder of published checkpoints, as `checkpoint --publish` writes it (read side only). */
export interface PublishedCheckpoints {
  sizes(): Promise<number[]>;
  read(size: number): Promise<string | null>;
}

export interface BeaconSeed {
  /** Who publishes the value (e.g. "drand-quicknet", "NIST"). */
  beacon: string;
  round: number;
  /** The beacon's output, hex. */
  value: string;
}

export interface FixedSeed {
  seed: string;
  seq: number;
  checkpoint: { size: number; root: string };
}

/** Step 2: fixes the seed from a beacon value, after a published checkpoint covers the frame. */
export async function fixSeed(archive: SignedRootReads & Commits, ctx: Pick<ActingContext, 'actor' | 'role'>, sample: SamplesTable, beacon: BeaconSeed, published: PublishedCheckpoints, folder: string): Promise<FixedSeed> {
  requireRole(ctx, 'sample.manage');
  if (sample.seed !== null) throw new PlanError('SAMPLE_STEP_DONE', `plan ${sample.name} already has its seed (entry ${sample.seed_seq ?? '?'})`);
  if (beacon.beacon.trim() === '' || /\p{Cc}/u.test(beacon.beacon)) throw new PlanError('SAMPLE_PLAN_INVALID', 'the seed needs the name of the public randomness beacon', { details: hint({ field: 'beacon' }) });
  if (!Number.isSafeInteger(beacon.round) || beacon.round < 0) throw new PlanError('SAMPLE_PLAN_INVALID', "the beacon's round must be a whole number", { details: hint({ field: 'round' }) });
  if (!/^(?:[0-9a-fA-F]{2}){16,}$/.test(beacon.value))
    throw new PlanError('SAMPLE_PLAN_INVALID', 'the value must be the beacon output in hex, at least 16 bytes', { details: hint({ field: 'value' }) });
  const checkpoint = await coveringCheckpoint(archive, sample.frame_seq, published, folder);
  const seed = beacon.value.toLowerCase();
  const [entry] = await archive.commit([
    draft(ctx.actor, {
      action: 'sample.seed',
      sample: sample.id,
      seed,
      seed_source: 'beacon',
      beacon: { name: beacon.beacon, round: beacon.round, value: seed },
      checkpoint,
    }),
  ]);
  return { seed, seq: entry?.entry.seq ?? -1, checkpoint };
}

/**
 * The smallest published checkpoint that covers the frame entry (size ≥ frame seq + 1), signed
 * with this archive's key, for this archive's origin, with the ledger's root at its size. The
 * folder is outside the archive and anyone may have written to it: every file is verified, and
 * files that do not verify are passed over.
 */
async function coveringCheckpoint(archive: SignedRootReads, frameSeq: number, published: PublishedCheckpoints, folder: string): Promise<{ size: number; root: string }> {
  const verifier = parseVerifierKey(archive.verifierKey);
  let sizes: number[];
  try {
    sizes = await published.sizes();
  } catch (e) {
    throw new PlanError('SAMPLE_FRAME_UNPUBLISHED', `cannot read the published checkpoints in ${folder}: ${(e as Error).message}`, { cause: e });
  }
  for (const size of sizes) {
    if (size < frameSeq + 1 || size > archive.ledger.size) continue;
    const note = await published.read(size);
    if (note === null) continue;
    try {
      const cp = verifyCheckpoint(note, verifier);
      if (cp.origin !== archive.manifest.origin || cp.size !== size || !archive.ledger.root(size).equals(cp.root)) continue;
      return { size, root: toHex(cp.root) };
    } catch {
      continue;
    }
  }
  throw new PlanError(
    'SAMPLE_FRAME_UNPUBLISHED',
    `no signed checkpoint in ${folder} covers the frame (ledger entry ${frameSeq}); nothing was recorded`,
    { details: { frame_seq: frameSeq, folder, ...hint({ remedy: ['publish-checkpoint'] }) } },
  );
}

/** Step 3: draws a plan whose frame and seed are recorded. */
export async function drawRecorded(archive: FrameReads & Commits, ctx: Pick<ActingContext, 'actor' | 'role'>, sample: SamplesTable): Promise<{ draw: SampleDraw | StratifiedDraw; entries: { frame: number; seed: number; manifest: number } }> {
  if (sample.manifest_seq !== null) throw new PlanError('SAMPLE_STEP_DONE', `plan ${sample.name} is already drawn (entry ${sample.manifest_seq})`);
  if (sample.seed === null || sample.seed_seq === null)
    throw new PlanError('SAMPLE_NOT_SEEDED', `plan ${sample.name} has no seed yet`, { details: { plan: sample.name, ...hint({ remedy: ['seed-plan'] }) } });
  const details = await frameDetails(archive, sample);
  const { draw, manifestSeq } = await commitDraw(archive, ctx, sample.id, details, sample.seed);
  return { draw, entries: { frame: sample.frame_seq, seed: sample.seed_seq, manifest: manifestSeq } };
}

/** The recorded frame entry's details, read from the ledger (the index only says where it is). */
export async function frameDetails(archive: FrameReads, sample: SamplesTable): Promise<{ readonly [k: string]: JsonValue }> {
  const [stored] = await archive.ledger.read(sample.frame_seq, sample.frame_seq + 1);
  const d = stored?.entry.details;
  if (d?.action !== 'sample.frame' || (d.sample as { id?: unknown } | undefined)?.id !== sample.id)
    throw new PlanError('SAMPLE_NOT_FOUND', `ledger entry ${sample.frame_seq} is not the frame of plan ${sample.name}: the index disagrees with the ledger`, { details: hint({ remedy: ['verify'] }) });
  return d;
}

/**
 * The frame as scripts/redraw-sample.py reads it: for a stratified plan its `--strata` CSV (rows
 * `stratum,id`), otherwise its `--frame` file (one id per line). Both UTF-8, LF, no header.
 */
export function frameFileFor(details: { readonly [k: string]: JsonValue }): { kind: 'strata' | 'frame'; text: string } {
  if (Array.isArray(details.strata)) {
    const rows = (details.strata as { name: string; units: string[] }[]).flatMap((s) => s.units.map((id) => `${csvField(s.name)},${csvField(id)}`));
    return { kind: 'strata', text: rows.map((r) => `${r}\n`).join('') };
  }
  const ids = (details.frame as string[] | undefined) ?? [];
  return { kind: 'frame', text: ids.map((id) => `${id}\n`).join('') };
}

function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
