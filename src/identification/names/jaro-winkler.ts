// Jaro–Winkler string similarity (M. A. Jaro, JASA 84 (1989) 414–420; W. E. Winkler, "String
// Comparator Metrics and Enhanced Decision Rules in the Fellegi–Sunter Model of Record Linkage",
// Proc. Section on Survey Research Methods, ASA, 1990, 354–359). Written here rather than taken
// from npm: no maintained package is installed, and the function is short enough to audit against
// Winkler's published pairs (MARTHA/MARHTA 0.961, DWAYNE/DUANE 0.840, DIXON/DICKSONX 0.813).
// Strings are compared by Unicode code point, so Arabic letters count as one character each.

/** Winkler's prefix scale p and the longest common prefix that earns the bonus. */
export const WINKLER_PREFIX_SCALE = 0.1;
export const WINKLER_MAX_PREFIX = 4;
/** Winkler applies the prefix bonus only above this Jaro similarity. */
export const WINKLER_BOOST_THRESHOLD = 0.7;

/**
 * The Jaro similarity in [0, 1]: (m/|a| + m/|b| + (m − t)/m) / 3, where m counts the characters
 * that match within a window of ⌊max(|a|,|b|)/2⌋ − 1 and t is half the matched characters out of order.
 *
 * @example
 *   jaro('MARTHA', 'MARHTA') // 0.944…
 */
export function jaro(a: string, b: string): number {
  // Code units are code points unless a surrogate pair is present (Arabic and Latin never are).
  const surrogates = /[\uD800-\uDFFF]/u;
  const s: ArrayLike<string> = surrogates.test(a) ? Array.from(a) : a;
  const t: ArrayLike<string> = surrogates.test(b) ? Array.from(b) : b;
  if (s.length === 0 && t.length === 0) return 1;
  if (s.length === 0 || t.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(s.length, t.length) / 2) - 1);
  const sMatched = new Uint8Array(s.length);
  const tMatched = new Uint8Array(t.length);
  let matches = 0;
  for (let i = 0; i < s.length; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(t.length - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (tMatched[j] === 1 || s[i] !== t[j]) continue;
      sMatched[i] = 1;
      tMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let k = 0;
  let outOfOrder = 0;
  for (let i = 0; i < s.length; i++) {
    if (sMatched[i] === 0) continue;
    while (tMatched[k] === 0) k++;
    if (s[i] !== t[k]) outOfOrder++;
    k++;
  }
  const transpositions = outOfOrder / 2;
  return (matches / s.length + matches / t.length + (matches - transpositions) / matches) / 3;
}

/**
 * The Jaro–Winkler similarity in [0, 1]: Jaro plus ℓ·p·(1 − Jaro) for a common prefix of ℓ ≤ 4
 * characters, when Jaro exceeds 0.7.
 *
 * @example
 *   jaroWinkler('MARTHA', 'MARHTA') // 0.961…
 *   jaroWinkler('DWAYNE', 'DUANE') // 0.84
 */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  if (j <= WINKLER_BOOST_THRESHOLD) return j;
  const s = Array.from(a);
  const t = Array.from(b);
  let prefix = 0;
  const limit = Math.min(WINKLER_MAX_PREFIX, s.length, t.length);
  while (prefix < limit && s[prefix] === t[prefix]) prefix++;
  return j + prefix * WINKLER_PREFIX_SCALE * (1 - j);
}
