// How `examination` entries show in the index: sampling plans (frame → seed → manifest, three
// entries), assignments, sealed submissions and their reveal, adjudications. The sealed answer
// stays ciphertext here as in the ledger; answer_json is only filled by the reveal entry.
import { canonicalize, type JsonValue } from '../core/index.js';
import type { Row, Mutation } from '../db/index.js';
import { bad, int, str, strOrNull } from './entry-fields.js';
import type { LedgerEntry } from './entry.js';
import { LedgerError } from './errors.js';

type Details = { [k: string]: JsonValue };

export function examinationMutations(entry: LedgerEntry): Mutation[] {
  const d = entry.details;
  const action = str(d, 'action', entry);
  switch (action) {
    case 'sample.frame':
      return [frameRow(entry, record(d, 'sample', entry))];
    case 'sample.seed':
      return [
        { op: 'update', table: 'samples', key: str(d, 'sample', entry), set: { seed: str(d, 'seed', entry), seed_seq: entry.seq } },
      ];
    case 'sample.manifest':
      return manifestRows(entry);
    case 'examination.assign': {
      // Plans assigned since issue 12 carry their wrapped answer key and a code per case.
      const planKey: Mutation[] =
        d.plan_key === undefined ? [] : [{ op: 'update', table: 'samples', key: str(d, 'sample', entry), set: { plan_key_json: canonicalize(record(d, 'plan_key', entry)) } }];
      return [
        ...planKey,
        ...list(d, 'cases', entry).flatMap((c) => {
          const kase = record({ c }, 'c', entry);
          const caseId = str(kase, 'case', entry);
          const code = strOrNull(kase, 'code', entry);
          return strings(kase, 'examiners', entry).map(
            (examiner): Mutation => ({
              op: 'insert',
              table: 'exam_assignments',
              row: { id: `${str(d, 'sample', entry)}/${caseId}/${examiner}`, sample_id: str(d, 'sample', entry), case_id: caseId, examiner, seq: entry.seq, code },
            }),
          );
        }),
      ];
    }
    case 'examination.close':
      // The case-code key, published so anyone can link codes to subjects (and `verify` checks them).
      return [{ op: 'update', table: 'samples', key: str(d, 'sample', entry), set: { case_code_key: str(d, 'case_code_key', entry), closed_seq: entry.seq } }];
    case 'examination.submit': {
      const sample = str(d, 'sample', entry);
      const caseId = str(d, 'case', entry);
      const examiner = str(d, 'examiner', entry);
      return [
        {
          op: 'insert',
          table: 'exam_submissions',
          row: {
            id: `${sample}/${caseId}/${examiner}`,
            sample_id: sample,
            case_id: caseId,
            examiner,
            commitment: str(d, 'commitment', entry),
            sealed: str(d, 'sealed', entry),
            submit_seq: entry.seq,
            answer_json: null,
            salt: null,
            reveal_seq: null,
          },
        },
      ];
    }
    case 'examination.reveal': {
      const sample = str(d, 'sample', entry);
      const caseId = str(d, 'case', entry);
      return list(d, 'answers', entry).map((a): Mutation => {
        const answer = record({ a }, 'a', entry);
        return {
          op: 'update',
          table: 'exam_submissions',
          key: `${sample}/${caseId}/${str(answer, 'examiner', entry)}`,
          set: { answer_json: canonicalize(record(answer, 'answer', entry)), salt: str(answer, 'salt', entry), reveal_seq: entry.seq },
        };
      });
    }
    case 'examination.adjudicate': {
      const sample = str(d, 'sample', entry);
      const caseId = str(d, 'case', entry);
      return [
        {
          op: 'insert',
          table: 'exam_adjudications',
          row: {
            id: `${sample}/${caseId}`,
            sample_id: sample,
            case_id: caseId,
            actor: entry.actor,
            decisions_json: canonicalize(list(d, 'decisions', entry)),
            final_json: canonicalize(record(d, 'final', entry)),
            seq: entry.seq,
          },
        },
      ];
    }
    default:
      throw new LedgerError('LEDGER_ENTRY_MALFORMED', `examination entry ${entry.seq} has an unknown action ${action}`);
  }
}

function frameRow(entry: LedgerEntry, s: Details): Mutation {
  const d = entry.details;
  const codebook = record(s, 'codebook', entry);
  const population = s.population ?? null;
  if (population !== null && (typeof population !== 'number' || !Number.isSafeInteger(population))) throw bad(entry, 'sample.population');
  const row: Row = {
    id: str(s, 'id', entry),
    name: str(s, 'name', entry),
    unit_kind: str(s, 'unit', entry),
    method: str(s, 'method', entry),
    stratify: strOrNull(s, 'stratify', entry),
    size: int(s, 'size', entry),
    population,
    frame_digest: str(d, 'frame_digest', entry),
    frame_size: int(d, 'frame_size', entry),
    strata_json: canonicalize(d.strata === undefined ? [] : list(d, 'strata', entry).map((x) => {
      const st = record({ x }, 'x', entry);
      return { name: str(st, 'name', entry), frame_size: strings(st, 'units', entry).length, frame_digest: str(st, 'frame_digest', entry) };
    })),
    codebook_json: canonicalize(record(codebook, 'definition', entry)),
    codebook_version: str(codebook, 'version', entry),
    codebook_digest: str(codebook, 'digest', entry),
    frame_seq: entry.seq,
    seed: null,
    seed_seq: null,
    manifest_digest: null,
    manifest_seq: null,
    plan_key_json: null,
    case_code_key: null,
    closed_seq: null,
  };
  return { op: 'insert', table: 'samples', row };
}

function manifestRows(entry: LedgerEntry): Mutation[] {
  const d = entry.details;
  const sample = str(d, 'sample', entry);
  const stratumOf = new Map<string, string>();
  if (d.strata !== undefined)
    for (const x of list(d, 'strata', entry)) {
      const st = record({ x }, 'x', entry);
      for (const m of strings(st, 'members', entry)) stratumOf.set(m, str(st, 'name', entry));
    }
  return [
    { op: 'update', table: 'samples', key: sample, set: { manifest_digest: str(d, 'manifest_digest', entry), manifest_seq: entry.seq } },
    ...strings(d, 'members', entry).map(
      (member, position): Mutation => ({
        op: 'insert',
        table: 'sample_members',
        row: { id: `${sample}/${member}`, sample_id: sample, member_id: member, position, stratum: stratumOf.get(member) ?? null },
      }),
    ),
  ];
}

function record(d: Details, k: string, e: LedgerEntry): Details {
  const v = d[k];
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) throw bad(e, k);
  return v;
}

function list(d: Details, k: string, e: LedgerEntry): JsonValue[] {
  const v = d[k];
  if (!Array.isArray(v)) throw bad(e, k);
  return v;
}

function strings(d: Details, k: string, e: LedgerEntry): string[] {
  const v = list(d, k, e);
  if (!v.every((x) => typeof x === 'string')) throw bad(e, k);
  return v;
}
