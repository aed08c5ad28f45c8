// Damerau–Levenshtein distance (the optimal-string-alignment variant: insertions, deletions,
// substitutions and transpositions of neighbours, no substring edited twice), bounded: names are
// compared in their millions, and only "one edit or not" is asked. Splink's standard name
// comparison has the same level (exact, Damerau–Levenshtein ≤ 1, Jaro–Winkler bands, else).

/**
 * True when `a` and `b` are at most one insertion, deletion, substitution or transposition of
 * two neighbours apart (by code point).
 *
 * @example
 *   withinOneEdit('khaled', 'khaeld') // true (a transposition)
 *   withinOneEdit('khaled', 'kaleb') // false
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const same = (p: readonly string[], q: readonly string[]): boolean =>
    p.length === q.length && p.every((c, k) => c === q[k]);
  if (x.length === y.length) {
    // A substitution at i, or a transposition of i and i + 1.
    if (same(x.slice(i + 1), y.slice(i + 1))) return true;
    return x[i] === y[i + 1] && x[i + 1] === y[i] && same(x.slice(i + 2), y.slice(i + 2));
  }
  // An insertion or a deletion at i.
  const [long, short] = x.length > y.length ? [x, y] : [y, x];
  return same(long.slice(i + 1), short.slice(i));
}
