// The two peers of the analysis pipeline benchmark, each run in its own process so that its
// peak RSS is its own:
//   node dist/bench/analysis-baselines.js image-only LIST OUTDIR
//   node dist/bench/analysis-baselines.js conventional LIST OUTDIR
// LIST holds one JPEG path a line. Prints one JSON line: { images, seconds, peak_rss_bytes }.
// Both keep 2 images in flight, as the analysis worker does. sharp and exiftool-vendored are
// used directly here: these are stand-ins for other tools, not Custody code.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';

/** 2 as the analysis worker; BASELINE_IN_FLIGHT overrides it to compare other settings. */
const IN_FLIGHT = Number(process.env.BASELINE_IN_FLIGHT ?? '2');

/**
 * The least image work an analysis with previews can do: one shrink-on-load decode to 256 px,
 * a WebP thumbnail of it, and a 64×64 grey raster (what a perceptual hash starts from).
 */
async function imageOnly(path: string, out: string): Promise<void> {
  const { data, info } = await sharp(await readFile(path))
    .resize(256, 256, { fit: 'inside', fastShrinkOnLoad: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  await writeFile(out, await sharp(data, raw).webp({ quality: 80 }).toBuffer());
  await sharp(data, raw).resize(64, 64, { fit: 'fill' }).greyscale().raw().toBuffer();
}

/**
 * A photo-library server's way: ExifTool (batch mode, -stay_open) for metadata, then one full
 * sharp pipeline from the file per derivative. sharp's defaults stay on (auto-orientation,
 * shrink-on-load where a resize allows it), as such servers leave them.
 */
function conventional(exiftool: ExifTool): (path: string, out: string) => Promise<void> {
  return async (path, out) => {
    await exiftool.read(path);
    await sharp(path)
      .rotate()
      .resize(256, 256, { fit: 'inside' })
      .webp({ quality: 80 })
      .toFile(`${out}.thumb.webp`);
    await sharp(path)
      .rotate()
      .resize(1280, 1280, { fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(`${out}.preview.jpg`);
    await sharp(path)
      .rotate()
      .resize(256, 256, { fit: 'inside' })
      .greyscale()
      .blur(16)
      .webp({ quality: 60 })
      .toFile(`${out}.blur.webp`);
    await sharp(path).resize(64, 64, { fit: 'fill' }).greyscale().raw().toBuffer();
  };
}

async function runAll(
  files: string[],
  outDir: string,
  work: (path: string, out: string) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < files.length) {
        const i = next++;
        await work(files[i]!, join(outDir, `${i}.webp`));
      }
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main(): Promise<void> {
  const [mode, list, outDir] = process.argv.slice(2);
  if (list === undefined || outDir === undefined)
    throw new Error('usage: analysis-baselines.js image-only|conventional LIST OUTDIR');
  const files = (await readFile(list, 'utf8')).split('\n').filter((l) => l !== '');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  let seconds: number;
  if (mode === 'image-only') seconds = await runAll(files, outDir, imageOnly);
  else if (mode === 'conventional') {
    // The default shared instance would start ceil(cores / 4) = 1 process here; 2 as in the brief.
    const exiftool = new ExifTool({ maxProcs: IN_FLIGHT });
    try {
      seconds = await runAll(files, outDir, conventional(exiftool));
    } finally {
      await exiftool.end();
    }
  } else throw new Error(`unknown mode ${mode}`);
  await rm(outDir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      images: files.length,
      seconds,
      peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
    }),
  );
}

await main();
