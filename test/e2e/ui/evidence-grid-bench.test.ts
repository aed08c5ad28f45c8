// Opt-in measurement (CUSTODY_UI_BENCH=1): the evidence grid over 50,000 items, /api/items and
// the previews answered by the page's router (synthetic rows, one blurred WebP), so that only the
// UI is measured: the first screen until every visible preview is decoded, and the frame times
// (requestAnimationFrame) while scrolling at 3,000 px/s for 8 s in Chromium with --disable-gpu.
// It prints the figures; it asserts only what cannot flake (virtualisation, pages on demand).
// The figures of the targets come from `BENCH_ONLY=grid` (bench/evidence-grid.bench.ts):
// the real server over the enlarged 50,000-item archive with its previews; this one isolates the UI.
import { join } from 'node:path';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { servedArchive, TEST_PASSWORD } from '../../support/server.js';

const UI_DIR = join(import.meta.dirname, '../../../dist/ui');
it.skipIf(process.env.CUSTODY_UI_BENCH !== '1' || !existsSync('/usr/bin/chromium'))(
  'the evidence grid over 50,000 items: first screen and scrolling frame times',
  async () => {
    const served = await servedArchive('bench', [['Rana', 'investigator']], {
      server: { uiDir: UI_DIR },
    });
    const base = await served.server.listen({ port: 0, host: '127.0.0.1' });
    const webp = await sharp({
      create: { width: 256, height: 192, channels: 3, background: '#777' },
    })
      .blur(8)
      .webp()
      .toBuffer();
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    const TOTAL = 50_000;
    let listCalls = 0;
    await page.route(`${base}/api/items?**`, (route) => {
      listCalls++;
      const u = new URL(route.request().url());
      const off = Number(u.searchParams.get('offset'));
      const lim = Number(u.searchParams.get('limit'));
      const items = [];
      for (let i = off; i < Math.min(TOTAL, off + lim); i++)
        items.push({
          id: `01HZX3K4ZJ8Q6V9W2N5R${String(i).padStart(6, '0')}`,
          seq: i,
          delivery: 'D',
          name: `photo-${i}.jpg`,
          path: '',
          sha256: '',
          size: 1,
          media_type: 'image/jpeg',
          received_at: '',
          withdrawn: false,
          analysed: true,
          make: 'Alpha',
          model: 'Alpha One',
          date_time_original: '2024:03:01 10:00:00',
          subject: null,
          unit: null,
        });
      return route.fulfill({
        json: { items, total: TOTAL, limit: lim, offset: off, next_cursor: null },
      });
    });
    await page.route(/\/api\/items\/[^/]+\/preview/, (route) =>
      route.fulfill({ body: webp, contentType: 'image/webp' }),
    );
    await page.goto(base);
    await page.getByLabel('Name').fill('Rana');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('account-role').waitFor();
    const t0 = Date.now();
    await page.goto(`${base}/evidence`);
    while (
      !(await page.evaluate<boolean>(
        `(() => { const imgs = [...document.querySelectorAll('[data-testid=evidence-cell] img')]; return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0); })()`,
      ))
    )
      await new Promise((r) => setTimeout(r, 10));
    const first = Date.now() - t0;
    const result = await page.evaluate<{
      p95: number;
      p50: number;
      frames: number;
      cells: number;
      max: number;
    }>(`new Promise((resolve) => {
    const el = document.querySelector('[data-testid=evidence-scroller]');
    const times = []; let last = performance.now(); const start = last; let cells = 0;
    function frame(now) {
      times.push(now - last); last = now;
      el.scrollTop = ((now - start) / 1000) * 3000;
      cells = Math.max(cells, document.querySelectorAll('[data-testid=evidence-cell]').length);
      if (now - start < 8000) requestAnimationFrame(frame);
      else { times.sort((a, b) => a - b); resolve({ p95: times[Math.floor(times.length * 0.95)], p50: times[Math.floor(times.length / 2)], max: times.at(-1), frames: times.length, cells }); }
    }
    requestAnimationFrame(frame);
  })`);
    console.log(JSON.stringify({ firstScreenMs: first, ...result, listCalls }));
    expect(result.cells).toBeLessThan(200); // of 50,000
    expect(listCalls).toBeLessThan(200); // 50,000 / 24 pages would be 2,084
    await browser.close();
    await served.close();
  },
  120_000,
);
