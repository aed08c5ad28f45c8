// Suggested links between photographs and subjects, never applied on their own: a person confirms
// each with `custody subject link`. Two grounds:
//   - a near-duplicate cluster (PDQ, analysis/similarity) in which some photographs already show
//     a subject and others show no one yet;
//   - an examiner's "same image" or "same subject" decision over such photographs.
// Where one cluster or decision touches two subjects, a merge is suggested for review instead.
import type { Archive } from '../../app.js';
import { archiveSimilarity } from '../../analysis/similarity/archive-similarity.service.js';

export interface LinkSuggestion {
  kind: 'link' | 'review-merge';
  /** For 'link': the subject the items would join. For 'review-merge': the subjects involved. */
  subjects: string[];
  items: string[];
  basis: { type: 'cluster'; cluster: string; max_distance: number } | { type: 'decision'; seq: number; decision: string };
}

export async function suggestLinks(archive: Archive): Promise<LinkSuggestion[]> {
  const subjectOf = new Map((await archive.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id]));
  const itemsBySha = new Map<string, string[]>();
  for (const item of await archive.index.listItems()) itemsBySha.set(item.sha256, [...(itemsBySha.get(item.sha256) ?? []), item.id]);
  const groups: { items: string[]; basis: LinkSuggestion['basis'] }[] = [];
  for (const c of (await archiveSimilarity(archive)).clusters)
    groups.push({ items: c.items, basis: { type: 'cluster', cluster: c.id, max_distance: c.max_distance } });
  for (const d of await archive.examinations.listDecisions()) {
    if (d.decision === 'different') continue;
    const objects = JSON.parse(d.objects_json) as string[];
    groups.push({ items: objects.flatMap((o) => itemsBySha.get(o) ?? []).sort(), basis: { type: 'decision', seq: d.seq, decision: d.decision } });
  }
  const out: LinkSuggestion[] = [];
  for (const g of groups) {
    const subjects = [...new Set(g.items.map((i) => subjectOf.get(i)).filter((s): s is string => s !== undefined))].sort();
    const unlinked = g.items.filter((i) => !subjectOf.has(i));
    if (subjects.length === 1 && unlinked.length > 0) out.push({ kind: 'link', subjects, items: unlinked, basis: g.basis });
    else if (subjects.length > 1) out.push({ kind: 'review-merge', subjects, items: g.items, basis: g.basis });
  }
  return out;
}
