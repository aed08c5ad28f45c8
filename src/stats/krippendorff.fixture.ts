// Published reliability data, shared by the stats tests (excluded from the build).
import type { RatingMatrix } from './ratings.js';

// K. Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), example C: four observers
// A–D, twelve units, values 1–5, with missing values. Transposed to units × coders here; the same
// data appear as the "C" example of R irr::kripp.alpha. Published: α_nominal = 0.743,
// α_ordinal = 0.815, α_interval = 0.849, α_ratio = 0.797.
const _ = null;
export const KRIPPENDORFF_2011_C: RatingMatrix = [
  [1, 1, _, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [_, 5, 5, 5],
  [_, _, 1, 1],
  [_, _, 3, _],
];
