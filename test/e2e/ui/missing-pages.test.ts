// Issue 15, the missing-persons pages, in a real browser against a real server: the family
// liaison's list within the consent scope (the reporting organisation sees both reports, an
// organisation named by the consent only the shared one, and nothing of the other), the report as
// the family gave it with its consent and its contact sealed, the candidate subjects each with its
// factors and the notice that a candidate is not an identification, and no image at all; the
// source custodian's read of the contact, with a reason, recorded in the ledger. Axe in English
// and Arabic; screenshots ($CI_ARTIFACTS_DIR, else artifacts/, in ui-screenshots/).
// The fixture follows test/e2e/server/identification.test.ts (synthetic names).
import { mkdir, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { custodyInExpect, type TestArchive } from '../../support/archive-fixtures.js';
import {
  assertUiBuilt,
  expectBlurredTiles,
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

// Synthetic people: no real names.
const NAME_AR = 'زيدون قطرميز';
const NAME_LATIN = 'Zaydoun Qatramiz';
const FATHER = 'فرحان';
const MOTHER = 'نجلاء';
const OTHER_AR = 'بشموش طنبرجي';
const OTHER_LATIN = 'Bashmoush Tanbarji';
const PHONE = '+963-555-0199-731';
const HEADER =
  'name_ar,name_latin,father_name,mother_name,sex,birth,origin,event,event_date,event_place,unit,marks,contact_name,contact_relation,contact_phone,consent_orgs,consent_photographs,consent_liaison';
// Reported by Org A, consenting to Org B; the second, by Org A, consents to no one.
const ROW1 = `${NAME_AR},${NAME_LATIN},${FATHER},${MOTHER},male,1985,Darayya,arrest,2013-05-21,checkpoint,AFI,face:scar:left cheek,أم زيدون,mother,${PHONE},Org B,yes,Liaison Rima`;
const ROW2 = `${OTHER_AR},${OTHER_LATIN},,,male,1990,,last_seen,2014,,,,,,,,no,`;

/** Text without the Unicode isolates (FSI, PDI) the page puts around names inside sentences. */
const plain = (s: string | null): string => (s ?? '').replace(/[\u2066-\u2069]/g, '');

/** One attribute of every element a locator matches. */
const attrs = async (l: Locator, name: string): Promise<(string | null)[]> =>
  Promise.all((await l.all()).map((e) => e.getAttribute(name)));

interface Summary {
  id: string;
  name_ar: string | null;
}

describe.skipIf(skipBrowser('missing-persons page browser tests'))('the missing-persons pages in Chromium', () => {
  let served: ServedArchive;
  let base: string;
  let browser: Browser;
  let pages: KeptPages;
  let shared: string;
  let own: string;
  /** The subject that fits the shared report. */
  let fits: string;
  /** The fitting subject's photograph. */
  let photo: string;
  /** Every image URL a page asked for. */
  let images: string[] = [];

  beforeAll(async () => {
    assertUiBuilt();
    served = await servedArchive(
      'missing-pages',
      [
        ['Liaison A', 'family liaison', 'Org A'],
        ['Liaison B', 'family liaison', 'Org B'],
        ['Custodian A', 'source custodian', 'Org A'],
        // The liaison the first report's consent names, for the viewing.
        ['Liaison Rima', 'family liaison', 'Org A'],
      ],
      {
        server: { uiDir: UI_DIR },
        before: async (a: TestArchive) => {
          const cli = (args: string[]) => custodyInExpect(0, [...args, '--archive', a.dir], a.env);
          await cli(['unit', 'add', '--name-en', 'Air Force Intelligence', '--code', 'AFI']);
          await cli(['unit', 'add', '--name-en', 'Military Intelligence', '--code', 'MI']);
          // One synthetic photograph of the fitting subject, for the family viewing.
          const photos = join(await makeTempDir('missing-pages-photos'), 'photos');
          await mkdir(photos);
          await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 120, b: 160 } } })
            .jpeg()
            .toFile(join(photos, 'card-1.jpg'));
          await cli(['ingest', photos, '--source', 'KITE', '--new-source']);
          await cli(['analyze']);
          photo = (JSON.parse((await cli(['items', '--json'])).stdout) as { id: string }[])[0]!.id;
          // One subject that fits the first report, one that does not.
          fits = JSON.parse(
            (await cli(['subject', 'add', '--item', photo, '--unit', 'AFI', '--sex', 'male', '--age-band', '18-29', '--date-of-death', '2014-02-01', '--reason', 'card', '--json'])).stdout,
          ) as string;
          await cli(['subject', 'add', '--unit', 'MI', '--sex', 'female', '--date-of-death', '2012-01-01', '--reason', 'card']);
          await cli(['subject', 'pm', fits, '--set', 'marks=face:scar:left cheek', '--reason', 'photographs 3–4']);
          const csv = join(await makeTempDir('missing-pages-src'), 'reports.csv');
          await writeFile(csv, `${HEADER}\n${ROW1}\n${ROW2}\n`, 'utf8');
          await cli(['missing', 'import', csv, '--org', 'Org A']);
        },
      },
    );
    base = await served.server.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    pages = new KeptPages(browser);
    await mkdir(SHOTS, { recursive: true });
    const liaison = await signIn(served.server, 'Liaison A');
    const list = (await liaison.request('GET', '/api/missing')).json<{ reports: Summary[] }>();
    shared = list.reports.find((r) => r.name_ar === NAME_AR)!.id;
    own = list.reports.find((r) => r.id !== shared)!.id;
  }, 240_000);

  afterAll(async () => {
    await pages?.close();
    await browser?.close();
    await served?.close();
  });

  async function open(who: string, lang: 'en' | 'ar', path = '/'): Promise<Page> {
    const { page } = await pages.use({
      viewport: { width: 1280, height: 900 },
      locale: lang === 'ar' ? 'ar' : 'en-GB',
    });
    images = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'image' || /\/(preview|original)(\?|$)/.test(new URL(r.url()).pathname))
        images.push(r.url());
    });
    await page.goto(base + path);
    await signInThroughForm(page, who);
    await page.getByTestId('account-role').waitFor();
    await expect
      .poll(() => page.evaluate<string>('document.documentElement.dir'))
      .toBe(lang === 'ar' ? 'rtl' : 'ltr');
    return page;
  }
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  it('a liaison of the reporting organisation sees both reports, named in Arabic and Latin letters', async () => {
    const page = await open('Liaison A', 'en');
    await page.getByRole('link', { name: 'Missing persons', exact: true }).click();
    await expect.poll(() => page.getByTestId('missing-row').count()).toBe(2);
    const ids = await attrs(page.getByTestId('missing-row'), 'data-report');
    expect(ids.sort()).toEqual([shared, own].sort());
    const text = await page.locator('main').textContent();
    for (const name of [NAME_AR, NAME_LATIN, OTHER_AR, OTHER_LATIN]) expect(text).toContain(name);
    expect(text).toContain('Org A');
    expect(text).not.toContain(PHONE);
    // The Arabic name is isolated from the surrounding text.
    expect(await page.locator(`[data-report="${shared}"] bdi[data-testid=name-ar]`).getAttribute('dir')).toBe('auto');
    await expectNoSeriousA11yViolations(page, 'missing list (en)');
    await shot(page, 'missing-list.en');
  });

  it('a liaison of an organisation named by the consent sees only the shared report, and nothing of the other', async () => {
    const page = await open('Liaison B', 'en', '/missing');
    await expect.poll(() => page.getByTestId('missing-row').count()).toBe(1);
    expect(await page.getByTestId('missing-row').getAttribute('data-report')).toBe(shared);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain(NAME_AR);
    expect(text).not.toContain(OTHER_AR);
    expect(text).not.toContain(OTHER_LATIN);
    // The other report's page, reached by its address, says it is outside the consent scope.
    await page.goto(`${base}/missing/${own}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('outside your organisation’s consent scope');
    const body = (await page.locator('body').textContent()) ?? '';
    expect(body).not.toContain(OTHER_AR);
    expect(body).not.toContain(OTHER_LATIN);
  });

  it('the report page shows every field the family gave, the consent, the contact sealed, and candidates with their factors and no image at all', async () => {
    const page = await open('Liaison A', 'en', '/missing');
    await page.getByRole('link', { name: NAME_AR }).click();
    await expect.poll(() => page.getByTestId('candidate').count()).toBe(2);
    const heading = (await page.getByTestId('report-heading').textContent()) ?? '';
    expect(heading).toContain(NAME_AR);
    expect(heading).toContain(NAME_LATIN);
    const person = plain(await page.getByTestId('report-person').textContent());
    for (const v of [FATHER, MOTHER, 'Male', '1985', 'Darayya', '2013-05-21, checkpoint', 'AFI']) expect(person).toContain(v);
    expect(person).toContain('Arrested');
    // Marks in the codebook's terms.
    expect(await page.getByTestId('report-marks').textContent()).toBe('Scar (Face): left cheek');
    const consent = plain(await page.getByTestId('report-consent').textContent());
    expect(consent).toContain('Org A (reporting)');
    expect(consent).toContain('Org B');
    expect(consent).toContain('Photographs may be shown to this family, through');
    expect(consent).toContain('Liaison Rima');
    // The contact is sealed, and a liaison has no way to read it.
    expect(await page.getByTestId('contact-state').getAttribute('data-state')).toBe('sealed');
    expect(await page.getByTestId('contact-form').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain(PHONE);
    // Candidates: the notice, the fitting subject first, each with its five factors.
    expect(await page.getByTestId('candidates-notice').textContent()).toContain('A candidate is not an identification');
    const first = page.getByTestId('candidate').first();
    expect(await first.getAttribute('data-subject')).toBe(fits);
    const factors = first.getByTestId('factor');
    const named = await attrs(factors, 'data-outcome');
    const outcomes: Record<string, string | null | undefined> = Object.fromEntries(
      (await attrs(factors, 'data-factor')).map((f, i): [string, string | null | undefined] => [f ?? '', named[i]]),
    );
    expect(outcomes).toMatchObject({ unit: 'agree', date: 'agree', sex: 'agree', marks: 'agree' });
    const second = page.getByTestId('candidate').nth(1);
    expect(await attrs(second.getByTestId('factor'), 'data-outcome')).toContain('disagree');
    for (const c of await page.getByTestId('candidate').all()) expect(await c.getByTestId('factor').count()).toBe(5);
    // Each factor shows its weight; the first candidate's sum is above the second's.
    const sum = async (c: typeof first) => (await attrs(c.getByTestId('factor'), 'data-weight')).reduce((t, x) => t + Number(x), 0);
    expect(await sum(first)).toBeGreaterThan(await sum(second));
    expect(await first.getByTestId('candidate-counts').textContent()).toMatch(/^score \+\d+\.\d\d: /);
    // No photograph: not one <img> in the page, and no image was asked for.
    expect(await page.locator('img').count()).toBe(0);
    expect(images).toEqual([]);
    await expectNoSeriousA11yViolations(page, 'missing report (en)');
    await shot(page, 'missing-report.en');
  });

  it('in Arabic: right to left, the names isolated, no serious axe violation', async () => {
    const page = await open('Liaison A', 'ar', `/missing/${shared}`);
    await expect.poll(() => page.getByTestId('candidate').count()).toBe(2);
    expect(await page.getByTestId('candidates-notice').textContent()).toContain('ليس تعرّفًا');
    expect(await page.getByTestId('report-marks').textContent()).toContain('ندبة');
    expect(await page.locator('[data-testid=report-heading] bdi[lang=ar]').getAttribute('dir')).toBe('auto');
    // Why each candidate ranks here, in Arabic from the server's factor codes, never its English sentence.
    const first = page.getByTestId('candidate').first();
    expect(await first.locator('td[data-code]').count()).toBe(5);
    const sex = first.locator('tr[data-factor=sex] td[data-code]');
    expect(await sex.getAttribute('data-code')).toBe('sex_same');
    expect(await sex.textContent()).toContain('كلاهما ذكر');
    expect(await first.locator('td[data-code] bdi[lang=en]').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'missing report (ar)');
    await shot(page, 'missing-report.ar');
    await page.goto(`${base}/missing`);
    await expect.poll(() => page.getByTestId('missing-row').count()).toBe(2);
    await expectNoSeriousA11yViolations(page, 'missing list (ar)');
    await shot(page, 'missing-list.ar');
  });

  for (const lang of ['en', 'ar'] as const)
    it(`the source custodian reads the contact with a reason (${lang}), and the read is a ledger entry`, async () => {
      const page = await open('Custodian A', lang);
      // The custodian has the contact page in the navigation, not the liaison's pages.
      const nav = page.getByRole('navigation').first();
      expect(await nav.textContent()).not.toContain(lang === 'en' ? 'Missing persons' : 'المفقودون');
      expect(await nav.textContent()).toContain(lang === 'en' ? 'Reporting contacts' : 'جهات الاتصال المُبلِّغة');
      // The report page is the liaison's: refused to the custodian, with the way to the contact read.
      await page.goto(`${base}/missing/${shared}`);
      await page.getByRole('alert').waitFor();
      expect(await page.locator('main').textContent()).not.toContain(NAME_AR);
      await page.getByRole('link', { name: lang === 'en' ? 'Read the contact' : 'اقرأ بيانات الاتصال' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe(`?id=${shared}`);
      const reason = lang === 'en' ? 'arrange the family visit' : 'ترتيب زيارة العائلة';
      const form = page.getByTestId('contact-form');
      expect(await form.textContent()).toContain(lang === 'en' ? 'recorded in the ledger' : 'تُسجَّل القراءة في السجل');
      await expectNoSeriousA11yViolations(page, `contact page (${lang})`);
      expect(await page.locator('body').textContent()).not.toContain(PHONE);
      await form.locator('textarea').fill(reason);
      await form.locator('button[type=submit]').click();
      await expect.poll(() => page.getByTestId('contact-shown').textContent()).toContain(PHONE);
      const seq = Number(await page.getByTestId('contact-read-seq').getAttribute('data-seq'));
      const [e] = await served.open.ledger.read(seq, seq + 1);
      expect(e!.entry.actor).toBe(served.accounts.get('Custodian A'));
      expect(e!.entry.details).toMatchObject({ action: 'missing.read', report: shared, sealed: { alg: 'AES-256-GCM' } });
      expect(JSON.stringify(e!.entry)).not.toContain(reason);
      expect(JSON.stringify(e!.entry)).not.toContain(PHONE);
      await expectNoSeriousA11yViolations(page, `contact shown (${lang})`);
      await shot(page, `missing-contact.${lang}`);
    });

  // Runs last: it accepts a link, after which the report page shows blurred thumbnails.
  it('the liaison the consent names accepts a candidate with a reason, records a viewing with one photograph recognised, raises the level to recognised; blurred thumbnails only', async () => {
    const page = await open('Liaison Rima', 'en', `/missing/${shared}`);
    await expect.poll(() => page.getByTestId('candidate').count()).toBe(2);
    const reviewed = page.getByTestId('reviewed-subjects');
    await expect.poll(() => reviewed.textContent()).toContain('No subject has been reviewed');
    // Accept the fitting candidate: the reason is required (the form does not submit without it).
    const review = page.locator(`[data-testid=candidate][data-subject="${fits}"]`).getByTestId('review-form');
    await review.getByRole('button', { name: 'Accept as candidate' }).click();
    expect(await page.getByTestId('reviewed-link').count()).toBe(0);
    await review.getByLabel('Reason for your decision').fill('unit, dates and the scar agree');
    await review.getByRole('button', { name: 'Accept as candidate' }).click();
    const link = page.locator(`[data-testid=reviewed-link][data-subject="${fits}"]`);
    await expect.poll(() => link.getByTestId('link-level').getAttribute('data-level')).toBe('candidate');
    expect(await link.getByTestId('link-decision').getAttribute('data-decision')).toBe('accept');
    expect(await link.getByTestId('link-history').textContent()).toContain('unit, dates and the scar agree');
    // The viewing: one attendee, the subject's one photograph, blurred first, recognised.
    const viewing = link.getByTestId('viewing-form');
    await expect.poll(() => viewing.getByTestId('viewing-photo').count()).toBe(1);
    expect(await viewing.getByTestId('viewing-photo').getAttribute('data-item')).toBe(photo);
    // The family viewing's thumbnail: the tiny blurred preview at 128 px, greyscale and blurred.
    await expectBlurredTiles(page, '[data-testid=viewing-form] img.viewing-thumb', 120);
    await viewing.getByLabel('Attendee 1 · Name').fill('نجلاء');
    await viewing.getByLabel('Attendee 1 · Relation').fill('mother');
    await viewing.getByTestId('photo-shown').check();
    expect(await viewing.getByTestId('photo-blurred-first').isChecked()).toBe(true);
    await viewing.getByLabel('Outcome').selectOption('recognised');
    await viewing.getByRole('button', { name: 'Record the viewing' }).click();
    await expect.poll(() => link.getByTestId('level-viewing').count()).toBe(1);
    const viewingSeq = Number(await link.getByTestId('level-viewing').inputValue());
    const [v] = await served.open.ledger.read(viewingSeq, viewingSeq + 1);
    expect(v!.entry.details).toMatchObject({ action: 'missing.viewing', report: shared, subject: fits, photographs: [{ item: photo, blurred_first: true, outcome: 'recognised' }] });
    expect(JSON.stringify(v!.entry)).not.toContain('نجلاء');
    // Raise the level to recognised, naming that viewing.
    const level = link.getByTestId('level-form');
    await level.getByLabel('Reason').fill('the mother recognised him');
    await level.getByRole('button', { name: 'Raise the level' }).click();
    await expect.poll(() => link.getByTestId('link-level').getAttribute('data-level')).toBe('recognised');
    expect(await link.getByTestId('link-level').textContent()).toBe('Recognised by family');
    // Only blurred previews of the subject's photograph were asked for, never an unblurred one.
    expect(images.length).toBeGreaterThan(0);
    for (const url of images) {
      expect(new URL(url).pathname).toBe(`/api/missing/${shared}/subjects/${fits}/photographs/${photo}/preview`);
      expect(url).not.toContain('unblurred');
    }
    // The thumbnail is the blurred preview, drawn (not a broken image).
    const r = await (await signIn(served.server, 'Liaison Rima')).request('GET', `/api/missing/${shared}/subjects/${fits}/photographs/${photo}/preview`);
    expect([r.statusCode, r.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(await link.locator('img.viewing-thumb').evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
    // Confirm form shown with references; axe over the page with the new sections.
    await level.getByTestId('level-choice').selectOption('confirmed');
    await level.getByLabel('Reference 1', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page, 'missing report with identification (en)');
    await shot(page, 'missing-identification.en');
    // The identification file for the authorities: made, recorded, and downloaded with the session.
    const exportPanel = page.getByTestId('identification-export');
    await exportPanel.getByRole('button', { name: 'Make the identification file' }).click();
    // A job the page polls until it ends: give it time.
    await expect.poll(() => exportPanel.getByTestId('export-done').count(), { timeout: 30_000 }).toBe(1);
    const exportSeq = Number(await exportPanel.getByTestId('export-done').getAttribute('data-seq'));
    const [made] = await served.open.ledger.read(exportSeq, exportSeq + 1);
    expect(made!.entry.details).toMatchObject({ action: 'missing.export', report: shared, contacts: 'redacted' });
    const href = await exportPanel.getByTestId('export-download').getAttribute('href');
    const zip = await page.request.get(base + href!);
    expect([zip.status(), zip.headers()['content-type']]).toEqual([200, 'application/zip']);
    expect((await zip.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    const [downloaded] = await served.open.ledger.read(served.open.ledger.size - 1, served.open.ledger.size);
    expect(downloaded!.entry.details).toMatchObject({ action: 'missing.export.download', report: shared, export_seq: exportSeq });
  });

  it('a liaison the consent does not name is refused the viewing with a clear message, and nothing is recorded', async () => {
    const page = await open('Liaison A', 'en', `/missing/${shared}`);
    const link = page.locator(`[data-testid=reviewed-link][data-subject="${fits}"]`);
    const viewing = link.getByTestId('viewing-form');
    await expect.poll(() => viewing.getByTestId('viewing-photo').count()).toBe(1);
    const before = served.open.ledger.size;
    await viewing.getByLabel('Attendee 1 · Name').fill('someone');
    await viewing.getByTestId('photo-shown').check();
    await viewing.getByRole('button', { name: 'Record the viewing' }).click();
    await expect.poll(() => viewing.getByTestId('outcome-refused').getAttribute('data-code')).toBe('MISSING_VIEWING_WRONG_LIAISON');
    expect(await viewing.getByTestId('outcome-refused').textContent()).toContain('names another liaison');
    expect(served.open.ledger.size).toBe(before);
  });
});
