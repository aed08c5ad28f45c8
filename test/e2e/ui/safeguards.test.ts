// Issue 13, "Graphic-content safeguards", in a real browser (Debian's Chromium through
// playwright-core) against a real server: the per-account image settings, the count of images
// revealed today shown in the shell, the gentle break reminder after the configured number, the
// content warning on printed pages with images, and axe on the settings page in both languages.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { custodyInExpect, type TestArchive } from '../../support/archive-fixtures.js';
import {
  assertUiBuilt,
  expectNoSeriousA11yViolations,
  KeptPages,
  launchChromium,
  SHOTS,
  signInThroughForm,
  skipBrowser,
  UI_DIR,
} from '../../support/browser.js';
import { servedArchive, signIn, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const RANA = 'Rana Investigator';
const SAMI = 'Sami Investigator';
const INES = 'Ines Examiner';
const AUDITOR = 'Omar Auditor';
const PHOTOS = 6;

/** A small photograph of coarse blocks from a seeded generator: no two are near-duplicates. */
async function photo(seed: number): Promise<Buffer> {
  const [w, h, cell] = [160, 120, 20];
  let s = seed * 2654435761;
  const next = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % 256;
  };
  const raw = Buffer.alloc(w * h * 3);
  const blocks = Array.from({ length: (w / cell) * (h / cell) * 3 }, next);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        const b = (Math.floor(y / cell) * (w / cell) + Math.floor(x / cell)) * 3 + c;
        raw[(y * w + x) * 3 + c] = blocks[b]!;
      }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function ingestPhotos(a: TestArchive): Promise<void> {
  const src = join(await makeTempDir('safeguards-src'), 'delivery');
  await mkdir(src, { recursive: true });
  for (let i = 1; i <= PHOTOS; i++) await writeFile(join(src, `p${i}.jpg`), await photo(i));
  await custodyInExpect(
    0,
    ['ingest', src, '--source', 'SRC-SAFE', '--new-source', '--archive', a.dir, '--json'],
    a.env,
  );
  await custodyInExpect(0, ['analyze', '--archive', a.dir, '--json'], a.env);
}

describe.skipIf(skipBrowser('safeguards browser tests'))(
  'graphic-content safeguards in Chromium',
  () => {
    let served: ServedArchive;
    let base: string;
    let browser: Browser;
    let pages: KeptPages;
    let items: string[] = [];

    beforeAll(async () => {
      assertUiBuilt();
      served = await servedArchive(
        'safeguards',
        [
          [RANA, 'investigator'],
          [SAMI, 'investigator'],
          [INES, 'examiner'],
          [AUDITOR, 'auditor'],
        ],
        { server: { uiDir: UI_DIR }, before: ingestPhotos },
      );
      items = (await served.open.index.listItems()).map((i) => i.id).sort();
      expect(items).toHaveLength(PHOTOS);
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

    async function open(name: string, lang: 'en' | 'ar' = 'en', path = '/'): Promise<Page> {
      const { page } = await pages.use({
        viewport: { width: 1280, height: 900 },
        locale: lang === 'ar' ? 'ar' : 'en-GB',
      });
      await page.goto(base + path);
      await signInThroughForm(page, name);
      await page.getByTestId('account-role').waitFor();
      return page;
    }

    async function signInAgain(page: Page, name: string): Promise<void> {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signInThroughForm(page, name);
      await page.getByTestId('account-role').waitFor();
    }

    const shownCount = async (page: Page): Promise<number> =>
      Number(await page.getByTestId('revealed-today').getAttribute('data-count'));

    async function saveSettings(
      page: Page,
      s: { mode?: RegExp; every?: number; colour?: boolean },
    ): Promise<void> {
      await page.getByTestId('settings-link').click();
      await page.getByRole('heading', { level: 1, name: 'Image settings' }).waitFor();
      if (s.mode) await page.getByRole('radio', { name: s.mode }).check();
      if (s.every !== undefined)
        await page
          .getByLabel('Suggest a break after this many revealed images')
          .fill(String(s.every));
      if (s.colour !== undefined)
        await page.getByRole('checkbox', { name: /In my examination cases/ }).setChecked(s.colour);
      await page.getByTestId('settings-save').click();
      await expect.poll(() => page.getByTestId('settings-saved').textContent()).toBe('Saved.');
    }

    async function revealOnItemPage(page: Page, id: string): Promise<void> {
      await page.goto(`${base}/items/${id}`);
      await page.getByTestId('viewer-reveal').click();
      await page.getByTestId('viewer-status').waitFor();
    }

    it('keeps the image setting per account, across reloads and sign-ins, defaulting to blurred', async () => {
      const page = await open(RANA);
      await saveSettings(page, { mode: /^Unblurred, in colour/, every: 12 });
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Image settings' }).waitFor();
      expect(await page.getByRole('radio', { name: /^Unblurred, in colour/ }).isChecked()).toBe(
        true,
      );
      expect(
        await page.getByLabel('Suggest a break after this many revealed images').inputValue(),
      ).toBe('12');

      // Another account in the same browser has its own settings: the safe default.
      await signInAgain(page, SAMI);
      await page.getByTestId('settings-link').click();
      await page.getByRole('heading', { level: 1, name: 'Image settings' }).waitFor();
      expect(await page.getByRole('radio', { name: /^Blurred and in greyscale/ }).isChecked()).toBe(
        true,
      );
      expect(
        await page.getByLabel('Suggest a break after this many revealed images').inputValue(),
      ).toBe('50');

      await signInAgain(page, RANA);
      await page.getByTestId('settings-link').click();
      await page.getByRole('heading', { level: 1, name: 'Image settings' }).waitFor();
      expect(await page.getByRole('radio', { name: /^Unblurred, in colour/ }).isChecked()).toBe(
        true,
      );
    });

    it('lets an examiner opt in to colour inside their cases, stored for the examination pages', async () => {
      const page = await open(INES);
      await saveSettings(page, { colour: true });
      const ines = served.accounts.get(INES)!;
      const stored = await page.evaluate<string | null>(
        `localStorage.getItem(${JSON.stringify(`custody.safeguards.${ines}`)})`,
      );
      expect(JSON.parse(stored ?? '{}')).toMatchObject({
        imageMode: 'blurred',
        examinationColour: true,
      });
      // An investigator is not offered the examination option.
      await signInAgain(page, SAMI);
      await page.getByTestId('settings-link').click();
      await page.getByRole('heading', { level: 1, name: 'Image settings' }).waitFor();
      expect(await page.getByRole('checkbox', { name: /In my examination cases/ }).count()).toBe(0);
    });

    it('counts each image revealed on the item page in the shell, once per image, and each is an audited view', async () => {
      const page = await open(SAMI);
      expect(await shownCount(page)).toBe(0);
      await expect
        .poll(() => page.getByTestId('revealed-today').textContent())
        .toBe('Revealed today in this browser: 0');
      await revealOnItemPage(page, items[0]!);
      await expect.poll(() => shownCount(page)).toBe(1);
      await revealOnItemPage(page, items[1]!);
      await expect.poll(() => shownCount(page)).toBe(2);
      // Back to the first: remembered for the session, revealed without a click, not counted again.
      await page.goto(`${base}/items/${items[0]}`);
      await page.getByTestId('viewer-status').waitFor();
      expect(await page.getByTestId('viewer-reveal').count()).toBe(0);
      expect(await shownCount(page)).toBe(2);
      // Another person signing in in the same tab starts blurred: the memory is per account.
      await signInAgain(page, RANA);
      await page.goto(`${base}/items/${items[0]}`);
      await page.getByTestId('viewer-reveal').waitFor();
      expect(await shownCount(page)).toBe(0);
      // The server recorded each unblurred view, which the auditor sees.
      const auditor = await signIn(served.server, AUDITOR);
      for (const id of items.slice(0, 2)) {
        const r = await auditor.request('GET', `/api/audit/views?item=${id}`);
        const views = r.json<{ views: { action: string }[] }>().views;
        // The reveal shows the unblurred preview, then swaps in the original: which of the two
        // requests reaches the server first is the browser's choice; each is an audited view.
        expect(
          views.map((v) => v.action).filter((a) => a === 'view.unblurred' || a === 'view.original'),
        ).not.toEqual([]);
      }
    });

    it('with a greyscale default, the item page shows the image unblurred in greyscale, counted, and the grid stays blurred', async () => {
      const page = await open(RANA);
      await saveSettings(page, { mode: /^Unblurred, in greyscale/ });
      const unblurred: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('unblurred=true') || r.url().endsWith('/original'))
          unblurred.push(r.url());
      });
      await page.getByRole('link', { name: 'Evidence', exact: true }).click();
      await expect.poll(() => page.locator('main img').count()).toBeGreaterThan(0);
      expect(unblurred).toEqual([]);
      const before = await shownCount(page);
      await page.goto(`${base}/items/${items[5]}`);
      await page.getByTestId('viewer-status').waitFor();
      await expect.poll(() => shownCount(page)).toBe(before + 1);
      expect(await page.getByTestId('viewer').getAttribute('class')).toContain(
        'safeguard-greyscale',
      );
      expect(unblurred.length).toBeGreaterThan(0);
      // Colour on demand, for this image.
      await page.getByTestId('viewer-colour').click();
      expect(await page.getByTestId('viewer').getAttribute('class')).not.toContain(
        'safeguard-greyscale',
      );
    });

    it('suggests a break, kindly and without blocking, after the configured number of reveals; dismissed, it stays away for the next reveal', async () => {
      const page = await open(SAMI);
      await saveSettings(page, { every: 5 });
      for (const [i, id] of items.slice(0, 4).entries()) {
        await revealOnItemPage(page, id);
        await expect.poll(() => shownCount(page)).toBe(i + 1);
      }
      expect(await page.getByTestId('break-reminder').count()).toBe(0);
      await revealOnItemPage(page, items[4]!);
      await expect.poll(() => page.getByTestId('break-reminder').isVisible()).toBe(true);
      expect(await page.getByTestId('break-reminder').textContent()).toContain(
        'You have revealed 5 images today',
      );
      await page.screenshot({ path: join(SHOTS, 'safeguards-reminder-en.png') });
      // Not blocking: the page still works underneath.
      await page.getByTestId('viewer-colour').click();
      await page.getByRole('button', { name: 'Thank you, continue' }).click();
      expect(await page.getByTestId('break-reminder').count()).toBe(0);
      await revealOnItemPage(page, items[5]!);
      await expect.poll(() => shownCount(page)).toBe(6);
      expect(await page.getByTestId('break-reminder').count()).toBe(0);
    });

    it('prints a content warning at the top of pages that show images, and only there', async () => {
      const page = await open(RANA);
      const warning = page.getByTestId('print-warning');
      await page.getByTestId('settings-link').click();
      await page.emulateMedia({ media: 'print' });
      expect(await warning.isVisible()).toBe(false); // no image on the settings page
      await page.emulateMedia({ media: 'screen' });
      await page.getByRole('link', { name: 'Evidence', exact: true }).click();
      await expect.poll(() => page.locator('main img').count()).toBeGreaterThan(0);
      expect(await warning.isVisible()).toBe(false); // not on screen
      await page.emulateMedia({ media: 'print' });
      await expect.poll(() => warning.isVisible()).toBe(true);
      expect(await warning.textContent()).toBe(
        'Content warning: this page includes images that may show injury or death.',
      );
      const box = await warning.boundingBox();
      expect(box?.y).toBe(0);
      expect(
        await page.evaluate<string>(
          `getComputedStyle(document.querySelector('[data-testid=print-warning]')).position`,
        ),
      ).toBe('fixed');
      await page.screenshot({ path: join(SHOTS, 'safeguards-print-en.png') });
    });

    it('the settings page has no serious accessibility violations, in English and in Arabic', async () => {
      for (const lang of ['en', 'ar'] as const) {
        const page = await open(INES, lang, '/settings');
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await page.evaluate('document.documentElement.dir')).toBe(
          lang === 'ar' ? 'rtl' : 'ltr',
        );
        if (lang === 'ar')
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('إعدادات الصور');
        await expectNoSeriousA11yViolations(page, `settings page (${lang})`);
        await page.screenshot({
          path: join(SHOTS, `safeguards-settings-${lang}.png`),
          fullPage: true,
        });
      }
    });
  },
);
