// How `examination` entries show in the index: sampling plans (frame → seed → manifest, three
// entries), assignments, sealed submissions and their reveal, adjudications. The sealed answer
// stays ciphertext here as in the ledger; answer_json is only filled by the reveal entry.
import { canonicalize, type JsonValue } from '../core/index.js';
import type { Row, Mutation } from '../db/index.js';
import { bad, int, str, strOrNull } from './entry-fields.js';
import { actionDetailsOf } from './entry-parse.js';
import type { LedgerEntry } from './entry.js';
import { LedgerError } from './errors.js';

type Details = { [k: string]: JsonValue };

export function examinationMutations(entry: LedgerEntry): Mutation[] {
  const d = entry.details;
  const action = str(d, 'action', entry);
  switch (action) {
    case 'sample.frame':
      return [frameRow(entry, record(d, 'sample', entry))];
    case 'sample.seed': {
      const s = actionDetailsOf(entry, 'sample.seed');
      return [{ op: 'update', table: 'samples', key: s.sample, set: { seed: s.seed, seed_seq: entry.seq } }];
    }
    case 'sample.manifest':
      return manifestRows(entry);
    case 'examination.assign': {
      // Plans assigned since issue 12 carry their wrapped answer key and a code per case; since
      // version 2, no case id: the rows are keyed by the code, with the sealed id beside it.
      const a = actionDetailsOf(entry, 'examination.assign');
      const planKey: Mutation[] =
        a.plan_key === undefined ? [] : [{ op: 'update', table: 'samples', key: a.sample, set: { plan_key_json: canonicalize(record(a, 'plan_key', entry)) } }];
      const version = entry.details.version; // absent: version 1
      if (version !== undefined && version !== 2) throw bad(entry, 'version');
      const sealedIds = version === 2;
      return [
        ...planKey,
        ...list(a, 'cases', entry).flatMap((c) => {
          const kase = record({ c }, 'c', entry);
          const code = sealedIds ? str(kase, 'code', entry) : strOrNull(kase, 'code', entry);
          const caseId = sealedIds ? (code as string) : str(kase, 'case', entry);
          const sealedCase = sealedIds ? str(kase, 'sealed_case', entry) : null;
          return strings(kase, 'examiners', entry).map(
            (examiner): Mutation => ({
              op: 'insert',
              table: 'exam_assignments',
              row: { id: `${a.sample}/${caseId}/${examiner}`, sample_id: a.sample, case_id: caseId, examiner, seq: entry.seq, code, sealed_case: sealedCase },
            }),
          );
        }),
      ];
    }
    case 'examination.close': {
      // The case-code key, published so anyone can link codes to subjects (and `verify` checks
      // them); for a version-2 assignment, the case-id key and the links it opens.
      const c = actionDetailsOf(entry, 'examination.close');
      const idKey = c.case_id_key === undefined ? null : str(c, 'case_id_key', entry);
      const links = c.cases === undefined ? [] : list(c, 'cases', entry).map((x): Mutation => {
        const l = record({ x }, 'x', entry);
        const code = str(l, 'code', entry);
        return { op: 'insert', table: 'exam_case_links', row: { id: `${c.sample}/${code}`, sample_id: c.sample, code, member_id: str(l, 'case', entry), seq: entry.seq } };
      });
      return [{ op: 'update', table: 'samples', key: c.sample, set: { case_code_key: c.case_code_key, closed_seq: entry.seq, case_id_key: idKey } }, ...links];
    }
    case 'examination.submit': {
      const s = actionDetailsOf(entry, 'examination.submit');
      const { sample, case: caseId, examiner } = s;
      return [
        {
          op: 'insert',
          table: 'exam_submissions',
          row: {
            id: `${sample}/${caseId}/${examiner}`,
            sample_id: sample,
            case_id: caseId,
            examiner,
            commitment: s.commitment,
            sealed: s.sealed,
            submit_seq: entry.seq,
            answer_json: null,
            salt: null,
            reveal_seq: null,
          },
        },
      ];
    }
    case 'examination.reveal': {
      const r = actionDetailsOf(entry, 'examination.reveal');
      const { sample, case: caseId } = r;
      return list(r, 'answers', entry).map((a): Mutation => {
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
      const j = actionDetailsOf(entry, 'examination.adjudicate');
      const { sample, case: caseId } = j;
      return [
        {
          op: 'insert',
          table: 'exam_adjudications',
          row: {
            id: `${sample}/${caseId}`,
            sample_id: sample,
            case_id: caseId,
            actor: entry.actor,
            decisions_json: canonicalize(list(j, 'decisions', entry)),
            final_json: canonicalize(record(j, 'final', entry)),
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
  const d = actionDetailsOf(entry, 'sample.frame');
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
    frame_digest: d.frame_digest,
    frame_size: d.frame_size,
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
    case_id_key: null,
  };
  return { op: 'insert', table: 'samples', row };
}

function manifestRows(entry: LedgerEntry): Mutation[] {
  const d = actionDetailsOf(entry, 'sample.manifest');
  const sample = d.sample;
  const stratumOf = new Map<string, string>();
  if (d.strata !== undefined)
    for (const x of list(d, 'strata', entry)) {
      const st = record({ x }, 'x', entry);
      for (const m of strings(st, 'members', entry)) stratumOf.set(m, str(st, 'name', entry));
    }
  return [
    { op: 'update', table: 'samples', key: sample, set: { manifest_digest: d.manifest_digest, manifest_seq: entry.seq } },
    ...strings(d, 'members', entry).map(
      (member, position): Mutation => ({
        op: 'insert',
        table: 'sample_members',
        row: { id: `${sample}/${member}`, sample_id: sample, member_id: member, position, stratum: stratumOf.get(member) ?? null },
      }),
    ),
  ];
}

// Nested reads. Given the typed details of an action (entry-parse.ts), `k` must be a field its
// writers write; given a nested object (untyped JSON), any key.
type Fields = { readonly [k: string]: JsonValue | undefined };

function record<D extends Fields>(d: D, k: keyof D & string, e: LedgerEntry): Details {
  const v = d[k];
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) throw bad(e, k);
  return v;
}

function list<D extends Fields>(d: D, k: keyof D & string, e: LedgerEntry): JsonValue[] {
  const v = d[k];
  if (!Array.isArray(v)) throw bad(e, k);
  return v;
}

function strings<D extends Fields>(d: D, k: keyof D & string, e: LedgerEntry): string[] {
  const v = list(d, k, e);
  if (!v.every((x) => typeof x === 'string')) throw bad(e, k);
  return v;
}
