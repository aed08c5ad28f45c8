import { describe, expect, it } from 'vitest';
import {
  actualPixelsZoom,
  applyCommand,
  commandForKey,
  cssTransform,
  FIT,
  fitScale,
  imagePointAt,
  MAX_ZOOM,
  rotate,
  zoomAt,
} from './viewer-math';

const image = { width: 4000, height: 3000 };
const stage = { width: 800, height: 600 };

describe('viewer geometry', () => {
  it('fits the image to the stage, the rotated image on its side', () => {
    expect(fitScale(image, stage, 0)).toBe(0.2);
    // On its side the image is 3000 wide and 4000 high: the height decides.
    expect(fitScale(image, stage, 1)).toBe(0.15);
  });

  it('keeps the image point under the cursor when zooming about it', () => {
    const at = { x: 120, y: -80 };
    const before = imagePointAt(FIT, image, stage, at);
    const zoomed = zoomAt(FIT, 3, at);
    expect(zoomed.zoom).toBe(3);
    const after = imagePointAt(zoomed, image, stage, at);
    expect(after.x).toBeCloseTo(before.x, 9);
    expect(after.y).toBeCloseTo(before.y, 9);
  });

  it('bounds the zoom', () => {
    expect(zoomAt({ ...FIT, zoom: MAX_ZOOM }, 2).zoom).toBe(MAX_ZOOM);
    expect(zoomAt(FIT, 0.001).zoom).toBe(0.5);
  });

  it('maps the stage centre to the image centre, and corners to corners, at fit', () => {
    expect(imagePointAt(FIT, image, stage, { x: 0, y: 0 })).toEqual({ x: 2000, y: 1500 });
    expect(imagePointAt(FIT, image, stage, { x: -400, y: -300 })).toEqual({ x: 0, y: 0 });
  });

  it('rotated a quarter turn clockwise, the top-left of the screen shows the bottom-left of the image', () => {
    const turned = rotate(FIT);
    expect(turned.rotation).toBe(1);
    const s = fitScale(image, stage, 1); // 0.15: the image is 450 × 600 on screen
    const p = imagePointAt(turned, image, stage, { x: -(3000 * s) / 2, y: -(4000 * s) / 2 });
    expect(p.x).toBeCloseTo(0, 9);
    expect(p.y).toBeCloseTo(3000, 9);
  });

  it('four quarter turns come back to the same view, and the pan turns with the image', () => {
    const v = { zoom: 2, x: 30, y: -10, rotation: 0 };
    let w = v;
    for (let i = 0; i < 4; i++) w = rotate(w, 1, image, stage);
    expect(w.rotation).toBe(0);
    expect(w.x).toBeCloseTo(v.x, 9);
    expect(w.y).toBeCloseTo(v.y, 9);
    const back = rotate(rotate(v, 1, image, stage), -1, image, stage);
    expect([back.x, back.y, back.rotation]).toEqual([v.x, v.y, 0]);
    // What was at the stage centre is still there after a turn.
    const centre = imagePointAt(v, image, stage, { x: 0, y: 0 });
    const after = imagePointAt(rotate(v, 1, image, stage), image, stage, { x: 0, y: 0 });
    expect(after.x).toBeCloseTo(centre.x, 9);
    expect(after.y).toBeCloseTo(centre.y, 9);
  });

  it('1:1 shows one image pixel per screen pixel', () => {
    const z = actualPixelsZoom(image, stage, 0);
    expect(fitScale(image, stage, 0) * z).toBeCloseTo(1, 12);
    expect(cssTransform({ ...FIT, zoom: z }, image, stage)).toBe('translate(0px, 0px) rotate(0deg) scale(1)');
  });

  it('maps the keys: + − 0 1 arrows r R l, and nothing else', () => {
    const zoomed = applyCommand(FIT, commandForKey('+', stage)!, image, stage);
    expect(zoomed.zoom).toBe(1.25);
    expect(applyCommand(zoomed, commandForKey('-', stage)!, image, stage).zoom).toBe(1);
    expect(applyCommand({ zoom: 5, x: 9, y: 9, rotation: 2 }, commandForKey('0', stage)!, image, stage)).toEqual({ ...FIT, rotation: 2 });
    expect(applyCommand(FIT, commandForKey('1', stage)!, image, stage).zoom).toBe(5);
    // The right arrow moves the view right: the image moves left.
    expect(applyCommand(FIT, commandForKey('ArrowRight', stage)!, image, stage)).toEqual({ ...FIT, x: -60 });
    expect(applyCommand(FIT, commandForKey('ArrowUp', stage)!, image, stage)).toEqual({ ...FIT, y: 60 });
    expect(applyCommand(FIT, commandForKey('r', stage)!, image, stage).rotation).toBe(1);
    expect(applyCommand(FIT, commandForKey('R', stage)!, image, stage).rotation).toBe(3);
    expect(commandForKey('l', stage)).toEqual({ op: 'loupe' });
    expect(commandForKey('x', stage)).toBeNull();
    expect(commandForKey('Tab', stage)).toBeNull();
  });
});
