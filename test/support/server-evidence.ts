// A small delivery for the server's read and evidence tests: three generated photographs (two
// cameras, two dates) and a planted HTML page and SVG, ingested and analysed through the CLI.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { custodyInExpect, type TestArchive } from './archive-fixtures.js';
import { makeTempDir } from './tmp.js';

async function photo(seed: number, make: string, taken: string): Promise<Buffer> {
  const w = 96;
  const h = 64;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = (x * 255) / w;
      raw[i + 1] = ((y + seed * 7) * 255) / h;
      raw[i + 2] = (x + y * seed) % 256;
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .withExif({
      IFD0: { Make: make, Model: `${make} One`, DateTime: taken },
      IFD2: { DateTimeOriginal: taken },
    })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Three photographs (two cameras, two dates), a planted HTML page and SVG, ingested and analysed. */
export async function ingestEvidence(a: TestArchive): Promise<void> {
  const src = join(await makeTempDir('server-evidence-src'), 'delivery');
  await mkdir(src, { recursive: true });
  await writeFile(join(src, 'a.jpg'), await photo(1, 'Alpha', '2024:03:05 10:00:00'));
  await writeFile(join(src, 'b.jpg'), await photo(2, 'Alpha', '2024:03:06 11:00:00'));
  await writeFile(join(src, 'c.jpg'), await photo(3, 'Beta', '2024:04:01 09:30:00'));
  await writeFile(
    join(src, 'page.html'),
    '<html><body><script>fetch("/api/session")</script>evidence page</body></html>\n',
  );
  await writeFile(
    join(src, 'drawing.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="4" height="4"/></svg>\n',
  );
  await custodyInExpect(
    0,
    ['ingest', src, '--source', 'SRC-ONE', '--new-source', '--archive', a.dir, '--json'],
    a.env,
  );
  await custodyInExpect(0, ['analyze', '--archive', a.dir, '--json'], a.env);
}

