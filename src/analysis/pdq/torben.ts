/**
 * Torben Mogensen's median selection (public domain; implementation by N. Devillard), as Meta's
 * PDQ reference uses it (pdq/cpp/hashing/torben.cpp). It never reorders the input and, for an
 * even count n, returns the lower median: the (n/2)-th smallest value. The midpoint `guess` is
 * computed in float32 exactly as the C code does, so the returned value is bit-identical.
 *
 * @example
 *   torben(Float32Array.of(3, 1, 2, 4)) // 2
 */
export function torben(m: ArrayLike<number>): number {
  const n = m.length;
  if (n === 0) return Number.NaN;
  const f = Math.fround;
  const half = Math.trunc((n + 1) / 2);

  let min = m[0] as number;
  let max = min;
  for (let i = 1; i < n; i++) {
    const v = m[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }

  let less = 0;
  let greater = 0;
  let equal = 0;
  let guess = 0;
  let maxLtGuess = min;
  let minGtGuess = max;
  for (;;) {
    guess = f(f(min + max) / 2);
    less = 0;
    greater = 0;
    equal = 0;
    maxLtGuess = min;
    minGtGuess = max;
    for (let i = 0; i < n; i++) {
      const v = m[i] as number;
      if (v < guess) {
        less++;
        if (v > maxLtGuess) maxLtGuess = v;
      } else if (v > guess) {
        greater++;
        if (v < minGtGuess) minGtGuess = v;
      } else {
        equal++;
      }
    }
    if (less <= half && greater <= half) break;
    else if (less > greater) max = maxLtGuess;
    else min = minGtGuess;
  }
  if (less >= half) return maxLtGuess;
  if (less + equal >= half) return guess;
  return minGtGuess;
}
