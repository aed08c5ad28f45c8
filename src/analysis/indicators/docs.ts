import type { IndicatorCode } from './image-facts.js';
import {
  DEFAULT_THUMBNAIL_DISTANCE,
  DELIVERY_MAX_MODELS,
  DELIVERY_MIN_OTHERS,
  EXIF_PEER_MIN,
  EXIF_PEER_SHARE,
  FIRMWARE_SHARE,
  MIN_MODEL_OTHERS,
  MODIFY_EQUAL_SHARE,
  QUANT_IMAGES_PER_TABLE,
  RANGE_MIN_OTHERS,
  RANGE_SLACK_DAYS,
  SERIAL_MIN_OTHERS,
} from './thresholds.js';

const pct = (share: number): string => `${Math.round(share * 100)}%`;

/** Carried by every output of this module: appended to each explanation, and a field of the summary. */
export const INDICATOR_DISCLAIMER =
  'Indicators point an expert at what to examine; none of them is a verdict that an image was altered.';

/**
 * One paragraph per indicator, for the README and the report: what it compares, what it may mean,
 * and the innocent explanations an expert must rule out. The baseline is always the rest of this
 * collection, never a camera database.
 */
export const INDICATOR_DOCS: Record<IndicatorCode, string> = {
  EDITING_SOFTWARE:
    'The TIFF Software tag, XMP CreatorTool or an XMP History entry names a known image editor (Photoshop, ' +
    'Lightroom, GIMP, Snapseed and others; case-insensitive). An editor opened and saved the file at some point. ' +
    `A Software string that the same camera model writes on at least ${pct(FIRMWARE_SHARE)} of its other images (at least ${MIN_MODEL_OTHERS}) is treated as ` +
    "firmware or the photographer's routine workflow and not raised (the camera table of the summary lists " +
    'such strings). Innocent explanations: rotating, resizing or exporting for transmission; a newsroom or NGO ' +
    'workflow; raw conversion. It says nothing about what, if anything, was changed in the picture.',
  MODIFY_DATE_DIFFERS:
    `ModifyDate (TIFF DateTime, 0x0132) differs from DateTimeOriginal (EXIF 0x9003), while at least ${pct(MODIFY_EQUAL_SHARE)} of the ` +
    `other images of the same camera model in the collection (at least ${MIN_MODEL_OTHERS}) have the two equal. Cameras normally ` +
    'write them equal and software that rewrites a file usually updates ModifyDate. Innocent explanations: ' +
    'rotation or rating in a photo manager, metadata tools, a camera that writes the time of saving.',
  EXIF_MISSING:
    `The image has no EXIF, or lacks Make, Model or DateTimeOriginal, while at least ${pct(EXIF_PEER_SHARE)} of the other images ` +
    `(at least ${EXIF_PEER_MIN}) received under the same counter-style file-name pattern (such as DSC_####) or in the same ` +
    'folder of the same delivery have them. Stripping metadata is common in editing. Innocent explanations: ' +
    'messaging apps and social networks remove EXIF; screenshots; privacy tools used to protect a source.',
  CAMERA_UNLIKE_DELIVERY:
    `The camera model appears in no other image of a delivery whose other images (at least ${DELIVERY_MIN_OTHERS}) come from at ` +
    `most ${DELIVERY_MAX_MODELS} models; or, within a delivery, the other images of this model (at least ${SERIAL_MIN_OTHERS}) all carry one body ` +
    'serial and this one carries another. An image from elsewhere may have been added. Innocent explanations: ' +
    'a source with a second camera or phone, a borrowed body, pictures forwarded by colleagues.',
  THUMBNAIL_MISMATCH:
    `The PDQ hash of the thumbnail embedded in EXIF (IFD1) is more than the threshold (default ${DEFAULT_THUMBNAIL_DISTANCE} of 256 bits) ` +
    "from the PDQ hash of the main image, or, when the model's thumbnails routinely sit far from their images " +
    "(letterboxing), more than that model's median plus half the threshold. The thumbnail may show another " +
    'picture, or the main image was changed without regenerating it. Small local edits do not move PDQ this ' +
    'far, so silence proves nothing. Innocent explanations: editing that rotates or crops only the main image.',
  QUANTISATION_UNLIKE_CAMERA:
    'The JPEG quantisation tables (by digest) are none of those the same camera model uses in its other images ' +
    `(at least ${MIN_MODEL_OTHERS}, with on average at least ${QUANT_IMAGES_PER_TABLE} images per table set, so phones that choose tables per image are ` +
    "not judged). Re-saving a JPEG writes the saving program's tables. Innocent explanations: a quality " +
    'setting used rarely, a firmware update, re-compression by a messaging app.',
  NAME_SEQUENCE_VS_TIME:
    'Ordered by the counter in their file names (per camera body and name pattern, allowing for the 9999 to ' +
    "0001 wrap), the image's DateTimeOriginal is earlier than the one before it or later than the one after " +
    'it, while those two are in order themselves. Renaming or changed timestamps produce this. Innocent ' +
    'explanations: a clock corrected mid-series, two cards or a counter reset, renaming by a download tool.',
  TIMESTAMP_OUT_OF_RANGE:
    'DateTimeOriginal, CreateDate or ModifyDate is more than a day after the analysis time (the day absorbs ' +
    `unknown time zones), or DateTimeOriginal lies more than ${RANGE_SLACK_DAYS} days before the first or after the last other ` +
    `image of the same camera body (which needs at least ${RANGE_MIN_OTHERS} other dated images). Innocent explanations: a camera ` +
    'clock never set or reset by a flat battery, a wrong year, a body used in several periods.',
  DIMENSIONS_UNLIKE_CAMERA:
    'The pixel size (w×h and h×w counted as the same) matches none of the other images of the same camera ' +
    `model (at least ${MIN_MODEL_OTHERS}); the evidence says whether the aspect ratio was seen. Cropping or resizing produces ` +
    'this. Innocent explanations: in-camera size or aspect settings used rarely, resizing for transmission.',
};
