// Issue 13, the web UI's first slice, in a real browser: playwright-core driving Debian's
// Chromium (never downloaded) against a real server on a loopback port, over an archive with
// accounts. Sign-in and the shell, the role, English ⇄ Arabic (right to left), sign-out, an
// ended session, the overview with its checkpoint checked in the page, the CSP, axe, and a
// screenshot of each page in both languages ($CI_ARTIFACTS_DIR, else artifacts/, in ui-screenshots/).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertUiBuilt,
  expectNoSeriousA11yViolations,
  KeptPages,
  launchChromium,
  SHOTS,
  skipBrowser,
  UI_DIR,
} from '../../support/browser.js';
import { parseVerifierKey, verifyCheckpoint } from '../../../src/core/index.js';
import { custodyInExpect, writeExtraFiles } from '../../support/archive-fixtures.js';
import { servedArchive, TEST_PASSWORD, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const IDLE_MS = 30 * 60 * 1000;
const EXAMINER = 'Ines Haddad';

describe.skipIf(skipBrowser('web UI browser tests'))('the web UI in Chromium', () => {
  let served: ServedArchive;
  let base: string;
  let browser: Browser;
  let now = Date.parse('2026-03-01T09:00:00Z');
  let pages: KeptPages;
  /** A context of a test's own (another server, a planted page), closed after the test. */
  let context: BrowserContext | undefined;
  /** Requests to anywhere but this server, and CSP violations, seen by the current page. */
  let foreign: string[] = [];

  beforeAll(async () => {
    assertUiBuilt();
    served = await servedArchive(
      'web-ui',
      [
        [EXAMINER, 'examiner'],
        ['Omar Auditor', 'auditor'],
      ],
      { server: { uiDir: UI_DIR, clock: () => new Date(now), idleTimeoutMs: IDLE_MS } },
    );
    base = await served.server.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    pages = new KeptPages(browser, (page) =>
      page.addInitScript({
        content: `document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`,
      }),
    );
    await mkdir(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await pages?.close();
    await browser?.close();
    await served?.close();
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function open(lang: 'en' | 'ar' = 'en'): Promise<Page> {
    const { page } = await pages.use({
      viewport: { width: 1280, height: 900 },
      locale: lang === 'ar' ? 'ar' : 'en-GB',
    });
    foreign = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) foreign.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy|CSP violation/i.test(m.text()))
        foreign.push(m.text());
    });
    const response = await page.goto(base);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    return page;
  }

  /** An expression evaluated in the page (a string: this project's type check has no DOM lib). */
  function js<T>(page: Page, expression: string): Promise<T> {
    return page.evaluate<T>(expression);
  }

  async function signInAs(page: Page, name: string, password = TEST_PASSWORD): Promise<void> {
    await page.getByLabel(/^(Name|الاسم)$/).fill(name);
    await page.getByLabel(/^(Password|كلمة المرور)$/).fill(password);
    await page.locator('form button[type=submit]').click();
  }

  it('an examiner signs in, sees their name and role, switches to Arabic (right to left), and signs out', async () => {
    const page = await open();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect(await page.getByRole('status').count()).toBe(0); // a first visit: no "session ended"
    await signInAs(page, 'ines haddad');
    await expect.poll(() => page.getByTestId('account-role').textContent()).toBe('Role: Examiner');
    expect(await page.getByTestId('account-name').textContent()).toBe(EXAMINER);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    expect(await js(page, '[document.documentElement.lang, document.documentElement.dir]')).toEqual(
      ['en', 'ltr'],
    );
    const ltrBrand = await page.locator('.banner .brand').boundingBox();
    const ltrAccount = await page.locator('.banner .account').boundingBox();
    expect(ltrBrand!.x).toBeLessThan(ltrAccount!.x);

    await page.getByRole('button', { name: 'العربية' }).click();
    await expect.poll(() => js(page, 'document.documentElement.dir')).toBe('rtl');
    expect(await js(page, 'document.documentElement.lang')).toBe('ar');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('نظرة عامة');
    expect(await page.getByTestId('account-role').textContent()).toBe('الدور: فاحص');
    // The layout mirrors: the brand now sits on the right, the account on the left.
    const rtlBrand = await page.locator('.banner .brand').boundingBox();
    const rtlAccount = await page.locator('.banner .account').boundingBox();
    expect(rtlBrand!.x).toBeGreaterThan(rtlAccount!.x);
    // The bundled Arabic font is the one in use, served by this server.
    await expect
      .poll(() => js(page, `document.fonts.check('16px "Noto Sans Arabic"', 'نظرة')`))
      .toBe(true);

    // A reload keeps the language (stored in the browser) and the session (the cookie).
    await page.reload();
    await expect.poll(() => page.getByTestId('account-role').textContent()).toBe('الدور: فاحص');
    expect(await js(page, 'document.documentElement.dir')).toBe('rtl');

    const signOut = page.waitForResponse(
      (r) => r.url() === `${base}/api/session` && r.request().method() === 'DELETE',
    );
    await page.getByRole('button', { name: 'تسجيل الخروج' }).click();
    const response = await signOut;
    // DELETE changes state: it carries the session's CSRF token, or the server would refuse it (403).
    expect(response.request().headers()['x-csrf-token']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.status()).toBe(204);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('تسجيل الدخول');
    expect(await page.getByRole('status').textContent()).toBe('لقد سجّلت الخروج.');
    const after = await page.request.get(`${base}/api/session`);
    expect(after.status()).toBe(401);
    expect(foreign).toEqual([]);
  });

  it('a wrong password shows an error, and nobody is signed in', async () => {
    const page = await open();
    await signInAs(page, EXAMINER, 'not the password');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The name or password is wrong, or the account is disabled.');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect((await page.context().cookies()).filter((c) => c.name === 'custody_session')).toEqual(
      [],
    );
    expect(await page.getByLabel('Password').inputValue()).toBe('not the password');
    expect(foreign).toEqual([]);
  });

  it('a session that ends (idle timeout) brings the next request back to the sign-in page', async () => {
    const page = await open();
    await signInAs(page, EXAMINER);
    await expect.poll(() => page.getByTestId('account-role').textContent()).toBe('Role: Examiner');
    // A page's own URL loads the UI (the server's fallback), here the not-found page.
    await page.goto(`${base}/no-such-page`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Page not found');
    now += IDLE_MS + 60_000;
    try {
      await page.getByRole('link', { name: 'Go to the overview' }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Sign in');
      expect(await page.getByRole('status').textContent()).toBe(
        'Your session ended. Please sign in again.',
      );
      await signInAs(page, EXAMINER);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Overview');
    } finally {
      now += 1000;
    }
    expect(foreign).toEqual([]);
  });

  it('the overview shows the counts, a calm empty state, and the signed checkpoint checked in the page, hex and base64 side by side', async () => {
    const page = await open();
    await signInAs(page, 'Omar Auditor');
    await expect.poll(() => page.getByTestId('count-items').locator('dd').textContent()).toBe('0');
    expect(
      await page.getByRole('heading', { name: 'No evidence has been received yet' }).count(),
    ).toBe(1);
    expect(await page.getByTestId('account-role').textContent()).toBe('Role: Auditor');
    const sizeText = await page.getByTestId('checkpoint-size').textContent();
    const size = Number(sizeText);
    expect(size).toBeGreaterThan(0);
    // The root the page shows is the one the archive's key signed at that size.
    const note = await served.open.ledger.checkpointAt(size);
    const cp = verifyCheckpoint(note!, parseVerifierKey(served.open.verifierKey));
    expect(await page.getByTestId('root-hex').textContent()).toBe(cp.root.toString('hex'));
    expect(await page.getByTestId('root-base64').textContent()).toBe(cp.root.toString('base64'));
    expect(await page.getByTestId('checkpoint-verified').textContent()).toContain(
      'checked in this browser',
    );
    expect(
      await page
        .getByRole('region', { name: 'Latest signed checkpoint' })
        .getByText('it cannot protect against this server')
        .count(),
    ).toBe(1);
    expect(foreign).toEqual([]);
  });

  it('the overview runs a verification, shows it passed, and the ledger records it naming the auditor; an examiner has no button', async () => {
    const page = await open();
    await signInAs(page, 'Omar Auditor');
    await expect.poll(() => page.getByTestId('verify-now').isVisible()).toBe(true);
    const before = served.open.ledger.size;
    await page.getByTestId('verify-now').click();
    await expect
      .poll(() => page.getByTestId('verification-result').textContent(), { timeout: 60_000 })
      .toMatch(/^Passed/);
    await served.server.custody.verifications.settled();
    const fixity = (await served.open.ledger.read(before, served.open.ledger.size)).filter(
      (e) => e.entry.type === 'fixity check',
    );
    expect(fixity.map((e) => [e.entry.actor, e.entry.details.result])).toEqual([
      [served.accounts.get('Omar Auditor'), 'pass'],
    ]);
    expect(await page.getByTestId('verification-last').textContent()).toContain('you');
    const examiner = await open();
    await signInAs(examiner, EXAMINER);
    await expect.poll(() => examiner.getByTestId('verification-result').isVisible()).toBe(true);
    expect(await examiner.getByTestId('verify-now').count()).toBe(0);
  });

  it('the checkpoint check in the page refuses a note whose root was edited', async () => {
    const page = await open();
    await signInAs(page, 'Omar Auditor');
    await page.getByTestId('checkpoint-verified').waitFor();
    await page.route(`${base}/api/status`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { checkpoint_note: string };
      const lines = body.checkpoint_note.split('\n');
      lines[2] = Buffer.alloc(32, 7).toString('base64'); // another root, same signature
      await route.fulfill({ response, json: { ...body, checkpoint_note: lines.join('\n') } });
    });
    await page.reload();
    await expect
      .poll(() => page.getByTestId('checkpoint-failed').textContent())
      .toContain('NOTE_NO_VALID_SIGNATURE');
    expect(await page.getByTestId('checkpoint-verified').count()).toBe(0);
    expect(await page.getByTestId('root-hex').count()).toBe(0);
  });

  it('the overview counts what the archive holds: items, deliveries, stored files (in Arabic too)', async () => {
    const sources = await makeTempDir('web-ui-deliveries');
    const full = await servedArchive('web-ui-full', [['Rana Investigator', 'investigator']], {
      server: { uiDir: UI_DIR },
      before: async (a) => {
        for (const [i, count] of [3, 2].entries()) {
          const dir = join(sources, `delivery-${i}`);
          await writeExtraFiles(dir, count);
          const args = ['ingest', dir, '--source', `SRC-${i}`, '--new-source', '--archive', a.dir];
          await custodyInExpect(0, args, a.env);
        }
      },
    });
    const fullBase = await full.server.listen({ port: 0, host: '127.0.0.1' });
    try {
      context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'en-GB',
      });
      const page = await context.newPage();
      await page.goto(fullBase);
      await signInAs(page, 'Rana Investigator');
      const count = (key: string) => page.getByTestId(`count-${key}`).locator('dd').textContent();
      await expect.poll(() => count('items')).toBe('5');
      expect(await count('deliveries')).toBe('2');
      expect(await count('objects')).toBe('5');
      expect(await page.getByText('No evidence has been received yet').count()).toBe(0);
      expect(await page.getByTestId('account-role').textContent()).toBe('Role: Investigator');
      await page.getByRole('button', { name: 'العربية' }).click();
      await expect.poll(() => page.getByTestId('account-role').textContent()).toBe('الدور: محقق');
      expect(await page.getByTestId('count-deliveries').locator('dt').textContent()).toBe(
        'الدفعات المستلمة',
      );
      await page.screenshot({ path: join(SHOTS, 'overview-with-items.ar.png'), fullPage: true });
    } finally {
      await full.close();
    }
  });

  it('the accessibility check fails on a page with serious violations (an image with no text, an unnamed button, unreadable contrast)', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>planted</title></head><body><main>' +
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' +
        '<button></button>' +
        '<p style="color:#777;background:#888">low contrast</p></main></body></html>',
    );
    // The assertion's actual value lists the serious violations, one line each.
    const found = await expectNoSeriousA11yViolations(page, 'planted').then(
      () => [],
      (e: Error & { actual?: unknown }) => (Array.isArray(e.actual) ? e.actual.map(String) : [e.message]),
    );
    expect(found.map((v) => v.split(' ')[0]).sort()).toEqual(['button-name', 'color-contrast', 'image-alt']);
  });

  for (const lang of ['en', 'ar'] as const) {
    it(`sign-in and overview in ${lang}: keyboard first, no serious or critical axe violations, screenshots`, async () => {
      const page = await open(lang);
      await expect.poll(() => js(page, 'document.documentElement.lang')).toBe(lang);
      await page.getByLabel(/^(Name|الاسم)$/).waitFor();
      await expectNoSeriousA11yViolations(page, `sign-in (${lang})`);
      await page.screenshot({ path: join(SHOTS, `sign-in.${lang}.png`), fullPage: true });

      // Keyboard only: the name field has focus, Tab reaches the password, Enter submits.
      await page.keyboard.type(EXAMINER);
      await page.keyboard.press('Tab');
      await page.keyboard.type(TEST_PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByTestId('account-role').waitFor();
      await page.getByTestId('count-items').waitFor();
      // The first Tab reaches the skip link, which moves focus to the main content.
      await page.keyboard.press('Tab');
      expect(await js(page, 'document.activeElement?.className')).toBe('skip-link');
      await page.keyboard.press('Enter');
      expect(await js(page, 'document.activeElement?.id')).toBe('main');
      await expectNoSeriousA11yViolations(page, `overview (${lang})`);
      await page.screenshot({ path: join(SHOTS, `overview.${lang}.png`), fullPage: true });
      expect(foreign).toEqual([]);
    });
  }
});
