import { createSeededRandom, type SeededRandom } from './seeded-random.js';

/**
 * Abstract, photo-like scenes painted from a seed: a sky and ground gradient split by a tilted
 * horizon, textured ground, soft blobs, a few hard-edged blocks, lens vignetting, sensor grain.
 * Never a person, never anything recognisable: the collection must not look like evidence of
 * a real event. Pure (no sharp, no I/O); jpeg-synth.adapter.ts does the upscaling and encoding.
 */

type Rgb = [number, number, number];

/** Fine texture cells across the frame; about 27 px each on a 3264-px-wide photo. */
const TEXTURE_CELLS_ACROSS = 120;

interface Blob {
  x: number;
  y: number;
  rx: number;
  ry: number;
  colour: Rgb;
  opacity: number;
}

interface Block {
  x0: number;
  x1: number;
  top: number;
  colour: Rgb;
}

export interface Scene {
  sky: [Rgb, Rgb];
  ground: [Rgb, Rgb];
  horizon: number;
  tilt: number;
  /** Amplitude of the ground texture, in 8-bit levels. */
  texture: number;
  blobs: Blob[];
  blocks: Block[];
  vignette: number;
  /** Sensor grain: standard deviation in 8-bit levels, luminance and chroma. */
  grain: number;
  chromaGrain: number;
  /** How far each burst frame pans, as a fraction of the width and height. */
  panStep: [number, number];
  noiseSeed: number;
}

/** Scene parameters from a sceneSeed; every burst frame of a scene shares them. */
export function describeScene(sceneSeed: string): Scene {
  const r = createSeededRandom(sceneSeed, 'scene');
  const horizon = r.between(0.3, 0.7);
  return {
    sky: [
      hsv(r.between(190, 230), r.between(0.1, 0.45), r.between(0.55, 0.8)),
      hsv(r.between(180, 220), r.between(0.05, 0.3), r.between(0.8, 0.97)),
    ],
    ground: [
      hsv(r.between(25, 100), r.between(0.2, 0.5), r.between(0.35, 0.6)),
      hsv(r.between(20, 60), r.between(0.25, 0.55), r.between(0.2, 0.45)),
    ],
    horizon,
    tilt: r.between(-0.04, 0.04),
    texture: r.between(10, 45),
    blobs: Array.from({ length: r.int(3, 7) }, () => drawBlob(r)),
    blocks: Array.from({ length: r.int(1, 6) }, () => drawBlock(r, horizon)),
    vignette: r.between(0.1, 0.35),
    grain: r.between(2, 5),
    chromaGrain: r.between(0.5, 2),
    panStep: [r.between(-0.02, 0.02), r.between(-0.006, 0.006)],
    noiseSeed: r.uint32(),
  };
}

function drawBlob(r: SeededRandom): Blob {
  return {
    x: r.between(-0.1, 1.1),
    y: r.between(0, 1),
    rx: r.between(0.04, 0.3),
    ry: r.between(0.03, 0.2),
    colour: hsv(r.between(0, 360), r.between(0.05, 0.4), r.between(0.25, 0.9)),
    opacity: r.between(0.3, 0.8),
  };
}

function drawBlock(r: SeededRandom, horizon: number): Block {
  const x0 = r.between(-0.05, 0.95);
  return {
    x0,
    x1: x0 + r.between(0.02, 0.18),
    top: horizon - r.between(0.02, 0.3),
    colour: hsv(r.between(0, 60), r.between(0, 0.25), r.between(0.2, 0.75)),
  };
}

/**
 * Paints `scene` into an RGB buffer of width × height (a reduced-size canvas the adapter scales
 * up). Frame `variant` of a burst is the same scene panned by variant × panStep.
 */
export function paintScene(scene: Scene, variant: number, width: number, height: number): Buffer {
  const out = new Uint8ClampedArray(width * height * 3);
  const panX = scene.panStep[0] * variant;
  const panY = scene.panStep[1] * variant;
  const cellsX = TEXTURE_CELLS_ACROSS;
  const cellsY = (TEXTURE_CELLS_ACROSS * height) / width; // square cells at any canvas size
  for (let y = 0; y < height; y++) {
    const v = y / height + panY;
    for (let x = 0; x < width; x++) {
      const u = x / width + panX;
      const rgb = shadePixel(scene, u, v, cellsX, cellsY);
      const falloff = 1 - scene.vignette * ((x / width - 0.5) ** 2 + (y / height - 0.5) ** 2) * 2;
      const at = (y * width + x) * 3;
      out[at] = rgb[0] * falloff;
      out[at + 1] = rgb[1] * falloff;
      out[at + 2] = rgb[2] * falloff;
    }
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Colour at scene coordinates (u, v) in [0, 1]², before vignetting. `cellsX` × `cellsY` texture
 * cells span the frame, so the texture looks the same at any canvas size.
 */
function shadePixel(scene: Scene, u: number, v: number, cellsX: number, cellsY: number): Rgb {
  const horizon = scene.horizon + scene.tilt * (u - 0.5);
  let rgb: Rgb;
  if (v < horizon) {
    rgb = mix(scene.sky[0], scene.sky[1], v / horizon);
    const cloud = valueNoise(scene.noiseSeed ^ 0x5bd1e995, (u * cellsX) / 8, (v * cellsY) / 5);
    rgb = add(rgb, cloud * scene.texture * 0.4);
  } else {
    rgb = mix(scene.ground[0], scene.ground[1], (v - horizon) / (1 - horizon));
    const coarse = valueNoise(scene.noiseSeed, (u * cellsX) / 3, (v * cellsY) / 3);
    const fine = valueNoise(scene.noiseSeed + 1, u * cellsX, v * cellsY);
    rgb = add(rgb, (coarse * 0.7 + fine * 0.5) * scene.texture);
  }
  for (const b of scene.blobs) {
    const d = ((u - b.x) / b.rx) ** 2 + ((v - b.y) / b.ry) ** 2;
    if (d < 1) rgb = mix(rgb, b.colour, b.opacity * (1 - d) * (1 - d));
  }
  for (const b of scene.blocks) {
    if (u >= b.x0 && u < b.x1 && v >= b.top && v < horizon + 0.01) {
      rgb = add(b.colour, ((u - b.x0) / (b.x1 - b.x0)) * -25); // lit from the left
    }
  }
  return rgb;
}

/**
 * Adds sensor grain to full-size RGB pixels, in place: triangular luminance noise plus a little
 * chroma noise. Fixed by the scene and the frame, so rendering is repeatable byte for byte.
 */
export function addGrain(pixels: Buffer, scene: Scene, variant: number): void {
  // Uint8ClampedArray clamps on store, so the loop below stays in integers.
  const view = new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  // Lookup tables: two summed bytes minus 255 are triangular with sd 255 / sqrt(6) ≈ 104;
  // one byte minus 127.5 is uniform with sd ≈ 74.
  const luma = Int16Array.from({ length: 511 }, (_, k) =>
    Math.round(((k - 255) * scene.grain) / 104),
  );
  const chroma = Int16Array.from({ length: 256 }, (_, k) =>
    Math.round(((k - 127.5) * scene.chromaGrain) / 74),
  );
  // xorshift32 (Marsaglia 2003, shifts 13/17/5), inlined: a function call per pixel costs 3x.
  // Not SHA-256: it runs once per pixel and only needs to be repeatable.
  let state = (scene.noiseSeed ^ Math.imul(variant + 1, 0x9e3779b1)) | 0 || 0x2545f491;
  for (let i = 0; i + 2 < view.length; i += 3) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const r = state >>> 0;
    const l = luma[(r & 0xff) + ((r >>> 8) & 0xff)]!;
    const cr = chroma[(r >>> 16) & 0xff]!;
    const cb = chroma[r >>> 24]!;
    view[i]! += l + cr;
    view[i + 1]! += l - ((cr + cb) >> 1);
    view[i + 2]! += l + cb;
  }
}

/** Smooth value noise in [-0.5, 0.5): a hashed lattice, bilinear with smoothstep easing. */
function valueNoise(seed: number, x: number, y: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = smooth(x - ix);
  const fy = smooth(y - iy);
  const top = lattice(seed, ix, iy) * (1 - fx) + lattice(seed, ix + 1, iy) * fx;
  const bottom = lattice(seed, ix, iy + 1) * (1 - fx) + lattice(seed, ix + 1, iy + 1) * fx;
  return top * (1 - fy) + bottom * fy - 0.5;
}

function lattice(seed: number, x: number, y: number): number {
  let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1) ^ seed;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 0x1_0000_0000;
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

function add(a: Rgb, delta: number): Rgb {
  return [a[0] + delta, a[1] + delta, a[2] + delta];
}

/** HSV (hue in degrees, saturation and value in 0–1) to 8-bit RGB. */
function hsv(h: number, s: number, v: number): Rgb {
  const f = (n: number): number => {
    const k = (n + h / 60) % 6;
    return 255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1)));
  };
  return [f(5), f(3), f(1)];
}
