/**
 * Jarosz tent-filter downsampling as the PDQ reference does it
 * (pdq/cpp/downscaling/downscaling.cpp; Wojciech Jarosz, "Fast Image Convolutions", 2001):
 * passes of 1-D box filters along rows then columns, then decimation at sample centres.
 *
 * Every arithmetic step is rounded to float32 with Math.fround in the reference's order, so the
 * output is bit-identical to the C++ built without fast-math (no reassociation, no FMA).
 */

const f = Math.fround;

/** `(oldDimension + 2*newDimension - 1) / (2*newDimension)` in integer arithmetic: ceil(old / 2new). */
export function jaroszWindowSize(oldDimension: number, newDimension: number): number {
  return Math.trunc((oldDimension + 2 * newDimension - 1) / (2 * newDimension));
}

/** The four phases of a box pass of `window` over `n` samples (box1DFloat's loops). */
function boxPhases(n: number, window: number): [number, number, number, number] {
  const half = Math.trunc((window + 2) / 2); // 7 -> 4, 8 -> 5
  return [half - 1, window - half + 1, n - window, half - 1];
}

/**
 * One box pass along every row: out[i] is the float32 mean of in[i - floor((w-1)/2) ..
 * i + floor(w/2)] clipped to the row, with the reference's running float sum (box1DFloat) —
 * add on the right, subtract on the left, divide by the count actually in the window.
 *
 * Each row's running sum is one chain of dependent float32 additions, so rows are walked four at
 * a time: four independent chains that the CPU overlaps. Every row still sees exactly the
 * reference's operations in the reference's order (issue 14: the same hashes, about 3× faster).
 */
export function boxAlongRows(
  input: Float32Array,
  output: Float32Array,
  rows: number,
  cols: number,
  window: number,
): void {
  const [phase1, phase2, phase3, phase4] = boxPhases(cols, window);
  let r = 0;
  for (; r + 4 <= rows; r += 4) {
    const b0 = r * cols;
    const b1 = b0 + cols;
    const b2 = b1 + cols;
    const b3 = b2 + cols;
    let li = 0;
    let ri = 0;
    let oi = 0;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let count = 0;
    for (let i = 0; i < phase1; i++, ri++, count++) {
      s0 = f(s0 + (input[b0 + ri] as number));
      s1 = f(s1 + (input[b1 + ri] as number));
      s2 = f(s2 + (input[b2 + ri] as number));
      s3 = f(s3 + (input[b3 + ri] as number));
    }
    for (let i = 0; i < phase2; i++, ri++, oi++) {
      s0 = f(s0 + (input[b0 + ri] as number));
      s1 = f(s1 + (input[b1 + ri] as number));
      s2 = f(s2 + (input[b2 + ri] as number));
      s3 = f(s3 + (input[b3 + ri] as number));
      count++;
      output[b0 + oi] = s0 / count;
      output[b1 + oi] = s1 / count;
      output[b2 + oi] = s2 / count;
      output[b3 + oi] = s3 / count;
    }
    for (let i = 0; i < phase3; i++, ri++, li++, oi++) {
      s0 = f(f(s0 + (input[b0 + ri] as number)) - (input[b0 + li] as number));
      s1 = f(f(s1 + (input[b1 + ri] as number)) - (input[b1 + li] as number));
      s2 = f(f(s2 + (input[b2 + ri] as number)) - (input[b2 + li] as number));
      s3 = f(f(s3 + (input[b3 + ri] as number)) - (input[b3 + li] as number));
      output[b0 + oi] = s0 / count;
      output[b1 + oi] = s1 / count;
      output[b2 + oi] = s2 / count;
      output[b3 + oi] = s3 / count;
    }
    for (let i = 0; i < phase4; i++, li++, oi++) {
      s0 = f(s0 - (input[b0 + li] as number));
      s1 = f(s1 - (input[b1 + li] as number));
      s2 = f(s2 - (input[b2 + li] as number));
      s3 = f(s3 - (input[b3 + li] as number));
      count--;
      output[b0 + oi] = s0 / count;
      output[b1 + oi] = s1 / count;
      output[b2 + oi] = s2 / count;
      output[b3 + oi] = s3 / count;
    }
  }
  for (; r < rows; r++) {
    const base = r * cols;
    let li = base;
    let ri = base;
    let oi = base;
    let sum = 0;
    let count = 0;
    for (let i = 0; i < phase1; i++) {
      sum = f(sum + (input[ri++] as number));
      count++;
    }
    for (let i = 0; i < phase2; i++) {
      sum = f(sum + (input[ri++] as number));
      count++;
      output[oi++] = sum / count;
    }
    for (let i = 0; i < phase3; i++) {
      sum = f(sum + (input[ri++] as number));
      sum = f(sum - (input[li++] as number));
      output[oi++] = sum / count;
    }
    for (let i = 0; i < phase4; i++) {
      sum = f(sum - (input[li++] as number));
      count--;
      output[oi++] = sum / count;
    }
  }
}

/**
 * The same 1-D box pass down every column (boxAlongColsFloat). The reference walks one column at
 * a time with a stride; here all columns advance together row by row (one running sum per
 * column), which touches memory in order and performs exactly the same float operations.
 */
export function boxAlongCols(
  input: Float32Array,
  output: Float32Array,
  rows: number,
  cols: number,
  window: number,
): void {
  const [phase1, phase2, phase3, phase4] = boxPhases(rows, window);
  // Storing into the Float32Array `sums` rounds each step to float32, like the C float `sum`.
  const sums = new Float32Array(cols);
  let ri = 0; // offset of the right (leading) edge's row
  let li = 0; // offset of the left (trailing) edge's row
  let oi = 0; // offset of the output row
  let count = 0;
  for (let i = 0; i < phase1; i++, ri += cols, count++) {
    for (let j = 0; j < cols; j++) sums[j] = (sums[j] as number) + (input[ri + j] as number);
  }
  for (let i = 0; i < phase2; i++, ri += cols, oi += cols) {
    count++;
    for (let j = 0; j < cols; j++) {
      const s = f((sums[j] as number) + (input[ri + j] as number));
      sums[j] = s;
      output[oi + j] = s / count;
    }
  }
  for (let i = 0; i < phase3; i++, ri += cols, li += cols, oi += cols) {
    for (let j = 0; j < cols; j++) {
      const s = f(f((sums[j] as number) + (input[ri + j] as number)) - (input[li + j] as number));
      sums[j] = s;
      output[oi + j] = s / count;
    }
  }
  for (let i = 0; i < phase4; i++, li += cols, oi += cols) {
    count--;
    for (let j = 0; j < cols; j++) {
      const s = f((sums[j] as number) - (input[li + j] as number));
      sums[j] = s;
      output[oi + j] = s / count;
    }
  }
}

/**
 * The last column pass of the filter and the decimation in one: `boxAlongCols` followed by
 * `decimate(…, outRows, outCols)`, computed only for the columns and rows that decimation picks.
 * Columns are independent running sums, so leaving the others out changes no sampled value.
 */
export function boxAlongColsDecimated(
  input: Float32Array,
  rows: number,
  cols: number,
  window: number,
  outRows: number,
  outCols: number,
): Float32Array {
  const [phase1, phase2, phase3, phase4] = boxPhases(rows, window);
  const colAt = new Int32Array(outCols);
  for (let j = 0; j < outCols; j++) colAt[j] = Math.trunc(((j + 0.5) * cols) / outCols);
  const rowAt = new Int32Array(outRows);
  for (let i = 0; i < outRows; i++) rowAt[i] = Math.trunc(((i + 0.5) * rows) / outRows);
  const out = new Float32Array(outRows * outCols);
  const sums = new Float32Array(outCols);
  let next = 0; // the next output row to fill
  let count = 0;
  const emit = (row: number): void => {
    // Several output rows sample the same input row when rows < outRows.
    for (; next < outRows && rowAt[next] === row; next++) {
      for (let j = 0; j < outCols; j++) out[next * outCols + j] = (sums[j] as number) / count;
    }
  };
  let ri = 0;
  let li = 0;
  let oi = 0;
  for (let i = 0; i < phase1; i++, ri++, count++) {
    for (let j = 0; j < outCols; j++)
      sums[j] = (sums[j] as number) + (input[ri * cols + (colAt[j] as number)] as number);
  }
  for (let i = 0; i < phase2; i++, ri++, oi++) {
    for (let j = 0; j < outCols; j++)
      sums[j] = (sums[j] as number) + (input[ri * cols + (colAt[j] as number)] as number);
    count++;
    emit(oi);
  }
  for (let i = 0; i < phase3; i++, ri++, li++, oi++) {
    for (let j = 0; j < outCols; j++) {
      const c = colAt[j] as number;
      sums[j] =
        f((sums[j] as number) + (input[ri * cols + c] as number)) -
        (input[li * cols + c] as number);
    }
    emit(oi);
  }
  for (let i = 0; i < phase4; i++, li++, oi++) {
    for (let j = 0; j < outCols; j++)
      sums[j] = (sums[j] as number) - (input[li * cols + (colAt[j] as number)] as number);
    count--;
    emit(oi);
  }
  return out;
}

/**
 * `passes` rounds of rows (buffer1 -> buffer2) then columns (buffer2 -> buffer1); the result is
 * left in buffer1, as jaroszFilterFloat does. PDQ uses 2 passes: a tent filter.
 */
export function jaroszFilter(
  buffer1: Float32Array,
  buffer2: Float32Array,
  rows: number,
  cols: number,
  windowAlongRows: number,
  windowAlongCols: number,
  passes: number,
): void {
  for (let p = 0; p < passes; p++) {
    boxAlongRows(buffer1, buffer2, rows, cols, windowAlongRows);
    boxAlongCols(buffer2, buffer1, rows, cols, windowAlongCols);
  }
}

/** Picks the sample at each output cell's centre: in[floor((i+.5)*H/outH)][floor((j+.5)*W/outW)]. */
export function decimate(
  input: Float32Array,
  rows: number,
  cols: number,
  outRows: number,
  outCols: number,
): Float32Array {
  const out = new Float32Array(outRows * outCols);
  for (let i = 0; i < outRows; i++) {
    const ini = Math.trunc(((i + 0.5) * rows) / outRows);
    for (let j = 0; j < outCols; j++) {
      const inj = Math.trunc(((j + 0.5) * cols) / outCols);
      out[i * outCols + j] = input[ini * cols + inj] as number;
    }
  }
  return out;
}
