/**
 * The PDQ 2-D DCT (pdq/cpp/hashing/pdqhashing.cpp, dct64To16) and the eight dihedral variants
 * derived from its output (dct16OriginalTo*). Arithmetic is float32 in the reference's order.
 */

const f = Math.fround;

/**
 * The 16×64 DCT-II matrix, rows 1..16 (the DC row is skipped):
 * D[i][j] = sqrt(2/64) * cos((π/2/64) * (i+1) * (2j+1)). As in the reference the scale factor is a
 * float, the cosine and the product are double, and each entry is stored as float.
 */
export const DCT_MATRIX_16x64: Float32Array = (() => {
  const d = new Float32Array(16 * 64);
  const scale = f(Math.sqrt(2.0 / 64.0));
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 64; j++) {
      d[i * 64 + j] = scale * Math.cos((Math.PI / 2 / 64.0) * (i + 1) * (2 * j + 1));
    }
  }
  return d;
})();

/**
 * B = D · A · Dᵀ for the 64×64 row-major image A, through T = D·A (16×64). Each product is a
 * float and each running sum is a float accumulated k = 0..63, as the reference's loops do.
 * Returns B as 256 floats, row-major (B[i][j] at i*16 + j).
 *
 * Four outputs are accumulated side by side (four independent chains of float32 additions,
 * which the CPU overlaps); each one still adds its 64 products in the reference's order.
 */
export function dct64To16(a: Float32Array): Float32Array {
  const d = DCT_MATRIX_16x64;
  const t = new Float32Array(16 * 64);
  for (let i = 0; i < 16; i++) {
    const di = i * 64;
    for (let j = 0; j < 64; j += 4) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let k = 0; k < 64; k++) {
        const dk = d[di + k] as number;
        const ak = k * 64 + j;
        s0 = f(s0 + f(dk * (a[ak] as number)));
        s1 = f(s1 + f(dk * (a[ak + 1] as number)));
        s2 = f(s2 + f(dk * (a[ak + 2] as number)));
        s3 = f(s3 + f(dk * (a[ak + 3] as number)));
      }
      t[di + j] = s0;
      t[di + j + 1] = s1;
      t[di + j + 2] = s2;
      t[di + j + 3] = s3;
    }
  }
  const b = new Float32Array(256);
  for (let i = 0; i < 16; i++) {
    const ti = i * 64;
    for (let j = 0; j < 16; j += 4) {
      const d0 = j * 64;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let k = 0; k < 64; k++) {
        const tk = t[ti + k] as number;
        s0 = f(s0 + f(tk * (d[d0 + k] as number)));
        s1 = f(s1 + f(tk * (d[d0 + 64 + k] as number)));
        s2 = f(s2 + f(tk * (d[d0 + 128 + k] as number)));
        s3 = f(s3 + f(tk * (d[d0 + 192 + k] as number)));
      }
      b[i * 16 + j] = s0;
      b[i * 16 + j + 1] = s1;
      b[i * 16 + j + 2] = s2;
      b[i * 16 + j + 3] = s3;
    }
  }
  return b;
}

/** Names and order of the reference's dihedral outputs (pdqDihedralHash256esFromFloatLuma). */
export const DIHEDRAL_NAMES = [
  'original',
  'rotate90',
  'rotate180',
  'rotate270',
  'flipX',
  'flipY',
  'flipPlus1',
  'flipMinus1',
] as const;
export type DihedralName = (typeof DIHEDRAL_NAMES)[number];
/** The 7 variants besides the original, in the reference's order (how dihedral hashes are stored). */
export const DIHEDRAL_VARIANTS = DIHEDRAL_NAMES.slice(1) as readonly Exclude<
  DihedralName,
  'original'
>[];

/**
 * The DCT of a dihedral transform of the image, from the original DCT alone (no re-hashing of
 * pixels). Transposes swap (i, j). Mirroring an axis multiplies frequency u = i+1 by (-1)^u,
 * since cos(u(2(63-x)+1)π/128) = (-1)^u cos(u(2x+1)π/128): even i (odd u) changes sign.
 *
 * - rotate90 (counter-clockwise): B[j][i] = (j odd ? +1 : -1) A[i][j]
 * - rotate180: B[i][j] = (-1)^(i+j) A[i][j]
 * - rotate270 (clockwise): B[j][i] = (i odd ? +1 : -1) A[i][j]
 * - flipX (top/bottom): B[i][j] = (i odd ? +1 : -1) A[i][j]
 * - flipY (left/right): B[i][j] = (j odd ? +1 : -1) A[i][j]
 * - flipPlus1 (transpose): B[j][i] = A[i][j]
 * - flipMinus1 (anti-diagonal): B[j][i] = (-1)^(i+j) A[i][j]
 */
export function dihedralDct(a: Float32Array, which: DihedralName): Float32Array {
  const b = new Float32Array(256);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      const v = a[i * 16 + j] as number;
      const odd = (n: number): number => (n & 1 ? v : -v);
      const parity = (i + j) & 1 ? -v : v;
      switch (which) {
        case 'original':
          b[i * 16 + j] = v;
          break;
        case 'rotate90':
          b[j * 16 + i] = odd(j);
          break;
        case 'rotate180':
          b[i * 16 + j] = parity;
          break;
        case 'rotate270':
          b[j * 16 + i] = odd(i);
          break;
        case 'flipX':
          b[i * 16 + j] = odd(i);
          break;
        case 'flipY':
          b[i * 16 + j] = odd(j);
          break;
        case 'flipPlus1':
          b[j * 16 + i] = v;
          break;
        case 'flipMinus1':
          b[j * 16 + i] = parity;
          break;
      }
    }
  }
  return b;
}
