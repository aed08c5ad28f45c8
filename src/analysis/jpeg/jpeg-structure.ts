import { sha256, toHex } from '../../core/index.js';

/**
 * The structure of a JPEG file as an imaging expert reads it: the marker sequence, the
 * quantisation tables (ITU-T T.81 §B.2.4.1, DQT), the Huffman tables (§B.2.4.2, DHT), the frame
 * header (§B.2.2, SOFn) and where the entropy-coded data begins. Pure; parses untrusted bytes:
 * every length is bounds-checked and the walk stops at the first inconsistency with a warning.
 */
export interface JpegStructure {
  markers: { marker: string; offset: number; length: number }[];
  quantTables: { id: number; precision: 8 | 16; values: number[] }[];
  huffmanTables: { class: 'DC' | 'AC'; id: number; digest: string }[];
  frame: { type: string; precision: number; width: number; height: number; components: number } | null;
  /** SHA-256 over the DQT payloads in file order: equal for images that share tables. */
  quantDigest: string | null;
  /** Estimated IJG quality of the luminance table (1–100), with the residual of the fit. */
  estimatedQuality: { quality: number; meanAbsError: number } | null;
  warnings: string[];
}

const MARKER_NAMES: Record<number, string> = {
  0xd8: 'SOI', 0xd9: 'EOI', 0xda: 'SOS', 0xdb: 'DQT', 0xc4: 'DHT', 0xdd: 'DRI', 0xfe: 'COM',
  0xc0: 'SOF0', 0xc1: 'SOF1', 0xc2: 'SOF2', 0xc3: 'SOF3', 0xc5: 'SOF5', 0xc6: 'SOF6', 0xc7: 'SOF7',
  0xc9: 'SOF9', 0xca: 'SOF10', 0xcb: 'SOF11', 0xcd: 'SOF13', 0xce: 'SOF14', 0xcf: 'SOF15',
};

/** Zig-zag order of the IJG standard luminance table (ITU-T T.81 Annex K.1, Table K.1). */
const STD_LUMINANCE_ZIGZAG = [
  16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37,
  29, 40, 58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87,
  95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
];

/**
 * @example
 *   parseJpegStructure(bytes).estimatedQuality // { quality: 90, meanAbsError: 0 }
 */
export function parseJpegStructure(buf: Uint8Array, maxMarkers = 10_000): JpegStructure {
  const out: JpegStructure = { markers: [], quantTables: [], huffmanTables: [], frame: null, quantDigest: null, estimatedQuality: null, warnings: [] };
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) {
    out.warnings.push('not a JPEG: no SOI marker');
    return out;
  }
  out.markers.push({ marker: 'SOI', offset: 0, length: 0 });
  const dqtPayloads: Uint8Array[] = [];
  let pos = 2;
  while (pos + 4 <= buf.length) {
    if (out.markers.length >= maxMarkers) {
      out.warnings.push(`more than ${maxMarkers} markers: stopped reading`);
      break;
    }
    if (buf[pos] !== 0xff) {
      out.warnings.push(`expected a marker at byte ${pos}, found 0x${(buf[pos] ?? 0).toString(16)}`);
      break;
    }
    let code = buf[pos + 1] ?? 0;
    while (code === 0xff && pos + 2 < buf.length) code = buf[++pos + 1] ?? 0; // fill bytes
    const name = markerName(code);
    if (code === 0xd9) {
      out.markers.push({ marker: name, offset: pos, length: 0 });
      break;
    }
    const length = ((buf[pos + 2] ?? 0) << 8) | (buf[pos + 3] ?? 0);
    if (length < 2 || pos + 2 + length > buf.length) {
      out.warnings.push(`${name} segment at byte ${pos} declares length ${length}, beyond the end of the file`);
      break;
    }
    out.markers.push({ marker: name, offset: pos, length });
    const payload = buf.subarray(pos + 4, pos + 2 + length);
    if (code === 0xdb) {
      dqtPayloads.push(payload);
      readQuantTables(payload, out);
    } else if (code === 0xc4) readHuffmanTables(payload, out);
    else if (name.startsWith('SOF') && payload.length >= 6) {
      out.frame = {
        type: name,
        precision: payload[0] ?? 0,
        height: ((payload[1] ?? 0) << 8) | (payload[2] ?? 0),
        width: ((payload[3] ?? 0) << 8) | (payload[4] ?? 0),
        components: payload[5] ?? 0,
      };
    }
    pos += 2 + length;
    if (code === 0xda) break; // entropy-coded data follows; the structure we need is read
  }
  if (dqtPayloads.length > 0) out.quantDigest = toHex(sha256(...dqtPayloads));
  const luma = out.quantTables.find((t) => t.id === 0);
  if (luma !== undefined) out.estimatedQuality = estimateQuality(luma.values);
  return out;
}

function markerName(code: number): string {
  if (code >= 0xe0 && code <= 0xef) return `APP${code - 0xe0}`;
  if (code >= 0xd0 && code <= 0xd7) return `RST${code - 0xd0}`;
  return MARKER_NAMES[code] ?? `0xFF${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

function readQuantTables(p: Uint8Array, out: JpegStructure): void {
  let i = 0;
  while (i < p.length) {
    const pq = (p[i] ?? 0) >> 4;
    const id = (p[i] ?? 0) & 0x0f;
    const size = pq === 0 ? 64 : 128;
    if (i + 1 + size > p.length) {
      out.warnings.push('truncated quantisation table');
      return;
    }
    const values: number[] = [];
    for (let k = 0; k < 64; k++) values.push(pq === 0 ? (p[i + 1 + k] ?? 0) : ((p[i + 1 + 2 * k] ?? 0) << 8) | (p[i + 2 + 2 * k] ?? 0));
    out.quantTables.push({ id, precision: pq === 0 ? 8 : 16, values });
    i += 1 + size;
  }
}

function readHuffmanTables(p: Uint8Array, out: JpegStructure): void {
  let i = 0;
  while (i + 17 <= p.length) {
    const tc = (p[i] ?? 0) >> 4;
    const id = (p[i] ?? 0) & 0x0f;
    let count = 0;
    for (let k = 1; k <= 16; k++) count += p[i + k] ?? 0;
    if (i + 17 + count > p.length) {
      out.warnings.push('truncated Huffman table');
      return;
    }
    out.huffmanTables.push({ class: tc === 0 ? 'DC' : 'AC', id, digest: toHex(sha256(p.subarray(i, i + 17 + count))).slice(0, 16) });
    i += 17 + count;
  }
}

/**
 * Inverts the IJG quality scaling (libjpeg jcparam.c: scale = q < 50 ? 5000/q : 200 - 2q;
 * entry = clamp(floor((std * scale + 50) / 100), 1, 255)) by trying every quality 1–100.
 */
export function estimateQuality(lumaZigzag: readonly number[]): { quality: number; meanAbsError: number } {
  let best = { quality: 0, meanAbsError: Infinity };
  for (let q = 1; q <= 100; q++) {
    const scale = q < 50 ? Math.floor(5000 / q) : 200 - 2 * q;
    let err = 0;
    for (let k = 0; k < 64; k++) {
      const expected = Math.min(255, Math.max(1, Math.floor(((STD_LUMINANCE_ZIGZAG[k] ?? 0) * scale + 50) / 100)));
      err += Math.abs(expected - (lumaZigzag[k] ?? 0));
    }
    const mae = err / 64;
    if (mae < best.meanAbsError) best = { quality: q, meanAbsError: Math.round(mae * 1000) / 1000 };
  }
  return best;
}
