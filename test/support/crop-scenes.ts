// The uneven-crop fixture shared by the near-duplicate tests (issue 14): a photo-like scene from
// the demo painter and its crops, cut unevenly, brightened and re-compressed.
import sharp from 'sharp';
import { addGrain, describeScene, paintScene } from '../../src/demo/scene-paint.js';

const W = 640;
const H = 480;
export type Box = { left: number; top: number; right: number; bottom: number };
/** Cut 3 % left, 1 % top, 12 % right, 4 % bottom: uneven, no fixed window lines up. */
export const BOX: Box = { left: 0.03, top: 0.01, right: 0.88, bottom: 0.96 };

/** The demo painter's scene `seed` as raw RGB at w×h, with its sensor grain (texture PDQ can hold on to). */
export async function scenePixels(seed: string, w: number, h: number): Promise<Buffer> {
  const s = describeScene(seed);
  const pixels = await sharp(paintScene(s, 0, w / 2, h / 2), {
    raw: { width: w / 2, height: h / 2, channels: 3 },
  })
    .resize(w, h, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  addGrain(pixels, s, 0);
  return pixels;
}

/** A photo-like scene (640×480 JPEG with a camera's EXIF). */
export async function scene(seed: string): Promise<Buffer> {
  return sharp(await scenePixels(seed, W, H), { raw: { width: W, height: H, channels: 3 } })
    .withExif({ IFD0: { Make: 'Nikon', Model: 'D-Test' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The box `b` (fractions) of a scene, to be encoded by the caller. */
export function cut(jpeg: Buffer, b: Box): ReturnType<typeof sharp> {
  const left = Math.round(b.left * W);
  const top = Math.round(b.top * H);
  return sharp(jpeg).extract({
    left,
    top,
    width: Math.round(b.right * W) - left,
    height: Math.round(b.bottom * H) - top,
  });
}

/** The uneven crop BOX of a scene, brightened and re-compressed. */
export async function cropOf(jpeg: Buffer): Promise<Buffer> {
  return cut(jpeg, BOX)
    .modulate({ brightness: 1.1 })
    .keepMetadata()
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Where the scene's box `part` sits in its crop `box` (fractions of the crop). */
export function within(box: Box, part: Box): Box {
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  return {
    left: (part.left - box.left) / w,
    top: (part.top - box.top) / h,
    right: (part.right - box.left) / w,
    bottom: (part.bottom - box.top) / h,
  };
}
