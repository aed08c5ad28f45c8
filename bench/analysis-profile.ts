// Where the time of one image's analysis goes, stage by stage, using the built modules:
//   node dist/bench/analysis-profile.js LIST
// LIST holds one JPEG path a line (~50). One image at a time, so each stage's wall time is its
// own; CPU time is process-wide (libvips threads and the C2PA worker thread included), which
// is what bounds throughput on 2 cores. Then the same files through a temporary archive:
// intake (hash, store with fsync, ledger, index), analyzeImage whole, and the commit of the
// analysis entries (ledger append + index). Prints one JSON line.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { initArchive, openArchive } from '../src/app.js';
import { readC2pa, closeC2paReader } from '../src/analysis/c2pa/index.js';
import { WasmC2paWorker } from '../src/analysis/c2pa/c2pa-worker.adapter.js';
import { analyzeImage } from '../src/analysis/image/image-analysis.service.js';
import {
  decodeForAnalysis,
  decodeSmall,
  orient,
  writePreviews,
} from '../src/analysis/image/image-decode.adapter.js';
import {
  ALIGN_GREY_SIZE,
  greyThumbnail,
  halveWhileAbove,
  type Raster,
} from '../src/analysis/image/raster.js';
import { cropRegionHashes } from '../src/analysis/image/region-hashes.js';
import { parseJpegStructure } from '../src/analysis/jpeg/jpeg-structure.js';
import { readExifFields } from '../src/analysis/metadata/index.js';
import { pdqFromRgb } from '../src/analysis/pdq/index.js';
import { loadConfig } from '../src/config/config.js';
import { IngestService } from '../src/ingest/ingest.service.js';
import type { EntryDraft } from '../src/ledger/entry-details.js';

type Totals = Record<string, { wallMs: number; cpuMs: number }>;

async function timed<T>(totals: Totals, stage: string, fn: () => Promise<T> | T): Promise<T> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const r = await fn();
  const wallMs = performance.now() - t0;
  const d = process.cpuUsage(cpu);
  const s = (totals[stage] ??= { wallMs: 0, cpuMs: 0 });
  s.wallMs += wallMs;
  s.cpuMs += (d.user + d.system) / 1000;
  return r;
}

/** The stages of analyzeImage, in its order, each timed on its own. */
async function stages(files: string[], previews: string, totals: Totals): Promise<void> {
  // The reader's worker asked about every file, as before the pre-check (issue 14), to compare.
  const worker = new WasmC2paWorker();
  try {
    if (files[0] !== undefined) await worker.ask(await readFile(files[0]), 'image/jpeg', 30_000);
    await stagesWith(files, previews, totals, worker);
  } finally {
    await worker.close();
  }
}

async function stagesWith(
  files: string[],
  previews: string,
  totals: Totals,
  worker: WasmC2paWorker,
): Promise<void> {
  for (const [i, path] of files.entries()) {
    const bytes = await timed(totals, 'read file', () => readFile(path));
    const exif = await timed(totals, 'exifr (metadata fields)', () => readExifFields(bytes));
    await timed(totals, 'JPEG structure', () => parseJpegStructure(bytes));
    const d = await timed(totals, 'decode (shrink-on-load)', () => decodeForAnalysis(bytes));
    await timed(totals, 'PDQ + 8 dihedral', () =>
      pdqFromRgb(d.raster.data, d.raster.width, d.raster.height, d.raster.channels),
    );
    const small = await timed(totals, 'crop signal (halve + 10 region PDQ)', () => {
      const half = halveWhileAbove(d.raster, 128);
      cropRegionHashes(half);
      return half;
    });
    await timed(totals, 'align grey (32×32)', () => greyThumbnail(small, ALIGN_GREY_SIZE));
    const paths = {
      plain: join(previews, `${i}.webp`),
      blurred: join(previews, `${i}.blurred.webp`),
    };
    await timed(totals, 'previews (256 px WebP, 32 px blurred)', () =>
      writePreviews(d.raster, exif.fields.orientation, 256, paths),
    );
    const t = exif.fields.thumbnail;
    if (t !== null) {
      await timed(totals, 'embedded thumbnail PDQ', async () => {
        const r = await decodeSmall(bytes.subarray(t.offset, t.offset + t.length));
        pdqFromRgb(r.data, r.width, r.height, r.channels);
      });
    }
    await timed(totals, 'C2PA (pre-check, then c2pa-rs WASM)', () => readC2pa(bytes, 'image/jpeg'));
    await timed(totals, 'alt: C2PA worker asked anyway', () =>
      worker.ask(bytes, 'image/jpeg', 30_000),
    );
    await alternatives(d.raster, exif.fields.orientation, totals);
  }
}

/**
 * Other ways to (nearly) the same outputs, timed on the same raster (not Custody code): the
 * previews as makePreviews made them before the tiny blurred preview (a sigma-16 blur of the
 * decoded 256 px WebP, at effort 0; issue 14), and the plain thumbnail at WebP effort 0 instead of
 * 2 (bench/preview-settings.ts compares more settings, with their sizes). (The crop signal on a
 * luma plane computed once, proposed here before, is what the analysis does since issue 14:
 * analysis/image/region-hashes.)
 */
async function alternatives(r: Raster, orientation: number | null, totals: Totals): Promise<void> {
  const raw = (x: Raster) =>
    sharp(x.data, { raw: { width: x.width, height: x.height, channels: x.channels as 3 } });
  const fit = { width: 256, height: 256, fit: 'inside' as const };
  await timed(totals, 'alt: previews before (blurred = sigma 16 at 256 px)', async () => {
    const thumb = await orient(raw(r), orientation)
      .resize(fit)
      .webp({ quality: 80, effort: 2 })
      .toBuffer();
    await sharp(thumb).greyscale().blur(16).webp({ quality: 60, effort: 0 }).toBuffer();
  });
  await timed(totals, 'alt: plain thumbnail alone, WebP effort 0', async () => {
    await orient(raw(r), orientation).resize(fit).webp({ quality: 80, effort: 0 }).toBuffer();
  });
}

/** Intake into a fresh archive, analyzeImage per object, then one commit of the entries. */
async function archiveStages(files: string[], work: string, totals: Totals): Promise<void> {
  const config = loadConfig(
    { ...process.env, CUSTODY_ARCHIVE: join(work, 'archive'), CUSTODY_ACTOR: 'bench' },
    {},
  );
  await initArchive(config);
  const archive = await openArchive(config, 'write', 'bench');
  try {
    const request = {
      source: 'BENCH',
      receivedBy: null,
      medium: null,
      note: null,
      manifestPath: null,
      deliveryId: null,
    };
    await timed(totals, 'intake: hash, store, ledger, index', () =>
      new IngestService(archive).run({ paths: files, ...request }),
    );
    const drafts: EntryDraft[] = [];
    const deps = {
      readObject: (sha: string) => readFile(archive.store.pathOf(sha)),
      previewPaths: (sha: string, size: number) => ({
        plain: join(work, `${sha}.${size}.webp`),
        blurred: join(work, `${sha}.${size}.b.webp`),
      }),
    };
    for (const path of files) {
      const sha = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
      const details = await timed(totals, 'analyzeImage whole (check)', () =>
        analyzeImage(deps, sha, 'image/jpeg'),
      );
      drafts.push({
        actor: 'bench',
        type: 'metadata extraction',
        items: [],
        objects: [sha],
        details,
      });
    }
    await timed(totals, 'commit analysis entries: ledger + index', () => archive.commit(drafts));
  } finally {
    await archive.close();
  }
}

async function main(): Promise<void> {
  const files = (await readFile(process.argv[2] ?? '', 'utf8')).split('\n').filter((l) => l !== '');
  const work = await mkdtemp(join(tmpdir(), 'custody-profile-'));
  const totals: Totals = {};
  try {
    await readC2pa(await readFile(files[0]!), 'image/jpeg'); // start the worker and load the WASM first
    await stages(files, work, totals);
    await archiveStages(files, work, totals);
  } finally {
    await closeC2paReader();
    await rm(work, { recursive: true, force: true });
  }
  const perImage = Object.entries(totals).map(([stage, t]) => ({
    stage,
    wallMs: t.wallMs / files.length,
    cpuMs: t.cpuMs / files.length,
  }));
  console.log(JSON.stringify({ images: files.length, perImage }));
}

await main();
