/**
 * Decodes an image with sharp the way Meta's PDQ references see it, then hashes the pixels.
 * (fixtures/pdq/NOTES.md, "Decoder check with sharp"):
 * - the embedded ICC profile is ignored (the references never colour-manage);
 * - alpha is dropped, not composited;
 * - EXIF orientation is NOT applied (sharp only rotates when asked; the references don't).
 * With these, sharp's pixels equal Pillow's for 8-bit JPEG/PNG, so hashes match the C++ core.
 */
import { PdqError } from './errors.js';
import { pdqFromRgb, type PdqResult } from './pdq.js';

type SharpFn = (typeof import('sharp'))['default'];
let sharpFn: SharpFn | null = null;

/** sharp (libvips), loaded on first use, so that commands that decode no image do not pay for it at start-up. */
async function loadSharp(): Promise<SharpFn> {
  return (sharpFn ??= (await import('sharp')).default);
}

export interface PdqDecodeOptions {
  /**
   * JPEG only: let libjpeg decode at 1/2, 1/4 or 1/8 scale (DCT scaling), the largest factor that
   * keeps the short side >= 256 px (see planShrinkOnLoad). About 10× faster on 8 MP photos, but
   * the pixels are no longer the full-resolution ones, so the hash is near (not equal to) the
   * reference's: within 8 bits on Meta's bridge JPEGs. Never mix with full-decode hashes where
   * exact equality matters. Other formats are always decoded in full.
   */
  shrinkOnLoad?: boolean;
}

/** How a JPEG will be decoded when shrink-on-load is asked for (exported for tests and reports). */
export interface ShrinkPlan {
  /** libjpeg scale denominator: 1 (full decode), 2, 4 or 8. */
  jpegShrink: number;
  /** Size sharp resizes to after the scaled decode, or null for none. */
  target: { width: number; height: number } | null;
}

/**
 * Smallest short side the shrunk image may have. PDQ only needs 64×64, but its tent filter is
 * sized from the input, and measured on Meta's bridge JPEGs (distance to the full-resolution
 * reference hash): short side ~64-111 px gave 12-22 bits, ~200 px up to 14, >= 256 px at most 8.
 * Meta accepts <= 10 bits from other decoders, hence 256.
 */
const MIN_SHORT_SIDE = 256;

/**
 * sharp exposes libjpeg shrink-on-load only through resize(): with fastShrinkOnLoad it picks the
 * largest factor s in {8, 4, 2} with s <= min(W/w, H/h), but halves it when the truncated ratio
 * equals s (sharp's guard against libjpeg rounding; pipeline.cc). So to get factor s the target
 * must be at most W/(s+1) × H/(s+1): a mild extra resize (9/8, 5/4 or 3/2, lanczos3) follows.
 * Returns the largest s whose target keeps the short side >= MIN_SHORT_SIDE, or no shrink.
 *
 * @example
 *   planShrinkOnLoad(3264, 2448) // { jpegShrink: 8, target: { width: 362, height: 272 } }
 */
export function planShrinkOnLoad(width: number, height: number, minShortSide = MIN_SHORT_SIDE): ShrinkPlan {
  for (const s of [8, 4, 2]) {
    const w = Math.floor(width / (s + 1));
    const h = Math.floor(height / (s + 1));
    if (Math.min(w, h) >= minShortSide) return { jpegShrink: s, target: { width: w, height: h } };
  }
  return { jpegShrink: 1, target: null };
}

async function decode(input: Buffer | string, shrinkOnLoad: boolean): Promise<PdqResult> {
  // Untrusted bytes: sharp's default limits (pixel count, failOn 'warning') stay in force.
  const sharp = await loadSharp();
  let pipeline = sharp(input, { ignoreIcc: true });
  if (shrinkOnLoad) {
    const meta = await pipeline.metadata();
    if (meta.format === 'jpeg' && meta.width !== undefined && meta.height !== undefined) {
      const plan = planShrinkOnLoad(meta.width, meta.height);
      if (plan.target) {
        pipeline = pipeline.resize({ ...plan.target, fit: 'fill', fastShrinkOnLoad: true });
      }
    }
  }
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return pdqFromRgb(data, info.width, info.height, info.channels);
}

/**
 * PDQ hash, quality and dihedral hashes of an image file or buffer.
 *
 * @example
 *   const { hash, quality } = await pdqOfImage('photo.jpg');
 */
export async function pdqOfImage(
  input: Buffer | string,
  opts: PdqDecodeOptions = {},
): Promise<PdqResult> {
  try {
    return await decode(input, opts.shrinkOnLoad === true);
  } catch (e) {
    if (e instanceof PdqError) throw e;
    throw new PdqError('PDQ_UNDECODABLE', 'the image could not be decoded', { cause: e });
  }
}
