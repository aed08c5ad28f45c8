// Every number the indicators compare against, in one place, each with its reason. These are
// starting points for an expert, chosen so that a consistent collection raises nothing; they are
// not calibrated error rates.

/** Fewest other images of the same camera model before the model's habits are taken as known. */
export const MIN_MODEL_OTHERS = 3;

/**
 * A Software string on at least this share of the model's other images is what the camera (or the
 * photographer's routine workflow) writes, not a sign about this image.
 */
export const FIRMWARE_SHARE = 0.8;

/** ModifyDate ≠ DateTimeOriginal is notable only if at least this share of the model's others have them equal. */
export const MODIFY_EQUAL_SHARE = 0.9;

/** EXIF_MISSING: a name-pattern or folder group needs this many other images… */
export const EXIF_PEER_MIN = 5;
/** …of which at least this share carry Make, Model and DateTimeOriginal. */
export const EXIF_PEER_SHARE = 0.8;

/** CAMERA_UNLIKE_DELIVERY: the delivery needs this many other images with a camera model… */
export const DELIVERY_MIN_OTHERS = 5;
/** …from at most this many models, i.e. one photographer's cards rather than a crowd-sourced batch. */
export const DELIVERY_MAX_MODELS = 3;
/** Serial check: fewest other images of the model in the delivery, all agreeing on one serial. */
export const SERIAL_MIN_OTHERS = 3;

/**
 * QUANTISATION_UNLIKE_CAMERA applies only when the model's other images use few tables: on average
 * at least this many images per distinct table. Bodies with a few quality settings pass; phones that
 * choose tables per image (so every digest is new) are left alone.
 */
export const QUANT_IMAGES_PER_TABLE = 4;

/**
 * Default PDQ bit distance above which thumbnail and main image are said to differ. Meta's PDQ
 * guidance calls ≤ 31 the same picture; the EXIF thumbnail is a ~160×120, heavily compressed,
 * sometimes letterboxed copy, so we leave a margin above 31. Unrelated pictures sit near 128 bits
 * (256 coin flips, standard deviation 8), so 40 still catches every swapped thumbnail.
 */
export const DEFAULT_THUMBNAIL_DISTANCE = 40;

/**
 * When a model's thumbnails routinely sit far from the main image (letterboxing), the bar is raised to
 * the model's median plus half the threshold, so that only this image being unusual counts.
 */
export const THUMBNAIL_BASELINE_MARGIN = 0.5;

/**
 * Literal EXIF times carry no zone (OffsetTimeOriginal is often absent); local clocks run up to 14 h
 * ahead of UTC. A full day of slack means "in the future" is never an artefact of the zone.
 */
export const FUTURE_SLACK_MS = 86_400_000;

/** TIMESTAMP_OUT_OF_RANGE against the camera's own range: fewest other dated images of the body… */
export const RANGE_MIN_OTHERS = 5;
/** …and how many days beyond its first or last other image an image must lie. */
export const RANGE_SLACK_DAYS = 30;
