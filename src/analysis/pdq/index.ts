// The public surface of analysis/pdq: Meta's PDQ perceptual hash (pure) and its sharp decoder.
export {
  pdqFromLuma,
  pdqHashFromLuma,
  pdqFromRgb,
  lumaFromPixels,
  pdqIntermediatesFromLuma,
  pdqQuality,
  PDQ_MIN_HASHABLE_DIM,
} from './pdq.js';
export type { PdqIntermediates, PdqResult } from './pdq.js';
export { hammingDistance, formatHash256, parseHash256 } from './hash256.js';
export { DIHEDRAL_NAMES, DIHEDRAL_VARIANTS, type DihedralName } from './dct.js';
export { PdqError, type PdqErrorCode } from './errors.js';
export { pdqOfImage, planShrinkOnLoad } from './pdq-decode.adapter.js';
export type { PdqDecodeOptions, ShrinkPlan } from './pdq-decode.adapter.js';
