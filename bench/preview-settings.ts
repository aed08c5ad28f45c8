// What the safe previews cost, before and after the tiny blurred preview (issue 14), and the
// plain thumbnail's WebP settings against their size:
//   node dist/bench/preview-settings.js LIST [ROUNDS]
// LIST holds one JPEG path a line (~50). Each file is decoded once as the analysis does
// (decodeForAnalysis, one libvips thread as in a batch); then every variant runs over all the
// rasters, round after round in turn (ROUNDS, default 3), so that load from other processes falls
// on every variant alike. CPU is process-wide (libvips threads included), per image, best round;
// then the plain thumbnail's PSNR at each WebP setting. Prints one JSON line.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import {
  decodeForAnalysis,
  decodeOneThreadPerImage,
  makePreviews,
  orient,
} from '../src/analysis/image/image-decode.adapter.js';
import type { Raster } from '../src/analysis/image/raster.js';

interface Input {
  raster: Raster;
  orientation: number | null;
}

type Variant = (x: Input) => Promise<number>;

const raw = (r: Raster) =>
  sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels as 3 } });
const fit = { width: 256, height: 256, fit: 'inside' as const, withoutEnlargement: true };

/** makePreviews before issue 14's tiny blurred preview: sigma-16 blur of the decoded 256 px WebP. */
const before: Variant = async ({ raster, orientation }) => {
  const plain = await orient(raw(raster), orientation)
    .resize(fit)
    .webp({ quality: 80, effort: 2 })
    .toBuffer();
  const blurred = await sharp(plain)
    .greyscale()
    .blur(16)
    .webp({ quality: 60, effort: 0 })
    .toBuffer();
  return plain.length + blurred.length;
};

const now: Variant = async ({ raster, orientation }) => {
  const { plain, blurred } = await makePreviews(raster, orientation, 256);
  return plain.length + blurred.length;
};

/** The plain 256 px thumbnail alone, at one WebP setting. */
const plainAt =
  (quality: number, effort: number): Variant =>
  async ({ raster, orientation }) =>
    (await orient(raw(raster), orientation).resize(fit).webp({ quality, effort }).toBuffer())
      .length;

const VARIANTS: Record<string, Variant> = {
  'previews before (256 px blurred, sigma 16 of the decoded thumbnail)': before,
  'previews now (makePreviews: 32 px blurred from the raster, plain at effort 0)': now,
  'plain only, q80 effort 0 (makePreviews)': plainAt(80, 0),
  'plain only, q80 effort 1': plainAt(80, 1),
  'plain only, q80 effort 2 (makePreviews before)': plainAt(80, 2),
  'plain only, q80 effort 4 (libwebp default)': plainAt(80, 4),
  'plain only, q75 effort 0': plainAt(75, 0),
  'plain only, q75 effort 2': plainAt(75, 2),
  'plain only, q70 effort 2': plainAt(70, 2),
};

/** Mean PSNR (dB, RGB) of the plain thumbnail at each setting against its lossless 256 px raster. */
async function psnrs(inputs: Input[]): Promise<Record<string, number>> {
  const settings: [number, number][] = [
    [80, 0],
    [80, 1],
    [80, 2],
    [80, 4],
    [75, 0],
    [75, 2],
    [70, 2],
  ];
  const sums: Record<string, number> = {};
  for (const { raster, orientation } of inputs) {
    const ref = await orient(raw(raster), orientation)
      .resize(fit)
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (const [quality, effort] of settings) {
      const webp = await sharp(ref.data, { raw: ref.info }).webp({ quality, effort }).toBuffer();
      const back = await sharp(webp).removeAlpha().raw().toBuffer();
      let se = 0;
      for (let i = 0; i < ref.data.length; i++) se += ((ref.data[i] ?? 0) - (back[i] ?? 0)) ** 2;
      const key = `q${quality} effort ${effort}`;
      sums[key] = (sums[key] ?? 0) + 10 * Math.log10((255 * 255) / (se / ref.data.length));
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / inputs.length]));
}

async function main(): Promise<void> {
  const files = (await readFile(process.argv[2] ?? '', 'utf8')).split('\n').filter((l) => l !== '');
  const rounds = Number(process.argv[3] ?? '3');
  await decodeOneThreadPerImage();
  const inputs: Input[] = [];
  // Orientation 1 for all: the generated corpus is upright, and turning is not what is compared.
  for (const f of files)
    inputs.push({ raster: (await decodeForAnalysis(await readFile(f))).raster, orientation: 1 });
  const best: Record<string, { cpuMs: number; wallMs: number; bytes: number }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, variant] of Object.entries(VARIANTS)) {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      let bytes = 0;
      for (const x of inputs) bytes += await variant(x);
      const wallMs = (performance.now() - t0) / inputs.length;
      const d = process.cpuUsage(cpu);
      const cpuMs = (d.user + d.system) / 1000 / inputs.length;
      const b = best[name];
      if (b === undefined || cpuMs < b.cpuMs)
        best[name] = { cpuMs, wallMs, bytes: bytes / inputs.length };
    }
  }
  console.log(
    JSON.stringify({ images: inputs.length, rounds, perImage: best, psnr: await psnrs(inputs) }),
  );
}

await main();
