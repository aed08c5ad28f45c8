export { DEFAULT_CAMERAS, type CameraProfile } from './camera-profiles.js';
export { MAX_PHOTOS_PER_DAY } from './camera-timeline.js';
export { COPIES_FOLDER, planCollection } from './collection-plan.js';
export type { PlannedExif, PlannedGps, PlannedPhoto, PlanOptions } from './plan-types.js';
export { DemoError, type DemoErrorCode } from './errors.js';
export { buildExifDirs, type ExifDirs } from './exif-dirs.js';
export { renderPhoto } from './jpeg-synth.adapter.js';
export {
  MANIFEST_NAME,
  writeCollection,
  type WriteCollectionOptions,
  type WriteCollectionResult,
} from './write-collection.adapter.js';
export { createSeededRandom, type SeededRandom } from './seeded-random.js';
