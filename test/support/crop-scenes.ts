// The uneven-crop fixture shared by the near-duplicate e2e tests (issue 14): a photo-like scene
// from the demo painter and its crop, cut unevenly, brightened and re-compressed.
import sharp from 'sharp';
import { addGrain, describeScene, paintScene } from '../../src/demo/scene-paint.js';

const W = 640;
const H = 480;
/** Cut 3 % left, 1 % top, 12 % right, 4 % bottom: uneven, no fixed window lines up. */
export const BOX = { left: 0.03, top: 0.01, right: 0.88, bottom: 0.96 };

/** A photo-like scene from the demo painter, with its sensor grain (texture PDQ can hold on to). */
export async function scene(seed: string): Promise<Buffer> {
  const s = describeScene(seed);
  const pixels = await sharp(paintScene(s, 0, W / 2, H / 2), { raw: { width: W / 2, height: H / 2, channels: 3 } })
    .resize(W, H, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  addGrain(pixels, s, 0);
  return sharp(pixels, { raw: { width: W, height: H, channels: 3 } })
    .withExif({ IFD0: { Make: 'Nikon', Model: 'D-Test' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function cropOf(jpeg: Buffer): Promise<Buffer> {
  const left = Math.round(BOX.left * W);
  const top = Math.round(BOX.top * H);
  return sharp(jpeg)
    .extract({ left, top, width: Math.round(BOX.right * W) - left, height: Math.round(BOX.bottom * H) - top })
    .modulate({ brightness: 1.1 })
    .keepMetadata()
    .jpeg({ quality: 80 })
    .toBuffer();
}
