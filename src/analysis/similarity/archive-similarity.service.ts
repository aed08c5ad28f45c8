import type { Archive } from '../../app.js';
import type { AnalysesTable, ItemsTable } from '../../db/index.js';
import { DIHEDRAL_VARIANTS } from '../pdq/dct.js'; // not the index: it loads sharp
import {
  clusterObjects,
  findSimilarPairs,
  type HashedObject,
  type SimilarityCluster,
  type SimilarPair,
} from './similarity.service.js';


export interface ArchiveSimilarity {
  objects: HashedObject[];
  pairs: SimilarPair[];
  clusters: (SimilarityCluster & { items: string[] })[];
  clusterOf: Map<string, string>;
}

/**
 * Near-duplicates across the whole archive (not per user or per delivery), from the analysed
 * objects' hashes. Withdrawn objects take no part. Computed on demand: exact and fast enough
 * (see bench/near-duplicates) that nothing stale is ever shown.
 */
export async function archiveSimilarity(
  archive: Archive,
  opts: {
    threshold?: number;
    /** Already read by the caller (every analysis, every item): not read a second time. */
    analyses?: readonly AnalysesTable[];
    items?: readonly Pick<ItemsTable, 'id' | 'sha256'>[];
  } = {},
): Promise<ArchiveSimilarity> {
  const withdrawn = new Set((await archive.index.withdrawnObjects()).map((o) => o.sha256));
  const objects: HashedObject[] = [];
  for (const a of opts.analyses ?? (await archive.index.listAnalyses())) {
    if (a.pdq === null || withdrawn.has(a.sha256)) continue;
    const dihedral = JSON.parse(a.pdq_dihedral_json) as Record<string, string> | null;
    const crops = JSON.parse(a.crops_json) as { hash: string }[];
    objects.push({
      sha256: a.sha256,
      pdq: a.pdq,
      dihedral: DIHEDRAL_VARIANTS.map((k) => dihedral?.[k] ?? a.pdq ?? ''),
      crops: crops.map((c) => c.hash),
    });
  }
  const pairs = findSimilarPairs(objects, opts.threshold === undefined ? {} : { threshold: opts.threshold });
  const itemsBySha = new Map<string, string[]>();
  for (const item of opts.items ?? (await archive.index.listItems())) {
    const list = itemsBySha.get(item.sha256);
    if (list === undefined) itemsBySha.set(item.sha256, [item.id]);
    else list.push(item.id);
  }
  const clusters = clusterObjects(objects, pairs).map((c) => ({
    ...c,
    items: c.objects.flatMap((o) => itemsBySha.get(o) ?? []).sort(),
  }));
  const clusterOf = new Map<string, string>();
  for (const c of clusters) for (const o of c.objects) clusterOf.set(o, c.id);
  return { objects, pairs, clusters, clusterOf };
}
