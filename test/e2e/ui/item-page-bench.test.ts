// Opt-in measurement (CUSTODY_UI_BENCH=1): the item page's first sharp view of a 12 MP JPEG on
// loopback, in Chromium with --disable-gpu: from the click on "Reveal" until the full-resolution
// original is decoded and on screen (and, on the way, until the 1280 px preview is). A real
// server over a real archive (ingested and analysed). It prints the figures and asserts only
// that the original, at full size, is what was shown.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { custodyInExpect } from '../../support/archive-fixtures.js';
import { servedArchive, TEST_PASSWORD } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const UI_DIR = join(import.meta.dirname, '../../../dist/ui');
const W = 4000;
const H = 3000;

it.skipIf(process.env.CUSTODY_UI_BENCH !== '1' || !existsSync('/usr/bin/chromium'))(
  'the item page: first sharp view of a 12 MP JPEG',
  async () => {
    const raw = Buffer.alloc(W * H * 3);
    let seed = 7;
    for (let i = 0; i < raw.length; i += 3) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const x = (i / 3) % W;
      const y = Math.floor(i / 3 / W);
      const n = (seed >>> 24) % 40; // sensor-like noise: a realistic JPEG size
      raw[i] = (x * 200) / W + n;
      raw[i + 1] = (y * 180) / H + n;
      raw[i + 2] = ((x ^ y) & 0xff) / 2 + n;
    }
    const jpeg = await sharp(raw, { raw: { width: W, height: H, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const served = await servedArchive('item-bench', [['Rana', 'investigator']], {
      server: { uiDir: UI_DIR },
      before: async (a) => {
        const src = join(await makeTempDir('item-bench-src'), 'd');
        await mkdir(src, { recursive: true });
        await writeFile(join(src, 'twelve.jpg'), jpeg);
        await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
        await custodyInExpect(0, ['analyze', '--archive', a.dir], a.env);
      },
    });
    const [item] = await served.open.index.listItems();
    const base = await served.server.listen({ port: 0, host: '127.0.0.1' });
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    const runs: { previewMs: number; sharpMs: number }[] = [];
    try {
      for (let run = 0; run < 5; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.goto(base);
        await page.getByLabel('Name').fill('Rana');
        await page.getByLabel('Password').fill(TEST_PASSWORD);
        await page.locator('form button[type=submit]').click();
        await page.getByTestId('account-role').waitFor();
        await page.goto(`${base}/items/${item!.id}`);
        await page.getByTestId('viewer-reveal').waitFor();
        const r = await page.evaluate<{ previewMs: number; sharpMs: number; w: number }>(`new Promise((resolve) => {
          const t0 = performance.now();
          let previewMs = -1;
          document.querySelector('[data-testid=viewer-reveal]').click();
          const loop = () => {
            const p = document.querySelector('[data-testid=viewer-preview]');
            if (previewMs < 0 && p && p.complete && p.naturalWidth > 0) previewMs = performance.now() - t0;
            const img = document.querySelector('[data-testid=viewer-original]');
            if (img && img.complete && img.naturalWidth > 0)
              requestAnimationFrame(() => resolve({ previewMs, sharpMs: performance.now() - t0, w: img.naturalWidth }));
            else requestAnimationFrame(loop);
          };
          loop();
        })`);
        expect(r.w).toBe(W);
        runs.push({ previewMs: Math.round(r.previewMs), sharpMs: Math.round(r.sharpMs) });
        await context.close();
      }
    } finally {
      await browser.close();
      await served.close();
    }
    const sorted = runs.map((r) => r.sharpMs).sort((a, b) => a - b);
    console.log(
      JSON.stringify({ bytes: jpeg.length, width: W, height: H, runs, medianSharpMs: sorted[2] }),
    );
  },
  300_000,
);
