// Issue 13, "Ledger and audit (auditor role)": the ledger with filters, the latest checkpoint,
// who viewed what, and the verification runs, in a real browser against a real server. Also
// issue 13's test 3, the auditor's half: a reveal of an original appears here, naming the account.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestEvidence } from '../../support/server-evidence.js';
import { servedArchive, signIn, type ServedArchive } from '../../support/server.js';
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

interface ItemRow {
  id: string;
  name: string;
}

describe.skipIf(skipBrowser('audit page browser tests'))('the audit page in Chromium', () => {
  let served: ServedArchive;
  let base: string;
  let browser: Browser;
  let pages: KeptPages;
  let viewed: ItemRow;

  beforeAll(async () => {
    assertUiBuilt();
    served = await servedArchive(
      'audit-page',
      [
        ['Omar Auditor', 'auditor'],
        ['Rana Investigator', 'investigator'],
        ['Ines Examiner', 'examiner'],
      ],
      { server: { uiDir: UI_DIR }, before: ingestEvidence },
    );
    base = await served.server.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    pages = new KeptPages(browser);
    await mkdir(SHOTS, { recursive: true });
    // The investigator looks at one original (an audited view) and runs a verification.
    const rana = await signIn(served.server, 'Rana Investigator');
    const items = (await rana.request('GET', '/api/items?sort=name')).json<{ items: ItemRow[] }>()
      .items;
    viewed = items.find((i) => i.name === 'b.jpg')!;
    expect((await rana.request('GET', `/api/items/${viewed.id}/original`)).statusCode).toBe(200);
    expect((await rana.request('POST', '/api/verifications')).statusCode).toBe(202);
    await served.server.custody.verifications.settled();
  }, 180_000);

  afterAll(async () => {
    await pages?.close();
    await browser?.close();
    await served?.close();
  });

  async function open(lang: 'en' | 'ar', path = '/'): Promise<Page> {
    const { page } = await pages.use({
      viewport: { width: 1280, height: 900 },
      locale: lang === 'ar' ? 'ar' : 'en-GB',
    });
    await page.goto(base + path);
    return page;
  }

  it('the auditor reaches the ledger from the navigation, newest entry first, with the signed checkpoint', async () => {
    const page = await open('en');
    await signInThroughForm(page, 'Omar Auditor');
    await page.getByRole('link', { name: 'Audit' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Ledger and audit');
    await expect.poll(() => page.getByTestId('ledger-table').isVisible()).toBe(true);
    const firstSeq = await page
      .locator('[data-testid=ledger-table] tbody tr')
      .first()
      .locator('td')
      .first()
      .textContent();
    const size = served.open.ledger.size;
    // The newest entry heads the table (the auditor's own sign-in, or later).
    expect(Number(firstSeq)).toBeGreaterThanOrEqual(size - 2);
    expect(await page.getByTestId('audit-checkpoint').textContent()).toMatch(
      /The latest signed checkpoint covers \d+ of \d+ entries/,
    );
  });

  it('filters the ledger to one item: only entries naming it, and the filter is in the URL', async () => {
    const page = await open('en', '/audit');
    await signInThroughForm(page, 'Omar Auditor');
    await page.getByLabel('Identifier').fill(viewed.id.toLowerCase());
    // The rows are read once the filtered page has come back. The URL alone is no sign of it: it
    // changes before the page renders under the new filter, and the unfiltered rows shown until
    // then include entries that do not name the item (a run on a loaded machine read them).
    const filtered = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/ledger' && url.searchParams.get('item') === viewed.id;
    });
    await page.getByRole('button', { name: 'Filter' }).click();
    await filtered;
    await expect.poll(() => page.url()).toContain(`of_item=${viewed.id}`);
    await expect
      .poll(() => page.locator('[data-testid=ledger-table] tbody tr').count())
      .toBeGreaterThan(0);
    const actions = await page
      .locator('[data-testid=ledger-table] tbody tr td:nth-child(5)')
      .allTextContents();
    expect(actions).toContain('view.original');
    // every row names the item: the server's trail, checked here against the ledger itself
    const seqs = (
      await page.locator('[data-testid=ledger-table] tbody tr td:first-child').allTextContents()
    ).map(Number);
    for (const seq of seqs) {
      const [e] = await served.open.ledger.read(seq, seq + 1);
      expect(JSON.stringify(e!.entry)).toMatch(
        new RegExp(`${viewed.id}|${(await served.open.index.getItem(viewed.id))!.sha256}`),
      );
    }
    // A value that is not an id is refused in the page, and nothing is asked of the server.
    await page.getByLabel('Identifier').fill("1' OR 1=1 --");
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('26 letters and digits');
  });

  it('lists who viewed which original, naming the account, and the verifications recorded', async () => {
    const page = await open('en', '/audit?tab=views');
    await signInThroughForm(page, 'Omar Auditor');
    await expect.poll(() => page.getByTestId('views-table').isVisible()).toBe(true);
    const row = page.locator('[data-testid=views-table] tbody tr').first();
    expect(await row.textContent()).toContain(served.accounts.get('Rana Investigator')!);
    expect(await row.textContent()).toContain('Original downloaded');
    expect(await row.textContent()).toContain(viewed.id);
    await page.getByRole('link', { name: 'Verifications' }).click();
    await expect.poll(() => page.getByTestId('verifications-table').isVisible()).toBe(true);
    const run = await page
      .locator('[data-testid=verifications-table] tbody tr')
      .first()
      .textContent();
    expect(run).toContain('Passed');
    expect(run).toContain(served.accounts.get('Rana Investigator')!);
  });

  it('an examiner has no audit page in the navigation, and the server refuses the ledger to them', async () => {
    const page = await open('en');
    await signInThroughForm(page, 'Ines Examiner');
    await expect.poll(() => page.getByTestId('account-role').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await page.goto(`${base}/audit`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/could not be loaded/);
  });

  for (const lang of ['en', 'ar'] as const)
    it(`the audit page in ${lang}: no serious or critical axe violations, screenshots`, async () => {
      const page = await open(lang, '/audit');
      await signInThroughForm(page, 'Omar Auditor');
      await expect.poll(() => page.getByTestId('ledger-table').isVisible()).toBe(true);
      if (lang === 'ar')
        expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
      await expectNoSeriousA11yViolations(page, `audit ledger (${lang})`);
      await page.screenshot({ path: join(SHOTS, `audit-ledger.${lang}.png`), fullPage: true });
      await page.goto(`${base}/audit?tab=views`);
      await expect.poll(() => page.getByTestId('views-table').isVisible()).toBe(true);
      await expectNoSeriousA11yViolations(page, `audit views (${lang})`);
      await page.screenshot({ path: join(SHOTS, `audit-views.${lang}.png`), fullPage: true });
    });
});
