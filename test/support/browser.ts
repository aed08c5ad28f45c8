// What the browser tests share: Debian's Chromium through playwright-core (never downloaded),
// the built UI, the screenshot folder ($CI_ARTIFACTS_DIR, else artifacts/, in ui-screenshots/),
// signing in through the form, and axe with "no serious or critical violations".
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_PASSWORD } from './server.js';

export const CHROMIUM = '/usr/bin/chromium';
export const UI_DIR = join(import.meta.dirname, '../../dist/ui');
export const SHOTS = join(
  process.env.CI_ARTIFACTS_DIR ?? join(import.meta.dirname, '../../artifacts'),
  'ui-screenshots',
);

/** True when the browser tests of `what` must be skipped (no Chromium, and not CI, where it is required). */
export function skipBrowser(what: string): boolean {
  const missing = !existsSync(CHROMIUM);
  if (missing && process.env.CI !== 'true')
    console.warn(`${what} skipped: no Chromium at ${CHROMIUM} (required when CI=true)`);
  return missing && process.env.CI !== 'true';
}

export function assertUiBuilt(): void {
  if (!existsSync(join(UI_DIR, 'index.html')))
    throw new Error(`the web UI is not built (${UI_DIR}): run npm run build first`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
}

export async function signInThroughForm(
  page: Page,
  name: string,
  password = TEST_PASSWORD,
): Promise<void> {
  await page.getByLabel(/^(Name|الاسم)$/).fill(name);
  await page.getByLabel(/^(Password|كلمة المرور)$/).fill(password);
  await page.locator('form button[type=submit]').click();
}

export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<void> {
  // Only the violations are collected in full (axe's resultTypes): the same rules run and every
  // violating node is reported, but axe skips building selectors for the passing nodes, which was
  // about 40 % of each check's time on these pages.
  // Legacy mode runs axe.run in the page itself. The default runs axe per frame and then opens a
  // blank page, injects axe again and merges the frames' results there (finishRun): that is for
  // cross-origin frames, which these pages do not have (checked here, so the shortcut cannot hide
  // one), and it was half of each check's time (catalogue pages: 12 checks, 26.6 s → 12.8 s).
  expect(page.frames(), `${what}: a frame axe's legacy mode would not reach`).toHaveLength(1);
  const result = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const serious = result.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
    what,
  ).toEqual([]);
}

/** How the page shows one blurred preview (issue 14). */
export interface BlurredPreviewShown {
  /** Its natural long edge: the server's tiny blurred preview. */
  natural: number;
  /** Its long edge on the screen, in CSS px (object-fit taken into account). */
  shown: number;
  /** The CSS blur applied to it, in px (0: none). */
  blurPx: number;
  /** A CSS grayscale(1) applied to it. */
  grey: boolean;
}

/** Every decoded image matching `selector`, as the page shows it. */
export function blurredPreviewsShown(page: Page, selector: string): Promise<BlurredPreviewShown[]> {
  return page.evaluate<
    BlurredPreviewShown[]
  >(`[...document.querySelectorAll(${JSON.stringify(selector)})]
    .filter((i) => i.complete && i.naturalWidth > 0)
    .map((i) => {
      const box = i.getBoundingClientRect();
      const style = getComputedStyle(i);
      const sx = box.width / i.naturalWidth;
      const sy = box.height / i.naturalHeight;
      const fit = style.objectFit;
      const scale = fit === 'cover' ? Math.max(sx, sy) : fit === 'contain' ? Math.min(sx, sy)
        : fit === 'none' ? 1 : fit === 'scale-down' ? Math.min(1, sx, sy)
        : i.naturalWidth >= i.naturalHeight ? sx : sy;
      const blur = /blur\\(([0-9.]+)px\\)/.exec(style.filter);
      return {
        natural: Math.max(i.naturalWidth, i.naturalHeight),
        shown: scale * Math.max(i.naturalWidth, i.naturalHeight),
        blurPx: blur === null ? 0 : Number(blur[1]),
        grey: /grayscale\\(1\\)/.test(style.filter),
      };
    })`);
}

/**
 * The blurred previews matching `selector` are the server's tiny ones (≤ 32 px), shown scaled up
 * to at least `minShown` CSS px on their long edge (not at 32 px), greyscale and under a CSS blur.
 */
export async function expectBlurredTiles(
  page: Page,
  selector: string,
  minShown: number,
): Promise<void> {
  await expect
    .poll(async () => (await blurredPreviewsShown(page, selector)).length)
    .toBeGreaterThan(0);
  for (const s of await blurredPreviewsShown(page, selector)) {
    expect(s.natural, selector).toBeLessThanOrEqual(32);
    expect(s.shown, selector).toBeGreaterThanOrEqual(minShown);
    expect(s.blurPx, selector).toBeGreaterThanOrEqual(2);
    expect(s.grey, selector).toBe(true);
  }
}
