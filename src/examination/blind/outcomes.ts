// What each case of a sample has come to, read from the index: who was assigned, who submitted,
// the revealed answers (each checked against its commitment), and the final answer (unanimous,
// or adjudicated). Blindness holds here: unrevealed answers are never read, only counted.
import type { ExaminationRepository } from '../../db/examination.repository.js';
import type { SamplesTable } from '../../db/index.js';
import { codebookDigest, defineCodebook, type Codebook } from '../codebook/index.js';
import { caseOutcomesFrom, type CaseOutcome } from './case-outcomes.js';
import { PlanError } from '../sampling/plan.service.js';
import { ExamError } from './examination-errors.js';
import { hint } from '../../core/index.js';

export type { CaseOutcome, CaseStatus } from './case-outcomes.js';

/** What finding a plan and its cases' outcomes read: the examination tables of the index. */
export interface OutcomesPorts {
  readonly examinations: Pick<ExaminationRepository, 'findSample' | 'members' | 'assignments' | 'submissions' | 'adjudications'>;
}

export async function loadSample(archive: { readonly examinations: Pick<ExaminationRepository, 'findSample'> }, ref: string): Promise<SamplesTable> {
  const s = await archive.examinations.findSample(ref);
  if (s === undefined) throw new PlanError('SAMPLE_NOT_FOUND', `no sampling plan ${ref}`, { details: hint({ remedy: ['list-plans'] }) });
  return s;
}

/** The codebook recorded with the plan, checked against the digest recorded beside it. */
export function sampleCodebook(sample: SamplesTable): Codebook {
  const codebook = defineCodebook(JSON.parse(sample.codebook_json));
  if (codebookDigest(codebook) !== sample.codebook_digest)
    throw new ExamError('EXAMINATION_CODEBOOK_MISMATCH', `plan ${sample.name}: the recorded codebook does not match its digest`);
  return codebook;
}

/** A plan as `sample show` and the export's samples.json describe it. */
export function describeSample(s: SamplesTable) {
  return {
    id: s.id,
    name: s.name,
    over: s.unit_kind,
    method: s.method,
    by: s.stratify,
    size: s.size,
    population: s.population,
    frame_size: s.frame_size,
    frame_digest: s.frame_digest,
    seed: s.seed,
    manifest_digest: s.manifest_digest,
    codebook: { version: s.codebook_version, digest: s.codebook_digest },
    entries: { frame: s.frame_seq, seed: s.seed_seq, manifest: s.manifest_seq },
    strata: JSON.parse(s.strata_json) as { name: string; frame_size: number; frame_digest: string }[],
  };
}

export async function caseOutcomes(archive: OutcomesPorts, sample: SamplesTable): Promise<CaseOutcome[]> {
  const codebook = sampleCodebook(sample);
  return caseOutcomesFrom(sample, codebook, {
    members: await archive.examinations.members(sample.id),
    assignments: await archive.examinations.assignments(sample.id),
    submissions: await archive.examinations.submissions(sample.id),
    adjudications: await archive.examinations.adjudications(sample.id),
  });
}
