// The C2PA pre-check in front of the reader's worker (issue 14, speed): a JPEG with no trace of
// C2PA is answered without a call to the worker, with exactly the reader's own answer for it; a
// file with a JUMBF box, an APP11 segment or a provenance reference anywhere (also after the image
// data, or appended after EOI) goes to the worker. Calls are counted on an injected port.
import { describe, expect, it } from 'vitest';
import { C2paReaderAdapter } from './c2pa.adapter.js';
import type { C2paWorkerOutcome, C2paWorkerPort } from './c2pa-worker.adapter.js';

/** A worker that answers as c2pa-rs does for a file without a manifest, and counts its calls. */
class CountingWorker implements C2paWorkerPort {
  calls = 0;
  ask(): Promise<C2paWorkerOutcome> {
    this.calls += 1;
    return Promise.resolve({
      kind: 'error',
      message: 'C2pa(JumbfNotFound)',
      trap: false,
      fetches: [],
    });
  }
  recycle(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);
const APP0 = Buffer.from([
  0xff,
  0xe0,
  0x00,
  0x10,
  ...Buffer.from('JFIF\0'),
  1,
  1,
  0,
  0,
  1,
  0,
  1,
  0,
  0,
]);
/** Entropy-coded data stand-in: 200 KB without any needle. */
const SCAN = Buffer.concat([Buffer.from([0xff, 0xda, 0, 2]), Buffer.alloc(200_000, 0x5a)]);
const plain = (): Buffer => Buffer.concat([SOI, APP0, SCAN, EOI]);

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
/** A bare JUMBF superbox (ISO/IEC 19566-5 §5.2) with a C2PA description box, no APP11 around it. */
function jumbfBox(): Buffer {
  const uuid = Buffer.from('6332706100110010800000aa00389b71', 'hex');
  const jumd = Buffer.concat([
    u32(8 + 16 + 1 + 5),
    Buffer.from('jumd'),
    uuid,
    Buffer.from([3]),
    Buffer.from('c2pa\0'),
  ]);
  return Buffer.concat([u32(8 + jumd.length), Buffer.from('jumb'), jumd]);
}

async function callsFor(
  bytes: Buffer,
  mediaType = 'image/jpeg',
): Promise<{ calls: number; result: unknown }> {
  const worker = new CountingWorker();
  const reader = new C2paReaderAdapter({ worker });
  const result = await reader.readC2pa(bytes, mediaType);
  await reader.close();
  return { calls: worker.calls, result };
}

describe('C2PA pre-check before the worker', () => {
  it('a plain JPEG is answered without a worker call, exactly as the reader answers it', async () => {
    const { calls, result } = await callsFor(plain());
    expect(calls).toBe(0);
    // what the worker's answer for it gives (the skipped path must not change the analysis)
    const asked = await callsFor(Buffer.concat([plain(), Buffer.from('jumb')]));
    expect(asked.calls).toBe(1);
    expect(result).toEqual(asked.result);
    expect(result).toEqual({ state: 'none', codes: [], activeManifest: null, warnings: [] });
  });

  it('a JUMBF box after the image data, appended after EOI, goes to the worker', async () => {
    const file = Buffer.concat([plain(), jumbfBox()]);
    expect(file.indexOf(Buffer.from('jumb'))).toBeGreaterThan(200_000);
    expect((await callsFor(file)).calls).toBe(1);
  });

  it('a JUMBF box inside the scan data (before EOI, after 200 KB) goes to the worker', async () => {
    const file = Buffer.concat([SOI, APP0, SCAN, jumbfBox(), Buffer.alloc(1000, 0x5a), EOI]);
    expect((await callsFor(file)).calls).toBe(1);
  });

  it('an APP11 segment after 200 KB of other data goes to the worker', async () => {
    const app11 = Buffer.from([0xff, 0xeb, 0x00, 0x04, 0x4a, 0x50]);
    const file = Buffer.concat([
      SOI,
      APP0,
      Buffer.from([0xff, 0xed, 0, 2]),
      Buffer.alloc(200_000),
      app11,
      SCAN,
      EOI,
    ]);
    expect((await callsFor(file)).calls).toBe(1);
  });

  it('an XMP provenance reference (dcterms:provenance) goes to the worker', async () => {
    const xmp = Buffer.from('<rdf:Description dcterms:provenance="https://example.org/m.c2pa"/>');
    expect((await callsFor(Buffer.concat([SOI, APP0, xmp, SCAN, EOI]))).calls).toBe(1);
  });

  it('a C2PA manifest label (urn:c2pa:) alone goes to the worker', async () => {
    const label = Buffer.from('urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6');
    expect((await callsFor(Buffer.concat([plain(), label]))).calls).toBe(1);
  });

  it('PNG, WebP, GIF and TIFF without a trace of C2PA are answered without a worker call', async () => {
    // bytes 0xFF 0xEB inside compressed data mean nothing outside JPEG: they do not send a PNG
    const noise = Buffer.concat([
      Buffer.alloc(100_000, 0x33),
      Buffer.from([0xff, 0xeb]),
      Buffer.alloc(100, 0x33),
    ]);
    for (const type of ['image/png', 'image/webp', 'image/gif', 'image/tiff']) {
      const { calls, result } = await callsFor(noise, type);
      expect([type, calls]).toEqual([type, 0]);
      expect(result).toEqual({ state: 'none', codes: [], activeManifest: null, warnings: [] });
    }
  });

  it("each format's own C2PA carriage, late in the file, goes to the worker", async () => {
    const late = (tail: string): Buffer =>
      Buffer.concat([Buffer.alloc(200_000, 0x33), Buffer.from(tail, 'latin1')]);
    const cases: [string, Buffer][] = [
      ['image/png', late('\0\0\x10\0caBX')], // the PNG chunk
      ['image/webp', late('C2PA\0\x10\0\0')], // the RIFF chunk
      ['image/gif', late('\x21\xff\x0bC2PA_GIF')], // the application extension
      ['image/tiff', Buffer.concat([Buffer.alloc(200_000, 0x33), jumbfBox()])], // tag 0xCD41's JUMBF
      ['image/png', Buffer.concat([Buffer.alloc(200_000, 0x33), jumbfBox()])],
      ['image/webp', late('dcterms:provenance="https://example.org/m.c2pa"')],
    ];
    for (const [type, bytes] of cases)
      expect([type, (await callsFor(bytes, type)).calls]).toEqual([type, 1]);
  });

  it('a type whose C2PA carriage the pre-check does not know always goes to the worker', async () => {
    expect((await callsFor(Buffer.alloc(1000, 0x33), 'image/heic')).calls).toBe(1);
    expect((await callsFor(Buffer.alloc(1000, 0x33), 'text/plain')).calls).toBe(1);
  });
});
