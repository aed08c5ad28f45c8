// What the browser tests share: Debian's Chromium through playwright-core (never downloaded),
// the built UI, the screenshot folder ($CI_ARTIFACTS_DIR, else artifacts/, in ui-screenshots/),
// signing in through the form, and axe with "no serious or critical violations".
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_PASSWORD } from './server.js';

/**
 * The browser the UI tests drive: Debian's Chromium headless shell (package
 * chromium-headless-shell, built from the same chromium source package and version as
 * /usr/bin/chromium: the same Blink and V8, without the desktop browser around them), which is
 * what Playwright itself runs for headless tests. The UI tests take about a quarter less time on
 * it than on the full browser, and Chromium a third less CPU (test/e2e/ui: 83.5 → 64.2 s on two
 * workers). Where only the chromium package is installed, the tests drive that. The reports'
 * PDFs are printed by the product's own Chromium path (/usr/bin/chromium), and their tests use it.
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
export const UI_DIR = join(import.meta.dirname, '../../dist/ui');
export const SHOTS = join(
  process.env.CI_ARTIFACTS_DIR ?? join(import.meta.dirname, '../../artifacts'),
  'ui-screenshots',
);

/** True when the browser tests of `what` must be skipped (no Chromium, and not CI, where it is required). */
export function skipBrowser(what: string): boolean {
  const missing = !existsSync(CHROMIUM);
  if (missing && process.env.CI !== 'true')
    console.warn(
      `${what} skipped: no Chromium at ${HEADLESS_SHELL} or ${FULL_CHROMIUM} (required when CI=true)`,
    );
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

/** The page events the browser tests listen to: a kept page drops their listeners between uses. */
const TEST_EVENTS = [
  'request',
  'response',
  'requestfailed',
  'console',
  'pageerror',
  'dialog',
] as const;

export interface KeptPage {
  context: BrowserContext;
  page: Page;
}

/**
 * Browser pages kept for a whole test file, one per locale and viewport. Each use gets the same
 * page back as a new visitor would find it: away from the UI (its in-memory state and requests
 * gone with the document), signed out (no cookies), the UI origin's localStorage and
 * sessionStorage emptied, no listener or route an earlier test left, media emulation off. A new
 * context costs a new renderer process and a cold start of the UI's bundle, about 0.5 s and 1 s
 * here; a kept page reaches the sign-in form in a fraction of that (catalogue pages: 42 → 33 s).
 * The HTTP cache stays: the UI's hashed assets are what it saves, and evidence is `no-cache`, so
 * every preview or original is still requested (revalidated) and reaches the server.
 * A test that closes the context (or the page) gets a new one on its next use.
 */
export class KeptPages {
  readonly #kept = new Map<string, KeptPage>();

  constructor(
    private readonly browser: Browser,
    /** Run once on each new page (an init script survives every later navigation). */
    private readonly onNewPage?: (page: Page) => Promise<unknown>,
  ) {}

  async use(options: {
    locale: string;
    viewport: { width: number; height: number };
  }): Promise<KeptPage> {
    const key = JSON.stringify([options.locale, options.viewport.width, options.viewport.height]);
    const kept = this.#kept.get(key);
    let context: BrowserContext;
    if (kept === undefined || kept.page.isClosed()) {
      await kept?.context.close(); // a test closed the page or the context: start afresh
      context = await this.browser.newContext(options);
    } else if (await reset(kept)) {
      return kept;
    } else {
      await kept.page.close();
      context = kept.context;
    }
    const page = await context.newPage();
    await this.onNewPage?.(page);
    const fresh = { context, page };
    this.#kept.set(key, fresh);
    return fresh;
  }

  async close(): Promise<void> {
    for (const { context } of this.#kept.values()) await context.close();
    this.#kept.clear();
  }
}

/**
 * Makes a kept page as good as new; false when it cannot (its document would not run the clearing
 * of sessionStorage, which lives per tab: a sandboxed original, a navigation under way). The
 * caller then opens a new page in the same context.
 */
async function reset({ context, page }: KeptPage): Promise<boolean> {
  for (const event of TEST_EVENTS) page.removeAllListeners(event);
  await page.unrouteAll({ behavior: 'wait' });
  await context.unrouteAll({ behavior: 'wait' });
  await context.clearCookies();
  const url = page.url();
  const origin = /^https?:/.test(url) ? new URL(url).origin : null;
  const cleared =
    origin === null ||
    (await page.evaluate('sessionStorage.clear(); true').then(
      () => true,
      () => false,
    ));
  if (cleared) await page.goto('about:blank');
  if (origin !== null) {
    // localStorage through DevTools, for the whole context, once the UI has left the page.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage' });
    await cdp.detach();
  }
  if (!cleared) return false;
  await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null });
  return true;
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
