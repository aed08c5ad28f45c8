/**
 * A camera as the synthetic collection imagines it. Every value ends up in EXIF or in a file name;
 * nothing here is taken from a real photograph.
 */
export interface CameraProfile {
  /** Folder name for this camera's files, e.g. 'camera-a'. Lowercase, [a-z0-9-]. */
  id: string;
  /** EXIF 0x010F Make. */
  make: string;
  /** EXIF 0x0110 Model. */
  model: string;
  /** EXIF 0xA431 BodySerialNumber. */
  bodySerialNumber: string;
  /** EXIF 0x0131 Software: the firmware string cameras write. */
  software: string;
  /** File name = prefix + zero-padded counter + extension: 'DSC_' + '0137' + '.JPG'. */
  fileNamePrefix: string;
  fileNameDigits: number;
  /** First counter value; the counter wraps from 10^digits - 1 back to 1, as cameras do. */
  firstFileNumber: number;
  fileNameExtension: string;
  /** Sensor size in pixels (landscape); fixes the aspect ratio of every photo. */
  nativeWidth: number;
  nativeHeight: number;
  /** IFD0 0x011A/0x011B XResolution/YResolution, dots per inch, as the camera writes it. */
  resolutionDpi: number;
  /** JPEG quality passed to the encoder (1–100). */
  quality: number;
  /** EXIF 0x9011 OffsetTimeOriginal, '+HH:MM' or '-HH:MM'. */
  utcOffset: string;
  /** How far the camera clock is from true time, in seconds; shows against GPS time. */
  clockSkewSeconds: number;
  /** Share of this camera's photos that carry GPS, 0–1. */
  gpsShare: number;
  /** Zoom range in millimetres, for EXIF 0x920A FocalLength. */
  focalLengthMm: [number, number];
}

/**
 * Four cameras with four file-name conventions and two aspect ratios. Serial numbers are made
 * up. camera-a has a GPS unit and a clock 47 s fast; camera-b's clock is an hour behind; camera-d
 * was never moved off its home time zone. Real collections look like this, and the analysis
 * code must cope.
 */
export const DEFAULT_CAMERAS: readonly CameraProfile[] = [
  {
    id: 'camera-a',
    make: 'NIKON CORPORATION',
    model: 'NIKON D7100',
    bodySerialNumber: '3051672',
    software: 'Ver.1.02',
    fileNamePrefix: 'DSC_',
    fileNameDigits: 4,
    firstFileNumber: 1,
    fileNameExtension: '.JPG',
    nativeWidth: 6000,
    nativeHeight: 4000,
    resolutionDpi: 300,
    quality: 92,
    utcOffset: '+03:00',
    clockSkewSeconds: 47,
    gpsShare: 0.7,
    focalLengthMm: [18, 105],
  },
  {
    id: 'camera-b',
    make: 'Canon',
    model: 'Canon EOS 600D',
    bodySerialNumber: '082074012931',
    software: 'Firmware Version 1.0.2',
    fileNamePrefix: 'IMG_',
    fileNameDigits: 4,
    firstFileNumber: 1,
    fileNameExtension: '.JPG',
    nativeWidth: 5184,
    nativeHeight: 3456,
    resolutionDpi: 72,
    quality: 90,
    utcOffset: '+03:00',
    clockSkewSeconds: -3720,
    gpsShare: 0,
    focalLengthMm: [18, 55],
  },
  {
    id: 'camera-c',
    make: 'Panasonic',
    model: 'DMC-FZ200',
    bodySerialNumber: 'WD2CB004417',
    software: 'Ver.1.1',
    fileNamePrefix: 'P100',
    fileNameDigits: 4,
    firstFileNumber: 1,
    fileNameExtension: '.JPG',
    nativeWidth: 4000,
    nativeHeight: 3000,
    resolutionDpi: 180,
    quality: 89,
    utcOffset: '+03:00',
    clockSkewSeconds: 0,
    gpsShare: 0,
    focalLengthMm: [4.5, 108],
  },
  {
    id: 'camera-d',
    make: 'SONY',
    model: 'DSC-RX100',
    bodySerialNumber: '3318205',
    software: 'DSC-RX100 v1.00',
    fileNamePrefix: 'DSC',
    fileNameDigits: 5,
    firstFileNumber: 1,
    fileNameExtension: '.JPG',
    nativeWidth: 5472,
    nativeHeight: 3648,
    resolutionDpi: 72,
    quality: 91,
    utcOffset: '+02:00',
    clockSkewSeconds: 0,
    gpsShare: 0.3,
    focalLengthMm: [10.4, 37.1],
  },
];
