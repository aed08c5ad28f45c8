/**
 * data/tables/samples.json, and the sample redrawn. Which plans a bag carries is the exporter's rule
 * (reports/export/examination-tables.ts): every drawn plan with a member among the exported items
 * (or the subjects they show). Each plan is described from its `sample.frame|seed|manifest`
 * entries, and its members are drawn again from the frame and the seed with the sampling module's
 * own draw (PROCEDURE.md): the same members, in the same order, as the manifest entry. Pure.
 */
import type { JsonValue } from '../../../core/index.js';
import type { SamplesTable } from '../../../db/index.js';
import { describeSample } from '../../../examination/blind/index.js';
import { drawSimpleRandom, drawStratified, drawSystematic, type SampleDraw } from '../../../examination/sampling/index.js';
import type { Row } from './derive-items.js';
import type { ReplayedIndex } from './replay.js';

/** The plans the bag should carry, in frame order. */
export function exportedSamples(index: ReplayedIndex, itemIds: readonly string[]): SamplesTable[] {
  const items = new Set(itemIds);
  const subjects = new Set(itemIds.map((i) => index.subjectItems.get(i)?.subject_id).filter((s) => s !== undefined));
  return [...index.samples.values()]
    .filter((s) => s.manifest_seq !== null)
    .filter((s) => index.members.some((m) => m.sample_id === s.id && (s.unit_kind === 'items' ? items.has(m.member_id) : subjects.has(m.member_id))))
    .sort((a, b) => a.frame_seq - b.frame_seq);
}

export function deriveSampleRow(index: ReplayedIndex, sample: SamplesTable): Row {
  return {
    ...describeSample(sample),
    members: index.members.filter((m) => m.sample_id === sample.id).map((m) => ({ case: m.member_id, position: m.position, stratum: m.stratum })),
  };
}

export interface Redraw {
  /** The members drawn again, in draw order; null when the frame or seed entry cannot be drawn from. */
  members: readonly string[] | null;
  frameDigest: string | null;
  manifestDigest: string | null;
  /** Why it could not be drawn. */
  problem: string | null;
}

/** Draws the plan again from its frame entry and seed (PROCEDURE.md §4–6). */
export function redrawSample(index: ReplayedIndex, sample: SamplesTable): Redraw {
  const none = (problem: string): Redraw => ({ members: null, frameDigest: null, manifestDigest: null, problem });
  const frame = index.bySeq.get(sample.frame_seq);
  if (frame === undefined) return none(`the sample.frame entry ${sample.frame_seq} is not in custody/ledger.jsonl`);
  if (sample.seed === null) return none('the plan has no seed entry');
  const d = frame.details;
  const plan = d.sample as { method?: JsonValue; size?: JsonValue } | undefined;
  try {
    let draw: SampleDraw;
    if (Array.isArray(d.strata)) {
      const strata = Object.fromEntries((d.strata as { name: string; units: string[] }[]).map((s) => [s.name, s.units]));
      draw = drawStratified(strata, { total: Number(plan?.size) }, sample.seed);
    } else {
      const ids = Array.isArray(d.frame) ? (d.frame as string[]) : [];
      draw = plan?.method === 'systematic' ? drawSystematic(ids, Number(plan.size), sample.seed) : drawSimpleRandom(ids, Number(plan?.size), sample.seed);
    }
    return { members: draw.members, frameDigest: draw.frameDigest, manifestDigest: draw.manifestDigest, problem: null };
  } catch (e) {
    return none(`the frame and seed cannot be drawn from: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The members the manifest entry records, in draw order. */
export function manifestMembers(index: ReplayedIndex, sample: SamplesTable): string[] {
  const entry = sample.manifest_seq === null ? undefined : index.bySeq.get(sample.manifest_seq);
  const members = entry?.details.members;
  return Array.isArray(members) ? members.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))) : [];
}
