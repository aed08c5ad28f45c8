// Suggested links between photographs and subjects, never applied on their own: a person confirms
// each with `custody subject link`. Two grounds:
//   - a near-duplicate cluster (PDQ, analysis/similarity) in which some photographs already show
//     a subject and others show no one yet;
//   - an examiner's "same image" or "same subject" decision over such photographs.
// Where one cluster or decision touches two subjects, a merge is suggested for review instead.
import {
  archiveSimilarity,
  type SimilarityPorts,
  type ArchiveSimilarity,
} from '../../analysis/similarity/archive-similarity.service.js';
import { canonicalize, sha256, toHex, hint, type OperationContext } from '../../core/index.js';
import type { EntryDraft } from '../../ledger/index.js';
import type { StoredEntry } from '../../ledger/ledger.service.js';
import type { IndexReads, LinkReads } from '../ports.js';
import { SubjectError } from './subjects.service.js';

/** What deriving the suggestions reads (the clusters only when the caller has none). */
export type SuggestionPorts = IndexReads<'listItems'> &
  LinkReads<'allSubjectItems' | 'listDecisions'> &
  SimilarityPorts;

export interface LinkSuggestion {
  /** Derived from what is suggested (kind, subjects, items, basis): the same suggestion, the same id. */
  id: string;
  kind: 'link' | 'review-merge';
  /** For 'link': the subject the items would join. For 'review-merge': the subjects involved. */
  subjects: string[];
  items: string[];
  basis:
    | { type: 'cluster'; cluster: string; max_distance: number }
    | { type: 'decision'; seq: number; decision: string };
}

/**
 * The current suggestions. `similarity`: the archive's near-duplicate clusters when the caller
 * already has them (the server keeps them until an item is added, analysed or withdrawn);
 * computed here otherwise. The links to subjects are always read now.
 */
export async function suggestLinks(
  archive: SuggestionPorts,
  similarity?: Pick<ArchiveSimilarity, 'clusters'>,
): Promise<LinkSuggestion[]> {
  const subjectOf = new Map(
    (await archive.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id]),
  );
  const itemsBySha = new Map<string, string[]>();
  for (const item of await archive.index.listItems())
    itemsBySha.set(item.sha256, [...(itemsBySha.get(item.sha256) ?? []), item.id]);
  const groups: { items: string[]; basis: LinkSuggestion['basis'] }[] = [];
  for (const c of (similarity ?? (await archiveSimilarity(archive))).clusters)
    groups.push({
      items: c.items,
      basis: { type: 'cluster', cluster: c.id, max_distance: c.max_distance },
    });
  for (const d of await archive.examinations.listDecisions()) {
    if (d.decision === 'different') continue;
    const objects = JSON.parse(d.objects_json) as string[];
    groups.push({
      items: objects.flatMap((o) => itemsBySha.get(o) ?? []).sort(),
      basis: { type: 'decision', seq: d.seq, decision: d.decision },
    });
  }
  const out: LinkSuggestion[] = [];
  for (const g of groups) {
    const subjects = [
      ...new Set(g.items.map((i) => subjectOf.get(i)).filter((s): s is string => s !== undefined)),
    ].sort();
    const unlinked = g.items.filter((i) => !subjectOf.has(i));
    if (subjects.length === 1 && unlinked.length > 0)
      out.push(withId({ kind: 'link', subjects, items: unlinked, basis: g.basis }));
    else if (subjects.length > 1)
      out.push(withId({ kind: 'review-merge', subjects, items: g.items, basis: g.basis }));
  }
  return out;
}

function withId(s: Omit<LinkSuggestion, 'id'>): LinkSuggestion {
  return { id: toHex(sha256(Buffer.from(canonicalize(s)))).slice(0, 12), ...s };
}

/**
 * Applies link suggestions, as a person confirming them: the named ones (or every link
 * suggestion), re-derived now, written as one ledger batch of 'subject.link' entries with the
 * reason. An id that is not a current suggestion, a merge to review, or an item two accepted
 * suggestions would give to different subjects refuses the whole batch.
 */
export async function acceptSuggestions(
  archive: SuggestionPorts & { commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]> },
  ctx: Pick<OperationContext, 'actor'>,
  ids: readonly string[] | 'all',
  reason: string,
): Promise<{ accepted: LinkSuggestion[] }> {
  if (reason.trim() === '')
    throw new SubjectError(
      'SUBJECT_REASON_REQUIRED',
      'every change to the catalogue needs a reason',
      { details: hint({ field: 'reason' }) },
    );
  const current = await suggestLinks(archive);
  const byId = new Map(current.map((s) => [s.id, s]));
  const chosen =
    ids === 'all'
      ? current.filter((s) => s.kind === 'link')
      : ids.map((id) => {
          const s = byId.get(id);
          if (s === undefined)
            throw new SubjectError('SUBJECT_SUGGESTION_UNKNOWN', `no current suggestion ${id}`, {
              details: hint({ remedy: ['suggest-again'] }),
            });
          if (s.kind !== 'link')
            throw new SubjectError(
              'SUBJECT_INVALID',
              `suggestion ${id} is a merge to review, not a link`,
              { details: hint({ remedy: ['merge-subjects'] }) },
            );
          return s;
        });
  const itemTo = new Map<string, string>();
  for (const s of chosen)
    for (const item of s.items) {
      const to = s.subjects[0] ?? '';
      if (itemTo.has(item) && itemTo.get(item) !== to)
        throw new SubjectError(
          'SUBJECT_ITEM_TAKEN',
          `item ${item} is suggested for subjects ${itemTo.get(item) ?? ''} and ${to}: accept one of them`,
        );
      itemTo.set(item, to);
    }
  const bySubject = new Map<string, Set<string>>();
  for (const [item, subject] of itemTo)
    bySubject.set(subject, (bySubject.get(subject) ?? new Set()).add(item));
  const drafts: EntryDraft[] = [...bySubject].map(([subject, items]) => ({
    actor: ctx.actor,
    type: 'cataloguing',
    items: [],
    objects: [],
    details: { action: 'subject.link', reason, subject: { id: subject }, items: [...items].sort() },
  }));
  if (drafts.length > 0) await archive.commit(drafts);
  return { accepted: chosen };
}
