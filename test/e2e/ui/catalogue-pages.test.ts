// Issue 13, the subjects, units, linking and statistics pages, in a real browser (playwright-core
// driving Debian's Chromium, never downloaded) against a real server, over an archive made through
// the CLI in-process: 24 catalogued subjects with a photograph each, near-duplicate copies of three
// of them left unlinked, a unit tree named in Arabic and English, and a stratified plan examined
// by two examiners and adjudicated. Browser tests 6 (link photographs from suggestions) and 7 (the
// statistics page); axe on each page in English and Arabic; screenshots ($CI_ARTIFACTS_DIR, else
// artifacts/, in ui-screenshots/).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
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
import { UNITS } from '../../../src/demo/examination-world.js';
import { custodyInExpect, type TestArchive } from '../../support/archive-fixtures.js';
import {
  buildCatalogue,
  COPIED,
  PARENT_UNIT,
  PLAN,
  type Catalogue,
} from '../../support/catalogue-fixtures.js';
import { servedArchive, TEST_PASSWORD, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const INVESTIGATOR = 'Rana Investigator';
/** A role that reads the catalogue but may not change it (no catalogue.write). */
const ANALYST = 'Omar Analyst';
/** Krippendorff's thresholds, written out here as the oracle of the page's reading. */
const bandOf = (alpha: number | null): string =>
  alpha === null
    ? 'not-computable'
    : alpha >= 0.8
      ? 'reliable'
      : alpha >= 0.667
        ? 'tentative'
        : 'no-conclusion';
const SUBJECTS = 24;

interface Stats {
  checkpoint: { tree_size: number; root: string };
  findings: {
    code: string;
    label: string;
    present: number;
    assessed: number;
    stratified: { estimate: number; interval: { method: string } } | null;
    agreement: { coefficients: { name: string; value: number | null }[] } | null;
  }[];
}

describe.skipIf(skipBrowser('catalogue page tests'))(
  'the catalogue and statistics pages in Chromium',
  () => {
    let served: ServedArchive;
    let cat: Catalogue;
    let base: string;
    let browser: Browser;
    let pages: KeptPages;
    /** Every preview the current page asked for. */
    let previews: string[] = [];

    beforeAll(async () => {
      assertUiBuilt();
      // Examined before any account exists: the examiners are then free-text names, as in the demo.
      const archive: TestArchive = {
        dir: join(await makeTempDir('catalogue-pages'), 'archive'),
        origin: '',
        verifierKey: '',
        env: {},
      };
      await custodyInExpect(0, ['init', '--archive', archive.dir]);
      cat = await buildCatalogue(archive, { subjects: SUBJECTS, examine: true });
      served = await servedArchive(
        'catalogue-pages',
        [
          [INVESTIGATOR, 'investigator'],
          [ANALYST, 'analyst'],
        ],
        {
          reuse: archive,
          server: { uiDir: UI_DIR },
        },
      );
      base = await served.server.listen({ port: 0, host: '127.0.0.1' });
      browser = await launchChromium();
      pages = new KeptPages(browser);
      await mkdir(SHOTS, { recursive: true });
    }, 300_000);

    afterAll(async () => {
      await pages?.close();
      await browser?.close();
      await served?.close();
    });

    async function open(lang: 'en' | 'ar', path = '/', who = INVESTIGATOR): Promise<Page> {
      const { page } = await pages.use({
        viewport: { width: 1280, height: 900 },
        locale: lang === 'ar' ? 'ar' : 'en-GB',
      });
      previews = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (/^\/api\/items\/[^/]+\/(preview|original)/.test(url.pathname))
          previews.push(url.pathname + url.search);
      });
      await page.goto(`${base}${path}`);
      await page.getByLabel(/^(Name|الاسم)$/).fill(who);
      await page.getByLabel(/^(Password|كلمة المرور)$/).fill(TEST_PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('account-role').waitFor();
      await expect
        .poll(() => page.evaluate<string>('document.documentElement.dir'))
        .toBe(lang === 'ar' ? 'rtl' : 'ltr');
      return page;
    }

    const shot = (page: Page, name: string) =>
      page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    const onlyBlurred = () => {
      expect(previews.length).toBeGreaterThan(0);
      expect(previews.every((p) => /\/preview\?size=256$/.test(p))).toBe(true);
    };
    const subjectNumber = (i: number) => cat.subjects[i]!.number;
    const unitOf = (i: number) => UNITS.find((u) => u.code === cat.subjects[i]!.unitCode)!;

    it('subjects list → subject page: the number and its parts, the unit, blurred photographs, the history', async () => {
      const page = await open('en');
      await page.getByRole('link', { name: 'Subjects', exact: true }).click();
      await expect
        .poll(() => page.getByTestId('subject-count').textContent())
        .toBe(`Subjects: ${SUBJECTS}`);
      // 20 to a page, the page in the URL.
      expect(await page.getByTestId('subject-row').count()).toBe(20);
      expect(
        await page.getByRole('navigation', { name: 'Pages of subjects' }).textContent(),
      ).toContain('Page 1 of 2');
      await expectNoSeriousA11yViolations(page, 'subjects list (en)');
      await shot(page, 'subjects.en');
      await page.getByRole('link', { name: 'Next page' }).click();
      await expect.poll(() => page.getByTestId('subject-row').count()).toBe(SUBJECTS - 20);
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      await page.reload();
      await expect.poll(() => page.getByTestId('subject-row').count()).toBe(SUBJECTS - 20);
      await page.getByRole('link', { name: 'Previous page' }).click();
      await expect.poll(() => page.getByTestId('subject-row').count()).toBe(20);

      // Keyboard: the subject's link is reached and followed with Enter.
      const link = page.getByRole('link', { name: subjectNumber(4), exact: true });
      await link.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('id')).toBe(cat.subjectIds[4]);
      await expect
        .poll(() => page.getByTestId('subject-heading').textContent())
        .toContain(subjectNumber(4));
      expect(await page.getByTestId('subject-number').textContent()).toBe(subjectNumber(4));
      const [detainee, branch, report] = subjectNumber(4).split('/');
      const parts = await page.getByTestId('number-fields').textContent();
      for (const p of [detainee, branch, report]) expect(parts).toContain(String(Number(p)));
      const unit = await page.getByTestId('subject-unit').textContent();
      expect(unit).toContain(unitOf(4).name_en);
      expect(unit).toContain(unitOf(4).name_ar);
      await expect
        .poll(() =>
          page.evaluate<number>(
            `[...document.querySelectorAll('[data-testid=subject-photos] img')].filter((i) => i.complete && i.naturalWidth > 0).length`,
          ),
        )
        .toBe(1);
      // The tiny blurred preview, scaled up to its thumbnail, greyscale and blurred (issue 14).
      await expectBlurredTiles(page, '[data-testid=subject-photos] img', 120);
      onlyBlurred();
      const history = page.getByTestId('history-row');
      expect(await history.count()).toBeGreaterThan(0);
      expect(await history.first().textContent()).toContain(
        'catalogue cards transcribed (synthetic)',
      );
      await expectNoSeriousA11yViolations(page, 'subject page (en)');
      await shot(page, 'subject.en');
    });

    it('in Arabic, the units tree is right to left with the Arabic names, each branch under its directorate', async () => {
      const page = await open('ar', '/units');
      await page.getByTestId('unit-tree').first().waitFor();
      const names = await page.getByTestId('unit-name').allTextContents();
      expect(names).toContain(PARENT_UNIT.name_ar);
      for (const u of UNITS) expect(names).toContain(u.name_ar);
      // The branches sit in the directorate's own list.
      const parent = page.locator('[data-testid=unit]', { hasText: PARENT_UNIT.name_ar }).first();
      const children = await parent
        .locator('[data-testid=unit] [data-testid=unit-name]')
        .allTextContents();
      expect(children.sort()).toEqual(UNITS.map((u) => u.name_ar).sort());
      expect(
        await page.evaluate<string>(
          `getComputedStyle(document.querySelector('[data-testid=unit-tree]')).direction`,
        ),
      ).toBe('rtl');
      // A branch is indented from the right in Arabic: its name starts left of its parent's.
      const top = await parent.getByTestId('unit-name').first().boundingBox();
      const child = await parent
        .locator('[data-testid=unit] [data-testid=unit-name]')
        .first()
        .boundingBox();
      expect(child!.x + child!.width).toBeLessThan(top!.x + top!.width);
      await expectNoSeriousA11yViolations(page, 'units (ar)');
      await shot(page, 'units.ar');
      // And the subjects' pages in Arabic.
      await page.getByRole('link', { name: 'الأشخاص', exact: true }).click();
      await page.getByTestId('subject-row').first().waitFor();
      await expectNoSeriousA11yViolations(page, 'subjects list (ar)');
      await shot(page, 'subjects.ar');
      await page.getByTestId('subject-row').first().getByRole('link').click();
      await page.getByTestId('history-row').first().waitFor();
      expect(await page.getByTestId('subject-unit').textContent()).toMatch(/[\u0600-\u06ff]/);
      await expectNoSeriousA11yViolations(page, 'subject page (ar)');
      await shot(page, 'subject.ar');
    });

    it('units in English, with the Arabic names beside them', async () => {
      const page = await open('en', '/units');
      await page.getByTestId('unit-tree').first().waitFor();
      const names = await page.getByTestId('unit-name').allTextContents();
      expect(names).toContain(PARENT_UNIT.name_en);
      expect(await page.getByTestId('unit-tree').first().textContent()).toContain(
        PARENT_UNIT.name_ar,
      );
      await expectNoSeriousA11yViolations(page, 'units (en)');
      await shot(page, 'units.en');
    });

    it('links photographs from the suggestions, selected by keyboard and by click, with a reason; the ledger entry names the reason and the account; the subject history shows it (browser test 6)', async () => {
      const page = await open('en', '/linking');
      await expect.poll(() => page.getByTestId('suggestion').count()).toBe(COPIED.length);
      await expectNoSeriousA11yViolations(page, 'linking (en)');
      await shot(page, 'linking.en');
      await expectBlurredTiles(page, '[data-testid=suggestion] .thumb-check img', 120);
      onlyBlurred();
      const before = served.open.ledger.size;

      // Nothing selected: refused in the page, nothing sent.
      await page.getByLabel('Reason').fill('x');
      await page.getByRole('button', { name: 'Link the selected photographs' }).click();
      await expect
        .poll(() => page.getByTestId('link-failed').textContent())
        .toBe('Select at least one photograph.');

      // Keyboard: from the toolbar, Tab to the first suggestion's checkbox, Space to select it.
      await page.getByRole('button', { name: 'Clear the selection' }).focus();
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate<string>(`document.activeElement?.getAttribute('data-testid')`),
      ).toBe('suggestion-check');
      await page.keyboard.press('Space');
      // And a photograph of another suggestion by click.
      const cards = page.getByTestId('suggestion');
      await cards.nth(1).getByTestId('photo-check').click();
      await expect
        .poll(() => page.getByTestId('selection-count').textContent())
        .toBe('Selected: 2 photographs for 2 subjects');
      const chosen = await Promise.all(
        [0, 1].map(async (n) => cards.nth(n).getAttribute('data-suggestion')),
      );
      const suggestions = (await (
        await page.request.get(`${base}/api/link-suggestions`)
      ).json()) as { suggestions: { id: string; subjects: string[]; items: string[] }[] };
      const picked = chosen.map((id) => suggestions.suggestions.find((s) => s.id === id)!);

      const reason = 'near-duplicate of the catalogued photograph; same card visible';
      await page.getByLabel('Reason').fill(reason);
      await page.getByRole('button', { name: 'Link the selected photographs' }).click();
      const done = page.getByTestId('link-done');
      await expect
        .poll(() => done.textContent())
        .toMatch(/Linked 2 photographs\. Recorded in the ledger as entries \d+, \d+\./);

      const entries = (await served.open.ledger.read(before, served.open.ledger.size)).map(
        (e) => e.entry,
      );
      const links = entries.filter((e) => e.details.action === 'subject.link');
      expect(links).toHaveLength(2);
      for (const e of links) {
        expect(e.actor).toBe(served.accounts.get(INVESTIGATOR));
        expect(e.details.reason).toBe(reason);
      }
      expect(
        links.map((e) => [(e.details.subject as { id: string }).id, e.details.items]).sort(),
      ).toEqual(picked.map((s) => [s.subjects[0], s.items]).sort());
      expect(await done.textContent()).toContain(`entries ${links.map((e) => e.seq).join(', ')}`);
      // The accepted suggestions are gone; the third remains.
      await expect.poll(() => page.getByTestId('suggestion').count()).toBe(COPIED.length - 2);

      // The subject's history shows the entry, with its reason.
      await done.getByRole('link').first().click();
      const row = page.locator(`[data-testid=history-row][data-seq="${links[0]!.seq}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain(reason);
      expect(await row.textContent()).toContain('Photographs linked');
      await expect.poll(() => page.locator('[data-testid=subject-photos] img').count()).toBe(2);

      // In Arabic: the remaining suggestion, right to left, axe clean.
      const ar = await open('ar', '/linking');
      await expect.poll(() => ar.getByTestId('suggestion').count()).toBe(COPIED.length - 2);
      await expectNoSeriousA11yViolations(ar, 'linking (ar)');
      await shot(ar, 'linking.ar');
    });

    it('unlinks a photograph from the subject page with a required reason: it is gone from the subject, the ledger entry names the reason and the account, the history shows it; a role without catalogue.write is offered no unlinking', async () => {
      const i = 7;
      const subject = cat.subjectIds[i]!;
      const item = cat.items.get(`subject-${String(cat.subjects[i]!.index).padStart(2, '0')}.jpg`)!;
      expect(item).toBeDefined();
      const page = await open('en', `/subjects?id=${subject}`);
      const photos = page.locator('[data-testid=subject-photos] li');
      await expect.poll(() => photos.count()).toBe(1);
      expect(await photos.first().getAttribute('data-item')).toBe(item);
      const before = served.open.ledger.size;
      const submit = page.getByRole('button', { name: /^Unlink the selected photographs/ });

      // Refused in the page, nothing sent: no photograph selected, then no reason.
      await submit.click();
      await expect
        .poll(() => page.getByTestId('unlink-failed').textContent())
        .toBe('Select at least one photograph to unlink.');
      await page.getByTestId('unlink-check').check();
      await page.getByLabel('Reason for unlinking').fill('   ');
      await submit.click();
      await expect
        .poll(() => page.getByTestId('unlink-failed').textContent())
        .toBe('Give a reason: every change to the catalogue needs one.');
      // Nothing was unlinked. (The ledger may have grown meanwhile by what the page itself
      // records, such as its audited reads, so the check is on what an unlinking would append.)
      const refused = (await served.open.ledger.read(before, served.open.ledger.size)).filter(
        (e) => e.entry.details.action === 'subject.unlink',
      );
      expect(refused).toEqual([]);

      const reason = 'photograph shows another detainee: card number differs (synthetic)';
      await page.getByLabel('Reason for unlinking').fill(reason);
      await expect.poll(() => submit.textContent()).toBe('Unlink the selected photographs (1)');
      await submit.click();
      await expect
        .poll(() => page.getByTestId('unlink-done').textContent())
        .toContain('Photographs unlinked from this subject: 1.');
      // Gone from the subject, in the page and in what the server says. The page reloads the
      // subject after the unlinking, and while it does, the list is gone without the "none" line
      // (a count of 0 there is not yet the answer): both are waited for.
      await expect
        .poll(() => page.getByText('No photographs are linked to this subject.').count())
        .toBe(1);
      expect(await photos.count()).toBe(0);
      const detail = (await (await page.request.get(`${base}/api/subjects/${subject}`)).json()) as {
        items: string[];
      };
      expect(detail.items).toEqual([]);

      // One 'subject.unlink' entry, with the reason, the account and the photograph.
      const entries = (await served.open.ledger.read(before, served.open.ledger.size)).map(
        (e) => e.entry,
      );
      const unlinks = entries.filter((e) => e.details.action === 'subject.unlink');
      expect(unlinks).toHaveLength(1);
      const entry = unlinks[0]!;
      expect(entry.actor).toBe(served.accounts.get(INVESTIGATOR));
      expect(entry.details.reason).toBe(reason);
      expect(entry.details.items).toEqual([item]);
      expect((entry.details.subject as { id: string }).id).toBe(subject);
      const row = page.locator(`[data-testid=history-row][data-seq="${entry.seq}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain(reason);
      expect(await row.textContent()).toContain('Photographs unlinked');
      await expectNoSeriousA11yViolations(page, 'subject page, after unlinking (en)');

      // In Arabic, another subject: the unlinking form in Arabic, right to left.
      const ar = await open('ar', `/subjects?id=${cat.subjectIds[6]!}`);
      await ar.getByTestId('unlink-check').waitFor();
      expect(await ar.getByRole('heading', { name: 'فكّ ربط الصور' }).count()).toBe(1);
      expect(await ar.getByLabel('سبب فكّ الربط').count()).toBe(1);
      await expectNoSeriousA11yViolations(ar, 'subject page with unlinking (ar)');
      await shot(ar, 'subject-unlink.ar');

      // An analyst reads the subject but is offered no unlinking.
      const analyst = await open('en', `/subjects?id=${cat.subjectIds[6]!}`, ANALYST);
      await expect.poll(() => analyst.locator('[data-testid=subject-photos] li').count()).toBe(1);
      expect(await analyst.getByTestId('unlink-check').count()).toBe(0);
      expect(await analyst.getByRole('button', { name: /^Unlink/ }).count()).toBe(0);
    });

    for (const lang of ['en', 'ar'] as const) {
      it(`the statistics page (${lang}): weighted estimates named as weighted, raw counts, intervals with their method, agreement on Krippendorff's scale, the breakdown by unit, and the checkpoint of every figure (browser test 7)`, async () => {
        const page = await open(lang, '/statistics');
        // The archive's plans are offered (GET /api/statistics), as links and in the box's list.
        await expect.poll(() => page.getByTestId('plan-links').textContent()).toContain(PLAN);
        await page.locator('#plan-name').fill(PLAN);
        // The oracle is the answer the page itself received: a sign-in since may have let the
        // server sign a later checkpoint, and each checkpoint has its own figures.
        const answer = page.waitForResponse(
          (r) => new URL(r.url()).pathname === `/api/statistics/${PLAN}`,
        );
        await page.locator('#plan-name').press('Enter');
        const stats = (await (await answer).json()) as Stats;
        await expect.poll(() => new URL(page.url()).searchParams.get('plan')).toBe(PLAN);
        await page.getByTestId('prevalence-table').waitFor();
        const size = new Intl.NumberFormat(lang).format(stats.checkpoint.tree_size);
        expect(await page.getByTestId('stats-checkpoint-size').textContent()).toBe(size);
        expect(await page.getByTestId('stats-checkpoint-root').textContent()).toBe(
          stats.checkpoint.root,
        );
        // Every table names the checkpoint its figures come from.
        const captions = await page.locator('table caption').allTextContents();
        expect(captions.length).toBe(2 + stats.findings.length);
        const caption = lang === 'ar' ? `عند نقطة التحقق ${size}` : `At checkpoint ${size}`;
        for (const c of captions) expect(c).toContain(caption);

        const weighted = stats.findings.filter((f) => f.stratified !== null);
        expect(weighted.length).toBeGreaterThan(0);
        for (const f of weighted) {
          const row = page.locator(`[data-testid=prevalence-row][data-finding="${f.code}"]`);
          const text = (await row.textContent()) ?? '';
          expect(text).toContain(lang === 'ar' ? 'تقدير مرجَّح' : 'Weighted estimate');
          expect(text).toContain(f.stratified!.interval.method);
          expect(text).toContain(
            lang === 'ar'
              ? `${new Intl.NumberFormat('ar').format(f.present)} من ${new Intl.NumberFormat('ar').format(f.assessed)}`
              : `${f.present} of ${f.assessed} assessed`,
          );
        }
        // Agreement: each finding read on Krippendorff's scale, "no conclusion" below 0.667.
        const bands = new Set<string>();
        for (const f of stats.findings) {
          const alpha =
            f.agreement?.coefficients.find((c) => c.name === 'krippendorff_alpha')?.value ?? null;
          const row = page.locator(`[data-testid=agreement-row][data-finding="${f.code}"]`);
          expect(await row.getAttribute('data-band'), f.code).toBe(bandOf(alpha));
          bands.add(bandOf(alpha));
        }
        const scale = (await page.getByTestId('agreement-scale').textContent()) ?? '';
        expect(scale).toContain('0.667');
        expect(scale).toContain('0.800');
        if (lang === 'en') {
          expect(scale).toContain('Below 0.667: no conclusion');
          if (bands.has('no-conclusion'))
            expect(await page.getByTestId('agreement-table').textContent()).toContain(
              'No conclusion',
            );
        }
        // The breakdown by unit: a table per finding, a row per unit, with an interval and its method.
        expect(await page.getByTestId('unit-breakdown').count()).toBe(stats.findings.length);
        const first = (await page.getByTestId('unit-breakdown').first().textContent()) ?? '';
        expect(first).toContain('Wilson');
        expect(first).toMatch(lang === 'ar' ? /فرع/ : /Branch \d+/);
        // The prevalence chart: the server's SVG of the report's chart, loaded as an image, with
        // alternative text, and a caption naming the plan and the checkpoint it was drawn at.
        const chart = page.getByTestId('prevalence-chart');
        // The chart, or the page's alert saying why there is none (its message is the server's).
        await page.locator('[data-testid=prevalence-chart], [data-testid=chart-failed]').waitFor();
        const failed = page.getByTestId('chart-failed');
        if ((await failed.count()) > 0) expect.fail(`no chart: ${await failed.textContent()}`);
        await expect
          .poll(() =>
            page.evaluate<number>(
              `(() => { const i = document.querySelector('[data-testid=prevalence-chart] img'); return i !== null && i.complete ? i.naturalWidth : 0; })()`,
            ),
          )
          .toBeGreaterThan(0);
        expect(await chart.locator('img').getAttribute('alt')).toMatch(
          lang === 'ar' ? /مخطط انتشار/ : /^Chart of the prevalence of \d+ findings/,
        );
        const drawnAt = Number(await chart.locator('img').getAttribute('data-checkpoint'));
        expect(drawnAt).toBeGreaterThanOrEqual(stats.checkpoint.tree_size);
        const chartCaption = (await chart.locator('figcaption').textContent()) ?? '';
        expect(chartCaption).toContain(PLAN);
        expect(chartCaption).toContain(
          lang === 'ar'
            ? `عند نقطة التحقق ${new Intl.NumberFormat('ar').format(drawnAt)}`
            : `At checkpoint ${new Intl.NumberFormat('en').format(drawnAt)}`,
        );
        await expectNoSeriousA11yViolations(page, `statistics (${lang})`);
        await shot(page, `statistics.${lang}`);
      });
    }
  },
);
