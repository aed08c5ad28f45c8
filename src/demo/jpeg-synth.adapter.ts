import sharp from 'sharp';
import { buildExifDirs } from './exif-dirs.js';
import type { PlannedPhoto } from './plan-types.js';
import { addGrain, describeScene, paintScene } from './scene-paint.js';

/** Above this many pixels the scene is painted at 1/4 size, else at 1/2, then scaled up. */
const LARGE_PHOTO_PIXELS = 2_000_000;

/**
 * Renders one planned photo as a camera-like JPEG: an abstract scene (see scene-paint.ts) painted
 * in JavaScript at reduced size, scaled up by libvips, given full-resolution grain so it
 * compresses like a photograph, then encoded with the camera's quality and EXIF.
 *
 * Deterministic: the same plan entry gives the same bytes with the same sharp/libvips build.
 * (Different libvips or libjpeg versions may encode differently; never pin hashes of output in
 * tests that outlive a dependency upgrade.)
 */
export async function renderPhoto(p: PlannedPhoto): Promise<Buffer> {
  const scene = describeScene(p.sceneSeed);
  const scale = p.width * p.height > LARGE_PHOTO_PIXELS ? 4 : 2;
  const canvasWidth = Math.ceil(p.width / scale);
  const canvasHeight = Math.ceil(p.height / scale);
  const canvas = paintScene(scene, p.sceneVariant, canvasWidth, canvasHeight);

  // The upscale runs on libuv's thread pool; the JavaScript above and below stays small.
  const pixels = await sharp(canvas, {
    raw: { width: canvasWidth, height: canvasHeight, channels: 3 },
  })
    .resize(p.width, p.height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  addGrain(pixels, scene, p.sceneVariant);

  return (
    sharp(pixels, { raw: { width: p.width, height: p.height, channels: 3 } })
      // sharp writes Orientation from its own metadata, not from withExif(), so set it here too.
      // withMetadata() would also attach an sRGB ICC profile; cameras like these attach none.
      .withMetadata({ orientation: p.exif.orientation, density: p.camera.resolutionDpi })
      .withIccProfile('srgb', { attach: false })
      .withExif(buildExifDirs(p))
      .jpeg({ quality: p.quality })
      .toBuffer()
  );
}
