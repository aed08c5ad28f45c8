import exifr from 'exifr';
import { parseJpegStructure } from '../jpeg/jpeg-structure.js';
import {
  emptyExifFields,
  EXIF_TAGS,
  fillFromTiffBlocks,
  IFD0_TAGS,
  IFD1_TAGS,
  type ExifFields,
  type RawTiffBlocks,
} from './exif-fields.js';
import { GPS_TAGS } from './gps-fields.js';
import { selectMetadataSegments } from './metadata-segments.js';
import { checkTiffStructure } from './tiff-structure.js';
import { clip, type RawBlock, type Warn } from './tiff-values.js';
import { readXmpFields } from './xmp-packet.js';

/**
 * Ingest-speed metadata: exifr over the metadata segments of a file already in memory.
 * EXIF, XMP, IPTC and ICC are hostile input. Nothing here throws for a bad file: every problem
 * becomes a warning string and the field stays null. See metadata-segments.ts for why exifr only
 * sees a rebuilt, bounded input, and xmp-packet.ts for why XMP is not read through exifr.
 */
export interface ExifReadResult {
  fields: ExifFields;
  warnings: string[];
}

export interface ReadExifOptions {
  /** Budget for the exifr call (default EXIFR_TIME_LIMIT_MS); see runExifr for what it can and cannot stop. */
  timeLimitMs?: number;
}

export const EXIFR_TIME_LIMIT_MS = 2_000;
/** A hostile file could otherwise produce one warning per IFD entry or per History event. */
export const MAX_WARNINGS = 100;
const MAX_KEYWORDS = 1_000;

// One constant object: exifr caches its parsed Options by identity (Options.useCached).
// `tiff` is deliberately left out: `tiff: true` would switch on every IFD, interop included.
export const EXIFR_OPTIONS = {
  ifd0: { pick: Object.values(IFD0_TAGS) },
  exif: { pick: Object.values(EXIF_TAGS) },
  gps: { pick: Object.values(GPS_TAGS) },
  ifd1: { pick: Object.values(IFD1_TAGS) },
  interop: false,
  makerNote: false,
  userComment: false,
  jfif: false,
  xmp: false,
  iptc: true,
  icc: { multiSegment: true },
  translateKeys: false,
  translateValues: false,
  reviveValues: false, // dates stay the literal EXIF strings, never a Date in the machine's zone
  sanitize: true,
  mergeOutput: false, // keep IFD0 and IFD1 apart (the thumbnail's tags would overwrite the image's)
  silentErrors: true,
};

/**
 * @example
 *   const { fields, warnings } = await readExifFields(await readFile('IMG_0001.JPG'));
 *   fields.dateTimeOriginal // '2008:10:22 16:28:39'
 *   fields.gps?.latitude    // '43.4644550'
 */
export async function readExifFields(
  bytes: Buffer,
  options: ReadExifOptions = {},
): Promise<ExifReadResult> {
  const warnings: string[] = [];
  const warn: Warn = (message) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
    else if (warnings.length === MAX_WARNINGS)
      warnings.push(`more than ${MAX_WARNINGS} warnings; the rest were dropped`);
  };
  const fields = emptyExifFields();
  const structure = parseJpegStructure(bytes);
  structure.warnings.forEach((w) => warn(`JPEG: ${w}`));
  fields.imageWidth = structure.frame?.width ?? null;
  fields.imageHeight = structure.frame?.height ?? null;

  const isJpeg = structure.markers.length > 0;
  let exifrInput: Uint8Array;
  let tiffStart: number | null = null;
  let iptcUtf8 = false;
  if (isJpeg) {
    const segments = selectMetadataSegments(bytes, structure.markers);
    segments.warnings.forEach(warn);
    exifrInput = segments.exifrInput;
    tiffStart = segments.tiffStart;
    iptcUtf8 = segments.iptcUtf8;
    if (segments.tiff !== null) checkTiffStructure(segments.tiff).forEach(warn);
    if (segments.xmpPacket !== null) {
      const xmp = readXmpFields(segments.xmpPacket);
      xmp.warnings.forEach(warn);
      fields.xmpCreatorTool = xmp.creatorTool;
      fields.xmpHistorySoftware = xmp.historySoftware;
    }
  } else {
    // TIFF, HEIC, PNG...: exifr reads the whole file; the size bound of the JPEG path does not apply.
    exifrInput = ownArrayBuffer(bytes);
  }

  const raw = await runExifr(exifrInput, options.timeLimitMs ?? EXIFR_TIME_LIMIT_MS, warn);
  if (raw !== null) {
    fillFromTiffBlocks(fields, tiffBlocks(raw), tiffStart, bytes.length, warn);
    fields.iptcKeywords = iptcKeywords(block(raw.iptc), iptcUtf8, warn);
    fields.iccProfileDescription = iccDescription(block(raw.icc), warn);
  }
  return { fields, warnings };
}

/**
 * exifr with try/catch and a time limit. With an in-memory input exifr does no I/O, so the
 * whole parse runs synchronously inside its promise chain: the timer can only catch a promise
 * that never settles, not a busy loop (no JavaScript can pre-empt the thread it runs on). The
 * real defence is the bounded input; a parse that still overruns is reported as a warning.
 */
async function runExifr(
  input: Uint8Array,
  limitMs: number,
  warn: Warn,
): Promise<Record<string, unknown> | null> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms`)), limitMs);
  });
  // The Exifr class rather than exifr.parse(): parse() drops the errors of the Exif, GPS and
  // IFD1 blocks (each segment parser keeps its own `errors`), and we want them as warnings.
  const reader = new exifr.Exifr(EXIFR_OPTIONS);
  const parse = async (): Promise<unknown> => {
    await reader.read(input);
    return (await reader.parse()) as unknown;
  };
  const parsing = parse();
  parsing.catch(() => undefined); // if the limit wins, a later rejection is expected, not unhandled
  try {
    const out = await Promise.race([parsing, limit]);
    for (const e of exifrErrors(out, reader)) warn(`exifr: ${clip(e, 200)}`);
    if (out === undefined) return null;
    if (!isRecord(out)) {
      warn('exifr: unexpected output');
      return null;
    }
    return out;
  } catch (e) {
    warn(`exifr: ${clip(errorText(e), 200)}`);
    return null;
  } finally {
    clearTimeout(timer);
    const ms = performance.now() - started;
    if (ms > limitMs) warn(`exifr: took ${Math.round(ms)} ms, over the ${limitMs} ms limit`);
  }
}

/** output.errors (file-level) plus each segment parser's own errors (block-level). */
function exifrErrors(out: unknown, reader: unknown): string[] {
  const found: string[] = [];
  const add = (list: unknown): void => {
    if (Array.isArray(list)) for (const e of list as unknown[]) found.push(errorText(e));
  };
  if (isRecord(out)) add(out.errors);
  const parsers = isRecord(reader) ? reader.parsers : undefined;
  if (isRecord(parsers)) for (const p of Object.values(parsers)) if (isRecord(p)) add(p.errors);
  return found;
}

function tiffBlocks(raw: Record<string, unknown>): RawTiffBlocks {
  return {
    ifd0: block(raw.ifd0),
    exif: block(raw.exif),
    gps: block(raw.gps),
    ifd1: block(raw.ifd1),
  };
}

/** IPTC IIM 2:25. exifr decodes IIM text as Latin-1; 1:90 = ESC % G says it is UTF-8. */
function iptcKeywords(iptc: RawBlock | undefined, utf8: boolean, warn: Warn): string[] | null {
  const v = iptc?.['25'];
  if (v === undefined) return null;
  const list = Array.isArray(v) ? (v as unknown[]) : [v];
  const out: string[] = [];
  for (const k of list.slice(0, MAX_KEYWORDS)) {
    if (typeof k !== 'string') continue;
    const text = utf8 ? Buffer.from(k, 'latin1').toString('utf8') : k;
    if (text !== '') out.push(text);
  }
  if (list.length > MAX_KEYWORDS)
    warn(`IPTC: ${list.length} keywords; only the first ${MAX_KEYWORDS} were kept`);
  return out.length === 0 ? null : out;
}

/** ICC 'desc': textDescriptionType (v2) or multiLocalizedUnicodeType (v4, first record, as ExifTool). */
function iccDescription(icc: RawBlock | undefined, warn: Warn): string | null {
  const v = icc?.desc;
  if (v === undefined) return null;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const first: unknown = v[0];
    if (isRecord(first) && typeof first.text === 'string') return first.text;
  }
  warn('ICC: ProfileDescription has an unexpected form');
  return null;
}

/** The bytes in an ArrayBuffer of their own (small Buffers share Node's pool; see metadata-segments.ts). */
function ownArrayBuffer(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  return new Uint8Array(bytes);
}

function block(v: unknown): RawBlock | undefined {
  return isRecord(v) ? v : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
