// Reproducible pseudo-random numbers and bytes for test corpora (mulberry32): a failing run
// can be replayed with the same files.

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` pseudo-random bytes drawn from `random`. */
export function seededBytes(random: () => number, length: number): Buffer {
  const b = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) b[i] = Math.floor(random() * 256);
  return b;
}
