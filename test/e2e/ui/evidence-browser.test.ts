// Issue 13, the evidence browser, in a real browser (playwright-core driving Debian's Chromium,
// never downloaded) against a real server over an archive of 30 generated photographs: the grid
// renders only the rows in view and fetches pages as it scrolls, a filter narrows the list and
// lives in the URL (reload and back keep it), previews are only ever the blurred ones, browsing
// writes nothing to the ledger, the keyboard moves through the cells (mirrored in Arabic), axe,
// and screenshots in both languages ($CI_ARTIFACTS_DIR, else artifacts/, in ui-screenshots/).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertUiBuilt,
  expectBlurredTiles,
  expectNoSeriousA11yViolations,
  KeptPages,
  launchChromium,
  SHOTS,
  skipBrowser,
  UI_DIR,
} from '../../support/browser.js';
import { custodyInExpect } from '../../support/archive-fixtures.js';
import { servedArchive, TEST_PASSWORD, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const INVESTIGATOR = 'Rana Investigator';
const ITEMS = 30;
const BETA = 10; // photographs from the second camera
const PAGE_SIZE = 24; // ui/src/pages/EvidencePage.tsx

/** A calm synthetic photograph: soft gradients, a seed-dependent tint, EXIF make and date. */
async function photo(seed: number, make: string, taken: string): Promise<Buffer> {
  const w = 120;
  const h = 90;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = (x * 200) / w + seed * 3;
      raw[i + 1] = ((y + seed * 5) * 180) / h;
      raw[i + 2] = (x * y + seed * 17) % 256;
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .withExif({
      IFD0: { Make: make, Model: `${make} One`, DateTime: taken },
      IFD2: { DateTimeOriginal: taken },
    })
    .jpeg({ quality: 80 })
    .toBuffer();
}

describe.skipIf(skipBrowser('evidence browser tests'))('the evidence browser in Chromium', () => {
  let served: ServedArchive;
  let base: string;
  let browser: Browser;
  let pages: KeptPages;
  /** Every request the current page made to /api/items…/preview. */
  let previews: string[] = [];
  /** Every GET /api/items request (the list's pages) of the current page. */
  let lists: string[] = [];

  beforeAll(async () => {
    assertUiBuilt();
    served = await servedArchive('evidence-browser', [[INVESTIGATOR, 'investigator']], {
      server: { uiDir: UI_DIR },
      before: async (a) => {
        const src = join(await makeTempDir('evidence-browser-src'), 'delivery');
        await mkdir(src, { recursive: true });
        for (let i = 0; i < ITEMS; i++) {
          const make = i < ITEMS - BETA ? 'Alpha' : 'Beta';
          const day = String(1 + (i % 28)).padStart(2, '0');
          const name = `photo-${String(i).padStart(3, '0')}.jpg`;
          await writeFile(join(src, name), await photo(i, make, `2024:03:${day} 10:${day}:00`));
        }
        await custodyInExpect(
          0,
          ['ingest', src, '--source', 'SRC-GRID', '--new-source', '--archive', a.dir, '--json'],
          a.env,
        );
        await custodyInExpect(0, ['analyze', '--archive', a.dir, '--json'], a.env);
      },
    });
    base = await served.server.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    pages = new KeptPages(browser);
    await mkdir(SHOTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await pages?.close();
    await browser?.close();
    await served?.close();
  });

  async function open(lang: 'en' | 'ar', viewport = { width: 1280, height: 900 }): Promise<Page> {
    const { page } = await pages.use({ viewport, locale: lang === 'ar' ? 'ar' : 'en-GB' });
    previews = [];
    lists = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (/^\/api\/items\/[^/]+\/preview$/.test(url.pathname))
        previews.push(url.pathname + url.search);
      if (url.pathname === '/api/items') lists.push(url.search);
    });
    await page.goto(base);
    await page.getByLabel(/^(Name|الاسم)$/).fill(INVESTIGATOR);
    await page.getByLabel(/^(Password|كلمة المرور)$/).fill(TEST_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('account-role').waitFor();
    return page;
  }

  function js<T>(page: Page, expression: string): Promise<T> {
    return page.evaluate<T>(expression);
  }

  const cells = (page: Page) => page.getByTestId('evidence-cell');
  const ledgerSize = async (page: Page): Promise<number> => {
    const r = await page.request.get(`${base}/api/status`);
    return ((await r.json()) as { ledger_size: number }).ledger_size;
  };

  it('renders only the rows in view, fetches the next page on scroll, shows only blurred previews, and writes nothing to the ledger', async () => {
    // A small window: 30 items are then a long list, of which only a few rows are in view.
    const page = await open('en', { width: 800, height: 600 });
    await page.getByTestId('count-items').waitFor();
    const before = await ledgerSize(page); // after the sign-in's own entry
    await page.getByRole('link', { name: 'Evidence', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('result-count').textContent())
      .toBe(`Items matching: ${ITEMS}`);
    await expect.poll(() => cells(page).first().getAttribute('aria-busy')).toBe('false');
    const rendered = await cells(page).count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThanOrEqual(ITEMS / 2); // virtualised: far from all 30
    // Only the first page was asked for; the second (offset 24) is not in view.
    expect(lists.some((q) => q.includes(`offset=${PAGE_SIZE}`))).toBe(false);
    expect(lists.every((q) => q.includes(`limit=${PAGE_SIZE}`))).toBe(true);
    // The previews in view are decoded images, the blurred ones.
    await expect
      .poll(() =>
        js<number>(
          page,
          `[...document.querySelectorAll('[data-testid=evidence-cell] img')].filter((i) => i.complete && i.naturalWidth > 0).length`,
        ),
      )
      .toBeGreaterThan(0);
    // Each is the server's tiny blurred preview (issue 14), shown at tile size, greyscale and
    // under a CSS blur: not a 32 px stamp, not sharp.
    await expectBlurredTiles(page, '[data-testid=evidence-cell] img', 120);

    // Scrolling to the end fetches the second page and renders its items.
    await js(
      page,
      `(() => { const el = document.querySelector('[data-testid=evidence-scroller]'); el.scrollTo(0, el.scrollHeight); })()`,
    );
    await expect.poll(() => lists.some((q) => q.includes(`offset=${PAGE_SIZE}`))).toBe(true);
    await expect
      .poll(() =>
        page
          .locator(`[data-testid=evidence-cell][data-index="${ITEMS - 1}"]`)
          .getAttribute('aria-label'),
      )
      .toMatch(/^photo-\d{3}\.jpg$/); // loaded from the second page, not a placeholder
    expect(await cells(page).count()).toBeLessThanOrEqual(ITEMS / 2);
    expect(await cells(page).first().getAttribute('data-index')).not.toBe('0');

    // The list view: file name, camera, date, unit, subject; virtualised as well.
    await page.getByRole('button', { name: 'List' }).click();
    await expect.poll(() => page.url()).toContain('view=list');
    await page.getByRole('columnheader', { name: 'Camera' }).waitFor();
    await expect.poll(() => cells(page).count()).toBeGreaterThan(0);
    expect(await cells(page).count()).toBeLessThan(ITEMS);

    expect(previews.length).toBeGreaterThan(0);
    expect(previews.filter((p) => /unblurred/.test(p))).toEqual([]);
    expect(previews.every((p) => p.endsWith('?size=256'))).toBe(true);
    // Browsing is not viewing: no audited view, nothing added to the ledger.
    expect(await ledgerSize(page)).toBe(before);
  });

  it('a filter narrows the list and lives in the URL: reload keeps it, back removes it', async () => {
    const page = await open('en');
    await page.getByRole('link', { name: 'Evidence', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('result-count').textContent())
      .toBe(`Items matching: ${ITEMS}`);
    await page.getByLabel('Camera', { exact: true }).fill('Beta');
    await page.getByLabel('Camera', { exact: true }).press('Enter');
    await expect
      .poll(() => page.getByTestId('result-count').textContent())
      .toBe(`Items matching: ${BETA}`);
    expect(new URL(page.url()).searchParams.get('camera')).toBe('Beta');
    expect(lists.at(-1)).toContain('camera=Beta');

    await page.getByLabel('Sort by').selectOption('name');
    await page.getByLabel('Order').selectOption('desc');
    await expect
      .poll(() => cells(page).first().getAttribute('aria-label'))
      .toBe(`photo-${String(ITEMS - 1).padStart(3, '0')}.jpg`);
    expect(new URL(page.url()).search).toBe('?camera=Beta&sort=name&order=desc');

    await page.reload();
    await expect
      .poll(() => page.getByTestId('result-count').textContent())
      .toBe(`Items matching: ${BETA}`);
    expect(await page.getByLabel('Camera', { exact: true }).inputValue()).toBe('Beta');
    expect(await page.getByLabel('Sort by').inputValue()).toBe('name');

    // Back through the sort changes to the filter alone, then to no filter.
    await page.goBack();
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('?camera=Beta');
    await page.goBack();
    await expect
      .poll(() => page.getByTestId('result-count').textContent())
      .toBe(`Items matching: ${ITEMS}`);
    expect(await page.getByLabel('Camera', { exact: true }).inputValue()).toBe('');

    // A filter nothing matches says so in words.
    await page.getByLabel('Taken from').fill('2030-01-01');
    await expect
      .poll(() => page.getByTestId('evidence-empty').locator('h2').textContent())
      .toBe('No items match these filters');
    expect(previews.filter((p) => /unblurred/.test(p))).toEqual([]);
  });

  it('a server refusal is an error in words, with a way to try again', async () => {
    const page = await open('en');
    await page.route(`${base}/api/items?**`, (route) =>
      route.fulfill({
        status: 500,
        json: { code: 'HTTP_INTERNAL', message: 'the index is unavailable', details: {} },
      }),
    );
    await page.getByRole('link', { name: 'Evidence', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').locator('p').textContent())
      .toBe('The items could not be loaded: the index is unavailable');
    await page.unroute(`${base}/api/items?**`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => page.getByTestId('result-count').textContent())
      .toBe(`Items matching: ${ITEMS}`);
  });

  for (const lang of ['en', 'ar'] as const) {
    it(`in ${lang}: arrow keys move through the cells (mirrored right to left), no serious or critical axe violations, screenshots`, async () => {
      const page = await open(lang);
      await page.goto(`${base}/evidence`);
      await expect
        .poll(() => js(page, 'document.documentElement.dir'))
        .toBe(lang === 'ar' ? 'rtl' : 'ltr');
      await expect.poll(() => cells(page).first().getAttribute('aria-busy')).toBe('false');
      await expect
        .poll(() =>
          js<number>(
            page,
            `[...document.querySelectorAll('[data-testid=evidence-cell] img')].filter((i) => i.complete && i.naturalWidth > 0).length`,
          ),
        )
        .toBeGreaterThan(3);
      const columns = Number(
        await page.getByTestId('evidence-scroller').getAttribute('aria-colcount'),
      );
      expect(columns).toBeGreaterThan(1);
      // The first cell is the one cell in the tab order; the next key moves along the reading direction.
      await cells(page).first().focus();
      await page.keyboard.press(lang === 'ar' ? 'ArrowLeft' : 'ArrowRight');
      expect(await js(page, `document.activeElement?.getAttribute('data-index')`)).toBe('1');
      await page.keyboard.press('ArrowDown');
      expect(await js(page, `document.activeElement?.getAttribute('data-index')`)).toBe(
        String(1 + columns),
      );
      // In Arabic the second cell sits to the left of the first.
      const first = await cells(page).nth(0).boundingBox();
      const second = await cells(page).nth(1).boundingBox();
      if (lang === 'ar') expect(second!.x).toBeLessThan(first!.x);
      else expect(second!.x).toBeGreaterThan(first!.x);
      await page.keyboard.press('ArrowUp');
      await expectNoSeriousA11yViolations(page, `evidence grid (${lang})`);
      await js(page, 'window.scrollTo(0, 0)');
      await page.screenshot({ path: join(SHOTS, `evidence-grid.${lang}.png`) });
      await page.getByRole('button', { name: lang === 'ar' ? 'قائمة' : 'List' }).click();
      await page.getByRole('columnheader').first().waitFor();
      await expectNoSeriousA11yViolations(page, `evidence list (${lang})`);
      await page.screenshot({ path: join(SHOTS, `evidence-list.${lang}.png`) });
      expect(previews.filter((p) => /unblurred/.test(p))).toEqual([]);
    });
  }
});
