import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { planShrinkOnLoad } from '../pdq/index.js';
import type { Raster } from './raster.js';

export interface DecodedImage {
  raster: Raster;
  /** Size of the full image (the raster may be smaller: shrink-on-load). */
  fullWidth: number;
  fullHeight: number;
  format: string;
}

/**
 * One decode per image: libjpeg shrink-on-load to the smallest scale whose short side stays
 * ≥ 256 px (PDQ within 8 bits of a full decode; see analysis/pdq), ICC ignored, alpha dropped,
 * EXIF orientation NOT applied (as the PDQ reference). The raster feeds PDQ, the crop signal and
 * the previews. Untrusted bytes: sharp's default pixel limit and failOn stay in force.
 */
export async function decodeForAnalysis(
  bytes: Buffer,
  minShortSide?: number,
): Promise<DecodedImage> {
  let pipeline = sharp(bytes, { ignoreIcc: true });
  const meta = await pipeline.metadata();
  const fullWidth = meta.width ?? 0;
  const fullHeight = meta.height ?? 0;
  if (meta.format === 'jpeg') {
    const plan = planShrinkOnLoad(fullWidth, fullHeight, minShortSide);
    if (plan.target)
      pipeline = pipeline.resize({ ...plan.target, fit: 'fill', fastShrinkOnLoad: true });
  }
  const { data, info } = await pipeline
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    raster: { data, width: info.width, height: info.height, channels: info.channels },
    fullWidth,
    fullHeight,
    format: meta.format ?? 'unknown',
  };
}

/** Decodes a small embedded image (the EXIF thumbnail) in full. */
export async function decodeSmall(bytes: Buffer): Promise<Raster> {
  const { data, info } = await sharp(bytes, { ignoreIcc: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * EXIF orientation (TIFF 6.0 tag 0x0112) as sharp operations. sharp mirrors before it rotates,
 * so 5 (transpose) is flip-then-rotate-90 and 7 (transverse) flop-then-rotate-90.
 */
export function orient(img: Sharp, orientation: number | null): Sharp {
  switch (orientation) {
    case 2:
      return img.flop();
    case 3:
      return img.rotate(180);
    case 4:
      return img.flip();
    case 5:
      return img.flip().rotate(90);
    case 6:
      return img.rotate(90);
    case 7:
      return img.flop().rotate(90);
    case 8:
      return img.rotate(270);
    case null:
    default:
      return img;
  }
}

/**
 * Safe previews: a thumbnail of `size` px on the long edge with the orientation applied, and a
 * strongly blurred greyscale variant shown until a person chooses to look. Derived, never
 * evidence: written atomically and can always be made again.
 */
export async function writePreviews(
  raster: Raster,
  orientation: number | null,
  size: number,
  paths: { plain: string; blurred: string },
): Promise<void> {
  const base = () =>
    orient(
      sharp(raster.data, {
        raw: { width: raster.width, height: raster.height, channels: raster.channels as 3 },
      }),
      orientation,
    );
  const thumb = await base()
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80, effort: 2 })
    .toBuffer();
  const blurred = await sharp(thumb)
    .greyscale()
    .blur(Math.max(8, size / 16))
    .webp({ quality: 60, effort: 2 })
    .toBuffer();
  await writeAtomic(paths.plain, thumb);
  await writeAtomic(paths.blurred, blurred);
}

async function writeAtomic(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}
