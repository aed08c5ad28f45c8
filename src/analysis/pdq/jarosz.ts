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

/**
 * One box pass along every row: out[i] is the float32 mean of in[i - floor((w-1)/2) ..
 * i + floor(w/2)] clipped to the row, with the reference's running float sum (box1DFloat) —
 * add on the right, subtract on the left, divide by the count actually in the window.
 */
export function boxAlongRows(
  input: Float32Array,
  output: Float32Array,
  rows: number,
  cols: number,
  window: number,
): void {
  const half = Math.trunc((window + 2) / 2); // 7 -> 4, 8 -> 5
  const phase1 = half - 1;
  const phase2 = window - half + 1;
  const phase3 = cols - window;
  const phase4 = half - 1;
  for (let r = 0; r < rows; r++) {
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
  const half = Math.trunc((window + 2) / 2);
  const phase1 = half - 1;
  const phase2 = window - half + 1;
  const phase3 = rows - window;
  const phase4 = half - 1;
  const sums = new Float32Array(cols);
  let ri = 0; // row index of the right (leading) edge
  let li = 0; // row index of the left (trailing) edge
  let oi = 0; // output row
  let count = 0;
  const add = (row: number): void => {
    const o = row * cols;
    for (let j = 0; j < cols; j++) sums[j] = (sums[j] as number) + (input[o + j] as number);
  };
  const sub = (row: number): void => {
    const o = row * cols;
    for (let j = 0; j < cols; j++) sums[j] = (sums[j] as number) - (input[o + j] as number);
  };
  const write = (row: number): void => {
    const o = row * cols;
    for (let j = 0; j < cols; j++) output[o + j] = (sums[j] as number) / count;
  };
  // Storing into the Float32Array `sums` rounds each step to float32, like the C float `sum`.
  for (let i = 0; i < phase1; i++, count++) add(ri++);
  for (let i = 0; i < phase2; i++) {
    add(ri++);
    count++;
    write(oi++);
  }
  for (let i = 0; i < phase3; i++) {
    add(ri++);
    sub(li++);
    write(oi++);
  }
  for (let i = 0; i < phase4; i++) {
    sub(li++);
    count--;
    write(oi++);
  }
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
