import type { JsonValue } from '../../core/index.js';
import type { MetadataExtractionDetails } from '../../ledger/index.js';
import { parseJpegStructure } from '../jpeg/jpeg-structure.js';
import { readC2pa } from '../c2pa/index.js';
import { readExifFields, type ExifFields } from '../metadata/index.js';
import { pdqFromRgb, type PdqResult } from '../pdq/index.js';
import {
  decodeForAnalysis,
  decodeSmall,
  DEFAULT_MAX_PIXELS,
  ImageError,
  writePreviews,
} from './image-decode.adapter.js';
import { ALIGN_GREY_SIZE, greyThumbnail, halveWhileAbove } from './raster.js';
import { cropRegionHashes } from './region-hashes.js';

/** Bumped whenever what an analysis records changes; recorded in every result. */
export const ANALYZER = 'custody-image/3';

// Which media types it takes: isAnalysable in jobs/analyze-image.job.ts.

export interface ImageAnalysisDeps {
  readObject(sha256: string): Promise<Buffer>;
  previewPaths(sha256: string, size: number): { plain: string; blurred: string };
  /** Decoded-pixels limit per image (config `CUSTODY_IMAGE_MAX_PIXELS`); 100 MP by default. */
  maxPixels?: number;
}

/**
 * Everything the imaging expert's bench records for one object, from one read of its bytes and
 * one (shrink-on-load) decode: EXIF/XMP fields, JPEG structure, PDQ with its dihedral variants,
 * crop-region hashes, the embedded thumbnail's PDQ, and the 256 px previews. The result is
 * canonical-JSON-safe (integers and strings only) and goes into the ledger whole.
 */
export async function analyzeImage(
  deps: ImageAnalysisDeps,
  sha256: string,
  mediaType: string,
): Promise<MetadataExtractionDetails> {
  const bytes = await deps.readObject(sha256);
  const maxPixels = deps.maxPixels ?? DEFAULT_MAX_PIXELS;
  const warnings: string[] = [];
  /** Stable codes of what was not done (IMAGE_PIXEL_LIMIT), beside the free-text warnings. */
  const codes: string[] = [];
  const exif = await readExifFields(bytes);
  warnings.push(...exif.warnings);
  const jpeg = mediaType === 'image/jpeg' ? parseJpegStructure(bytes) : null;
  if (jpeg !== null) warnings.push(...jpeg.warnings.map((w) => `jpeg: ${w}`));

  let pdq: PdqResult | null = null;
  let crops: { region: string; hash: string }[] = [];
  let decoded: { width: number; height: number } | null = null;
  let grey: { size: number; data: string } | null = null;
  try {
    const d = await decodeForAnalysis(bytes, undefined, maxPixels);
    decoded = { width: d.fullWidth, height: d.fullHeight };
    pdq = pdqFromRgb(d.raster.data, d.raster.width, d.raster.height, d.raster.channels);
    const small = halveWhileAbove(d.raster, 128);
    crops = cropRegionHashes(small);
    const g = greyThumbnail(small, ALIGN_GREY_SIZE);
    grey = { size: ALIGN_GREY_SIZE, data: Buffer.from(g).toString('base64') };
    await writePreviews(d.raster, exif.fields.orientation, 256, deps.previewPaths(sha256, 256));
  } catch (e) {
    if (e instanceof ImageError) {
      // Too many pixels: not decoded (no PDQ, crops or previews), but its size and metadata stand.
      codes.push(e.code);
      warnings.push(`decode: ${e.code}: ${e.message}`);
      decoded = { width: Number(e.details.width), height: Number(e.details.height) };
    } else {
      warnings.push(
        `decode: the image could not be decoded (${e instanceof Error ? e.message : String(e)})`,
      );
    }
  }
  const thumbnailPdq = await embeddedThumbnailPdq(bytes, exif.fields, warnings, codes, maxPixels);
  const c2pa = await readC2pa(bytes, mediaType);
  warnings.push(...c2pa.warnings.map((w) => `c2pa: ${w}`));

  return {
    analyzer: ANALYZER,
    media_type: mediaType,
    exif: exifDetails(exif.fields),
    jpeg:
      jpeg === null
        ? null
        : {
            frame:
              jpeg.frame === null
                ? null
                : {
                    type: jpeg.frame.type,
                    width: jpeg.frame.width,
                    height: jpeg.frame.height,
                    components: jpeg.frame.components,
                  },
            markers: jpeg.markers.map((m) => m.marker),
            quant_digest: jpeg.quantDigest,
            quant_tables: jpeg.quantTables.map((t) => ({ id: t.id, values: t.values })),
            huffman_tables: jpeg.huffmanTables.map((t) => `${t.class}${t.id}:${t.digest}`),
            estimated_quality: jpeg.estimatedQuality?.quality ?? null,
          },
    dimensions: decoded,
    pdq:
      pdq === null ? null : { hash: pdq.hash, quality: pdq.quality, dihedral: { ...pdq.dihedral } },
    crops,
    // Since custody-image/3: the frame as a small square greyscale raster, for crop alignment
    // (analysis/similarity/crop-align). Absent from earlier analyses, which match as before.
    ...(grey === null ? {} : { align_grey: grey }),
    thumbnail:
      exif.fields.thumbnail === null
        ? null
        : {
            offset: exif.fields.thumbnail.offset,
            length: exif.fields.thumbnail.length,
            pdq: thumbnailPdq,
          },
    c2pa: {
      state: c2pa.state,
      codes: c2pa.codes,
      active_manifest:
        c2pa.activeManifest === null
          ? null
          : {
              label: c2pa.activeManifest.label,
              claim_generator: c2pa.activeManifest.claimGenerator,
              title: c2pa.activeManifest.title,
              signature_issuer: c2pa.activeManifest.signatureIssuer,
              signed_at: c2pa.activeManifest.signedAt,
              ingredients: c2pa.activeManifest.ingredients,
            },
    },
    pixel_limit: maxPixels,
    codes: [...new Set(codes)],
    warnings: warnings.slice(0, 100),
  };
}

async function embeddedThumbnailPdq(
  bytes: Buffer,
  fields: ExifFields,
  warnings: string[],
  codes: string[],
  maxPixels: number,
): Promise<string | null> {
  const t = fields.thumbnail;
  if (t === null) return null;
  try {
    const r = await decodeSmall(bytes.subarray(t.offset, t.offset + t.length), maxPixels);
    return pdqFromRgb(r.data, r.width, r.height, r.channels).hash;
  } catch (e) {
    if (e instanceof ImageError) codes.push(e.code);
    warnings.push(
      `thumbnail: the embedded EXIF thumbnail could not be decoded (${e instanceof Error ? e.message : String(e)})`,
    );
    return null;
  }
}

function exifDetails(f: ExifFields): { [k: string]: JsonValue } {
  return {
    make: f.make,
    model: f.model,
    body_serial_number: f.bodySerialNumber,
    lens_make: f.lensMake,
    lens_model: f.lensModel,
    date_time_original: f.dateTimeOriginal,
    create_date: f.createDate,
    modify_date: f.modifyDate,
    sub_sec_time: f.subSecTime,
    sub_sec_time_original: f.subSecTimeOriginal,
    sub_sec_time_digitized: f.subSecTimeDigitized,
    offset_time: f.offsetTime,
    offset_time_original: f.offsetTimeOriginal,
    offset_time_digitized: f.offsetTimeDigitized,
    software: f.software,
    orientation: f.orientation,
    gps: f.gps === null ? null : (JSON.parse(JSON.stringify(f.gps)) as JsonValue),
    exif_image_width: f.exifImageWidth,
    exif_image_height: f.exifImageHeight,
    image_width: f.imageWidth,
    image_height: f.imageHeight,
    xmp_creator_tool: f.xmpCreatorTool,
    xmp_history_software: f.xmpHistorySoftware,
    iptc_keywords: f.iptcKeywords,
    icc_profile_description: f.iccProfileDescription,
  };
}
