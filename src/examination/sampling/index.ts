// Sampling draws that anyone can repeat without Custody: PROCEDURE.md in this folder is the
// specification, scripts/redraw-sample.py an independent implementation of it.
export { SamplingError, type SamplingErrorCode } from './errors.js';
export { compareCodePoints, dedupeFrame, frameDigest, type DedupedFrame } from './frame.js';
export { createDrawStream, type DrawStream } from './stream.js';
export { drawSimpleRandom, drawSystematic, type SampleDraw, type SampleMethod } from './draw.js';
export {
  allocateProportional,
  drawStratified,
  strataDigest,
  type Allocation,
  type StratifiedDraw,
  type StratumDraw,
} from './stratified.js';
