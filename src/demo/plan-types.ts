import type { CameraProfile } from './camera-profiles.js';

/** Location written to the GPS IFD. Decimal degrees here; the renderer writes DMS rationals. */
export interface PlannedGps {
  /** Signed decimal degrees, north positive, six decimals. */
  latitude: number;
  /** Signed decimal degrees, east positive, six decimals. */
  longitude: number;
  /** Metres above sea level, one decimal. */
  altitudeM: number;
  /** EXIF 0x001D GPSDateStamp, 'YYYY:MM:DD', in UTC and true time (the receiver's clock). */
  dateStamp: string;
  /** EXIF 0x0007 GPSTimeStamp as 'HH:MM:SS', UTC, true time. */
  timeStamp: string;
}

/**
 * EXIF values exactly as written, as EXIF strings ('YYYY:MM:DD HH:MM:SS', rationals as 'n/d').
 * Times are the camera's clock: local time, including the camera's skew.
 */
export interface PlannedExif {
  make: string;
  model: string;
  software: string;
  bodySerialNumber: string;
  /** IFD0 0x0132 DateTime; equal to DateTimeOriginal for an unedited camera file. */
  dateTime: string;
  /** Exif IFD 0x9003. */
  dateTimeOriginal: string;
  /** Exif IFD 0x9004 (ExifTool calls it CreateDate). */
  dateTimeDigitized: string;
  /** Exif IFD 0x9010 / 0x9011 / 0x9012 (EXIF 2.31), '+03:00'. */
  offsetTime: string;
  offsetTimeOriginal: string;
  offsetTimeDigitized: string;
  /** Exif IFD 0x9291 / 0x9292, hundredths of a second, two digits. */
  subSecTimeOriginal: string;
  subSecTimeDigitized: string;
  /** IFD0 0x0112: 1 normal, 3 upside down, 6 / 8 camera held upright. Pixels stay landscape. */
  orientation: 1 | 3 | 6 | 8;
  /** Exif IFD 0x829A, e.g. '1/250'. */
  exposureTime: string;
  /** Exif IFD 0x829D, e.g. '56/10'. */
  fNumber: string;
  /** Exif IFD 0x8827 (ISOSpeedRatings / PhotographicSensitivity). */
  iso: string;
  /** Exif IFD 0x920A, e.g. '350/10'. */
  focalLength: string;
  gps?: PlannedGps;
}

export interface PlannedPhoto {
  /** Position in the plan; `duplicateOf` refers to these. */
  index: number;
  /** POSIX path under the collection folder: 'camera-a/2013-05-14/DSC_0137.JPG'. */
  relativePath: string;
  camera: CameraProfile;
  exif: PlannedExif;
  /** Stored pixel size (sensor orientation, landscape). */
  width: number;
  height: number;
  /** JPEG quality, 1–100. */
  quality: number;
  /** 16 hex characters; with `sceneVariant` it fixes every pixel. */
  sceneSeed: string;
  /** 0 for a new scene; 1, 2, … for the following frames of a burst (same scene, panned). */
  sceneVariant: number;
  /** Index of an earlier photo whose bytes this file repeats exactly. */
  duplicateOf?: number;
  /** File modification time, milliseconds since the Unix epoch. */
  mtimeMs: number;
}

export interface PlanOptions {
  /** Number of files, duplicates included. */
  count: number;
  /** Any string; the same seed and options give the same plan, on every machine. */
  seed: string;
  /** Defaults to DEFAULT_CAMERAS. */
  cameras?: readonly CameraProfile[];
  /** Share of files that are exact copies of an earlier file, 0–0.5. Default 0.03. */
  duplicateRate?: number;
  /** First shooting day, 'YYYY-MM-DD', camera-local. Default '2013-05-14'. */
  startDate?: string;
  /**
   * Range of megapixels; each camera shoots at one size drawn from it, at its native aspect
   * ratio. Omitted: demo size, 1024 pixels on the long edge.
   */
  megapixels?: [number, number];
}
