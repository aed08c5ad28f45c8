import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Sharp } from 'sharp';
import { CustodyError } from '../../core/index.js';
import { planShrinkOnLoad } from '../pdq/index.js';
import { blurredPreviewPlane } from './blurred-preview.js';
import type { Raster } from './raster.js';

type SharpFn = (typeof import('sharp'))['default'];
let sharpFn: SharpFn | null = null;

/** sharp (libvips), loaded on first use, so that commands that decode no image do not pay for it at start-up. */
async function loadSharp(): Promise<SharpFn> {
  return (sharpFn ??= (await import('sharp')).default);
}

/**
 * libvips worker threads per image (sharp.concurrency; its default is one per core). A batch
 * analysis keeps 4 images in flight, which keeps both cores busy by itself; one thread each spent
 * about 2 ms less CPU per 6–12 MP JPEG (decode and previews: 35.4 against 37.5 ms, issue 14),
 * the threads' hand-offs saved. Process-wide: called by the commands that run a batch analysis.
 */
export async function decodeOneThreadPerImage(): Promise<void> {
  (await loadSharp()).concurrency(1);
}

export type ImageErrorCode = 'IMAGE_PIXEL_LIMIT' | 'IMAGE_UNDECODABLE';
export class ImageError extends CustodyError<ImageErrorCode> {}

/**
 * Decoded pixels per image, unless configured otherwise (CUSTODY_IMAGE_MAX_PIXELS,
 * --max-image-pixels): 100 MP is about 300 MB of RGB. A 746 KB PNG declaring 16000×16000 would
 * otherwise take gigabytes and tens of seconds.
 */
export const DEFAULT_MAX_PIXELS = 100_000_000;

/** What the header declares, read without decoding a pixel. */
export interface ImageHeader {
  format: string;
  width: number;
  height: number;
  /** Pixels a decode would produce: for JPEG after shrink-on-load (DCT scaling), else width × height of one page. */
  decodedPixels: number;
}

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
  maxPixels: number = DEFAULT_MAX_PIXELS,
): Promise<DecodedImage> {
  const sharp = await loadSharp();
  const header = await readImageHeader(bytes, minShortSide);
  refuseAbove(header, maxPixels);
  const fullWidth = header.width;
  const fullHeight = header.height;
  // sharp's own check is on the input's declared size; ours (above) on what is decoded, which
  // for JPEG is after DCT scaling: a 200 MP phone JPEG decodes at 1/8, 3 MP.
  const shrink = header.format === 'jpeg' ? planShrinkOnLoad(fullWidth, fullHeight, minShortSide) : null;
  let pipeline = sharp(bytes, {
    ignoreIcc: true,
    limitInputPixels: shrink?.target ? Math.max(maxPixels, fullWidth * fullHeight) : maxPixels,
  });
  if (shrink?.target)
    pipeline = pipeline.resize({ ...shrink.target, fit: 'fill', fastShrinkOnLoad: true });
  const { data, info } = await pipeline
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    raster: { data, width: info.width, height: info.height, channels: info.channels },
    fullWidth,
    fullHeight,
    format: header.format,
  };
}

/** The image's declared format and size, from its header only (nothing is decoded). */
export async function readImageHeader(bytes: Buffer, minShortSide?: number): Promise<ImageHeader> {
  const sharp = await loadSharp();
  // limitInputPixels: false, since metadata() decodes nothing; the caller decides on the size.
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  let decodedPixels = width * height;
  if (meta.format === 'jpeg') {
    const plan = planShrinkOnLoad(width, height, minShortSide);
    decodedPixels = Math.ceil(width / plan.jpegShrink) * Math.ceil(height / plan.jpegShrink);
  }
  return { format: meta.format ?? 'unknown', width, height: meta.height ?? 0, decodedPixels };
}

function refuseAbove(header: ImageHeader, maxPixels: number): void {
  if (header.decodedPixels > maxPixels) {
    throw new ImageError(
      'IMAGE_PIXEL_LIMIT',
      `${header.width}×${header.height} ${header.format} would decode to ${header.decodedPixels} pixels, above the limit of ${maxPixels}; not decoded`,
      { details: { width: header.width, height: header.height, decoded_pixels: header.decodedPixels, max_pixels: maxPixels } },
    );
  }
}

/** Decodes a small embedded image (the EXIF thumbnail) in full, within the same pixel limit. */
export async function decodeSmall(bytes: Buffer, maxPixels: number = DEFAULT_MAX_PIXELS): Promise<Raster> {
  const sharp = await loadSharp();
  refuseAbove(await readImageHeader(bytes, Number.MAX_SAFE_INTEGER), maxPixels);
  const { data, info } = await sharp(bytes, { ignoreIcc: true, limitInputPixels: maxPixels })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * The image's pixels at full size, oriented, re-encoded as PNG without any metadata: what a
 * blinded examiner may see of an original (its EXIF, XMP and comments can carry dates, places and
 * the catalogue number; the pixels are what they examine).
 */
export async function pixelsOnly(bytes: Buffer, orientation: number | null, maxPixels: number = DEFAULT_MAX_PIXELS): Promise<Buffer> {
  const sharp = await loadSharp();
  refuseAbove(await readImageHeader(bytes, Number.MAX_SAFE_INTEGER), maxPixels);
  return orient(sharp(bytes, { limitInputPixels: maxPixels }), orientation).png().toBuffer();
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
 * Safe previews, in memory: a thumbnail of `size` px on the long edge with the orientation
 * applied, and the blurred greyscale variant shown until a person chooses to look: a tiny image
 * (BLURRED_PREVIEW_EDGE px, analysis/image/blurred-preview) that the UI scales up. Both from the
 * raster already decoded; the blurred one is computed in JS (a 32 px plane: libvips' blur and
 * resize set-up cost more than the work), sharp only orients and encodes it.
 */
export async function makePreviews(
  raster: Raster,
  orientation: number | null,
  size: number,
): Promise<{ plain: Buffer; blurred: Buffer }> {
  const sharp = await loadSharp();
  const plain = orient(
    sharp(raster.data, {
      raw: { width: raster.width, height: raster.height, channels: raster.channels as 3 },
    }),
    orientation,
  )
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    // Effort 0 (was 2): on 20 real photographs at 256 px, 1.1–1.8 ms less CPU per image in two
    // runs (4.0 against 5.1–5.8), the same PSNR (34.5 against 34.2 dB) and 10 % more bytes (12.8
    // against 11.6 KB); quality 75 would win the bytes back at 1.2 dB less
    // (bench/preview-settings.ts, issue 14).
    .webp({ quality: 80, effort: 0 })
    .toBuffer();
  const tiny = blurredPreviewPlane(raster);
  const blurred = orient(
    sharp(tiny.data, { raw: { width: tiny.width, height: tiny.height, channels: 1 } }),
    orientation,
  )
    // Effort 0: at 32 px there is nothing for libwebp's slower searches to find.
    .webp({ quality: 60, effort: 0 })
    .toBuffer();
  const [p, b] = await Promise.all([plain, blurred]);
  return { plain: p, blurred: b };
}

/**
 * The blurred preview scaled up to the plain one's size with smooth (bicubic) interpolation, as
 * the UI shows it, for a reader that shows an image as it is: a report's HTML or PDF page. It
 * carries no more detail than the tiny one it is made from.
 */
export async function blurredAtPlainSize(previews: { plain: Buffer; blurred: Buffer }): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width, height } = await sharp(previews.plain).metadata();
  return sharp(previews.blurred)
    .resize({ width, height, fit: 'fill', kernel: 'cubic' })
    .webp({ quality: 60, effort: 0 })
    .toBuffer();
}

/**
 * The previews of `makePreviews`, written to `paths`. Derived, never evidence: written atomically
 * and can always be made again.
 */
export async function writePreviews(
  raster: Raster,
  orientation: number | null,
  size: number,
  paths: { plain: string; blurred: string },
): Promise<void> {
  const { plain, blurred } = await makePreviews(raster, orientation, size);
  await writeAtomic(paths.plain, plain);
  await writeAtomic(paths.blurred, blurred);
}

async function writeAtomic(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

/**
 * A full-size lossless PNG of an image a browser cannot render (TIFF, HEIC…), for viewing: every
 * pixel kept, EXIF orientation applied (PNG carries none), within the same pixel limit. A derived
 * rendition, never the evidence: the original's bytes are what the ledger and the store hold.
 */
export async function losslessRendition(
  bytes: Buffer,
  maxPixels: number = DEFAULT_MAX_PIXELS,
): Promise<{ png: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  try {
    refuseAbove(await readImageHeader(bytes, Number.MAX_SAFE_INTEGER), maxPixels);
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels })
      .rotate()
      .png({ compressionLevel: 3 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch (e) {
    if (e instanceof ImageError) throw e;
    throw new ImageError('IMAGE_UNDECODABLE', 'the image could not be decoded for a rendition', {
      cause: e,
    });
  }
}
