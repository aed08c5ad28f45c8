// The accessibility check every browser test relies on (test/support/browser.ts) must fail when
// a page has a serious violation: a planted image without a text alternative (image-alt,
// critical) and grey-on-white text (color-contrast, serious) are reported, a clean page passes,
// and a page with a frame is refused, since the check's legacy mode runs axe in the top page only.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  launchChromium,
  skipBrowser,
} from '../../support/browser.js';

const CLEAN = `<!doctype html><html lang="en"><head><title>Clean</title></head>
<body><main><h1>Subjects</h1><p>Nothing to see.</p></main></body></html>`;

describe.skipIf(skipBrowser('the accessibility check'))('the accessibility check (axe)', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('passes a clean page', async () => {
    await page.setContent(CLEAN);
    await expectNoSeriousA11yViolations(page, 'clean');
  });

  it('reports a planted image without alt text and text without contrast', async () => {
    await page.setContent(
      CLEAN.replace(
        '<p>Nothing to see.</p>',
        `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">
         <p style="color:#ddd;background:#fff">Faint</p>`,
      ),
    );
    // The assertion's actual value: the violations it listed.
    const failure = await expectNoSeriousA11yViolations(page, 'planted').then(
      () => null,
      (e: unknown) => JSON.stringify((e as { actual?: unknown }).actual),
    );
    expect(failure).toMatch(/image-alt \(critical\)/);
    expect(failure).toMatch(/color-contrast \(serious\)/);
  });

  it('refuses a page with a frame, which it would not reach', async () => {
    await page.setContent(
      CLEAN.replace('</main>', '<iframe title="inner" srcdoc="<p>x</p>"></iframe></main>'),
    );
    await expect(expectNoSeriousA11yViolations(page, 'framed')).rejects.toThrow(/frame/);
  });
});
