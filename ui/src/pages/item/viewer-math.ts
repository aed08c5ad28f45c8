// The image viewer's geometry, pure: the view is a zoom relative to "fit", a pan in screen
// pixels of the image centre from the stage centre, and a rotation in quarter turns. Screen
// coordinates here are relative to the stage centre, y downwards (the stage is always left to
// right: an image has no reading direction).

export interface View {
  /** 1 = the whole (rotated) image fits the stage. */
  zoom: number;
  /** The image centre's offset from the stage centre, in screen pixels. */
  x: number;
  y: number;
  /** Quarter turns clockwise: 0, 1, 2, 3. */
  rotation: number;
}

export interface Size {
  width: number;
  height: number;
}

export const FIT: View = { zoom: 1, x: 0, y: 0, rotation: 0 };
export const MIN_ZOOM = 0.5;
/** Far enough in to see single pixels of a 12 MP photograph on a small stage. */
export const MAX_ZOOM = 64;
export const ZOOM_STEP = 1.25;

/** Screen pixels per image pixel at zoom 1: the (rotated) image fits inside the stage. */
export function fitScale(image: Size, stage: Size, rotation: number): number {
  if (image.width <= 0 || image.height <= 0 || stage.width <= 0 || stage.height <= 0) return 1;
  const turned = rotation % 2 === 1;
  const w = turned ? image.height : image.width;
  const h = turned ? image.width : image.height;
  return Math.min(stage.width / w, stage.height / h);
}

export function clampZoom(z: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));
}

/**
 * Zooms by `factor` about the screen point `at` (relative to the stage centre): the image point
 * under it stays under it.
 */
export function zoomAt(view: View, factor: number, at: { x: number; y: number } = { x: 0, y: 0 }): View {
  const zoom = clampZoom(view.zoom * factor);
  const k = zoom / view.zoom;
  return { ...view, zoom, x: at.x - k * (at.x - view.x), y: at.y - k * (at.y - view.y) };
}

/** The zoom at which one image pixel is one screen pixel. */
export function actualPixelsZoom(image: Size, stage: Size, rotation: number): number {
  return clampZoom(1 / fitScale(image, stage, rotation));
}

/**
 * A quarter turn clockwise (or back with `by` −1), about the stage centre. The pan turns with the
 * image, and follows the change of the fit scale (image and stage given), so that the image point
 * at the centre stays there.
 */
export function rotate(view: View, by: 1 | -1 = 1, image?: Size, stage?: Size): View {
  const rotation = (((view.rotation + by) % 4) + 4) % 4;
  const k =
    image === undefined || stage === undefined
      ? 1
      : fitScale(image, stage, rotation) / fitScale(image, stage, view.rotation);
  const [x, y] = by === 1 ? [-view.y * k, view.x * k] : [view.y * k, -view.x * k];
  return { ...view, rotation, x, y };
}

export function pan(view: View, dx: number, dy: number): View {
  return { ...view, x: view.x + dx, y: view.y + dy };
}

/**
 * The image pixel (from the image's top-left corner, in its own unrotated pixels) under the
 * screen point `at` (relative to the stage centre).
 */
export function imagePointAt(
  view: View,
  image: Size,
  stage: Size,
  at: { x: number; y: number },
): { x: number; y: number } {
  const s = fitScale(image, stage, view.rotation) * view.zoom;
  const dx = (at.x - view.x) / s;
  const dy = (at.y - view.y) / s;
  // Undo a clockwise rotation by `rotation` quarter turns.
  let [u, v] = [dx, dy];
  for (let i = 0; i < view.rotation; i++) [u, v] = [v, -u];
  return { x: u + image.width / 2, y: v + image.height / 2 };
}

/** The CSS transform of an image of natural size `image` whose box is centred on the stage centre. */
export function cssTransform(view: View, image: Size, stage: Size): string {
  const s = fitScale(image, stage, view.rotation) * view.zoom;
  return `translate(${round(view.x)}px, ${round(view.y)}px) rotate(${view.rotation * 90}deg) scale(${s})`;
}

const round = (n: number): number => Math.round(n * 100) / 100;

export type ViewerCommand =
  | { op: 'zoom'; factor: number }
  | { op: 'fit' }
  | { op: 'actual' }
  | { op: 'pan'; dx: number; dy: number }
  | { op: 'rotate'; by: 1 | -1 }
  | { op: 'loupe' };

/** The viewer's keys (+ − 0 1 arrows r R l): what each does, or null for a key it leaves alone. */
export function commandForKey(key: string, stage: Size): ViewerCommand | null {
  const step = Math.max(16, Math.round(Math.min(stage.width, stage.height) / 10));
  switch (key) {
    case '+':
    case '=':
      return { op: 'zoom', factor: ZOOM_STEP };
    case '-':
    case '_':
      return { op: 'zoom', factor: 1 / ZOOM_STEP };
    case '0':
      return { op: 'fit' };
    case '1':
      return { op: 'actual' };
    // An arrow moves the view that way: the image goes the other way.
    case 'ArrowLeft':
      return { op: 'pan', dx: step, dy: 0 };
    case 'ArrowRight':
      return { op: 'pan', dx: -step, dy: 0 };
    case 'ArrowUp':
      return { op: 'pan', dx: 0, dy: step };
    case 'ArrowDown':
      return { op: 'pan', dx: 0, dy: -step };
    case 'r':
      return { op: 'rotate', by: 1 };
    case 'R':
      return { op: 'rotate', by: -1 };
    case 'l':
    case 'L':
      return { op: 'loupe' };
    default:
      return null;
  }
}

/** Applies a command to a view (the loupe is the caller's). */
export function applyCommand(view: View, cmd: ViewerCommand, image: Size, stage: Size): View {
  switch (cmd.op) {
    case 'zoom':
      return zoomAt(view, cmd.factor);
    case 'fit':
      return { ...FIT, rotation: view.rotation };
    case 'actual':
      return { ...view, zoom: actualPixelsZoom(image, stage, view.rotation), x: 0, y: 0 };
    case 'pan':
      return pan(view, cmd.dx, cmd.dy);
    case 'rotate':
      return rotate(view, cmd.by, image, stage);
    case 'loupe':
      return view;
  }
}
