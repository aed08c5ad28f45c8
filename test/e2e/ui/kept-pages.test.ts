// The browser tests' kept pages (test/support/browser.ts, KeptPages): a page handed back to the next
// test must be as a new visitor finds it. A plain HTTP server here, so that only the helper is
// under test: storage, cookies, listeners, routes and media emulation left by one use are gone at
// the next; a sandboxed document (an original opened at its own URL) or a closed context gives a
// new page instead.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptPages, launchChromium, skipBrowser } from '../../support/browser.js';

const VIEWPORT = { width: 800, height: 600 };

describe.skipIf(skipBrowser('kept page tests'))('kept pages', () => {
  let server: Server;
  let base: string;
  let browser: Browser;
  let pages: KeptPages;
  /** Requests the server received, by path. */
  const received: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req.url ?? '');
      if (req.url === '/sandboxed') res.setHeader('Content-Security-Policy', 'sandbox');
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>kept</title><p>page</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    pages = new KeptPages(browser);
  }, 60_000);

  afterAll(async () => {
    await pages?.close();
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** What a visitor's page holds: storage, cookies and print emulation. */
  const state = (page: Page) =>
    page.evaluate<[string | null, string | null, string, boolean]>(
      `[localStorage.getItem('l'), sessionStorage.getItem('s'), document.cookie, matchMedia('print').matches]`,
    );

  it('hands back the same page, with no storage, cookie, listener, route or media emulation of the last use', async () => {
    const { page } = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    await page.goto(`${base}/first`);
    await page.evaluate(`localStorage.setItem('l', '1'); sessionStorage.setItem('s', '1')`);
    await page.context().addCookies([{ name: 'c', value: '1', url: base }]);
    await page.emulateMedia({ media: 'print' });
    const heard: string[] = [];
    page.on('request', (r) => heard.push(r.url()));
    await page.route(`${base}/routed`, (route) => route.fulfill({ body: 'planted' }));
    await page.goto(`${base}/routed`);
    expect(await page.textContent('body')).toBe('planted');
    expect(await state(page)).toEqual(['1', '1', 'c=1', true]);

    const again = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    expect(again.page).toBe(page);
    expect(page.url()).toBe('about:blank');
    const before = heard.length;
    received.length = 0;
    await page.goto(`${base}/routed`);
    expect(await page.textContent('body')).toBe('page'); // the route is gone: the server answered
    expect(received).toContain('/routed');
    expect(heard).toHaveLength(before); // the last use's listener is gone
    expect(await state(page)).toEqual([null, null, '', false]);
  });

  it('keeps one page per locale and viewport', async () => {
    const en = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    const ar = await pages.use({ locale: 'ar', viewport: VIEWPORT });
    const wide = await pages.use({ locale: 'ar', viewport: { width: 1280, height: 900 } });
    expect(ar.page).not.toBe(en.page);
    expect(wide.page).not.toBe(ar.page);
    expect(await ar.page.evaluate('navigator.language')).toBe('ar');
  });

  it('a sandboxed document, which may not clear its tab storage, gives a new page in the same context, storage cleared', async () => {
    const { context, page } = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    await page.goto(`${base}/first`);
    await page.evaluate(`localStorage.setItem('l', '2'); sessionStorage.setItem('s', '2')`);
    await page.goto(`${base}/sandboxed`);
    const next = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    expect(next.page).not.toBe(page);
    expect(page.isClosed()).toBe(true);
    expect(next.context).toBe(context);
    await next.page.goto(`${base}/first`);
    expect(await state(next.page)).toEqual([null, null, '', false]);
  });

  it('a context the test closed gives a new one', async () => {
    const { context } = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    await context.close();
    const next = await pages.use({ locale: 'en-GB', viewport: VIEWPORT });
    expect(next.context).not.toBe(context);
    await next.page.goto(`${base}/first`);
    expect(await next.page.textContent('body')).toBe('page');
  });
});
