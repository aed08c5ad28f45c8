/** A match between two objects, by index into the caller's object list. */
export interface Match {
  a: number;
  b: number;
  distance: number;
  kind: 'pdq' | 'pdq-dihedral' | 'crop' | 'overlap';
}

export interface Cluster {
  /** Stable while the members do not change: the smallest member index's key (the caller maps it to a digest). */
  members: number[];
  maxDistance: number;
}

/**
 * Connected components over the matches (union–find). Singletons are not returned. The largest
 * pairwise distance inside each cluster is computed over every pair of members, not just the
 * matched ones, so that chaining (A~B, B~C, A far from C) is visible.
 *
 * @example
 *   buildClusters(3, [{ a: 0, b: 1, distance: 4, kind: 'pdq' }], (i, j) => 4)
 *   // [{ members: [0, 1], maxDistance: 4 }]
 */
export function buildClusters(
  count: number,
  matches: readonly Match[],
  distance: (i: number, j: number) => number,
): Cluster[] {
  const parent = Int32Array.from({ length: count }, (_, i) => i);
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r] ?? r;
    let y = x;
    while (parent[y] !== r) {
      const next = parent[y] ?? r;
      parent[y] = r;
      y = next;
    }
    return r;
  };
  for (const m of matches) {
    const ra = find(m.a);
    const rb = find(m.b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const r = find(i);
    const g = groups.get(r);
    if (g === undefined) groups.set(r, [i]);
    else g.push(i);
  }
  const out: Cluster[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    let maxDistance = 0;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++)
        maxDistance = Math.max(maxDistance, distance(members[x] ?? 0, members[y] ?? 0));
    }
    out.push({ members, maxDistance });
  }
  return out;
}
