// Issue 13's browser test 4, "two examiners examine blind, with their keys, and an adjudicator
// settles", in a real Chromium against a real server (SQLite). The keys are made, encrypted and
// enrolled in the page ("My signing key"); each examiner examines the case by its code (the page
// never shows the subject's number, unit, dates or file names, nor an item or subject id), keeps a
// draft in the browser, is warned about a photograph never opened at full resolution, and submits
// with their key password; the adjudicator settles the disagreement. The ledger then holds the
// signed submissions and the adjudication, checked here with node:crypto from the entries alone.
// Key operations are few (scrypt N=2^17 in pure JS in the page): three keys made, four opened.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CODEBOOK } from '../../../src/examination/codebook/index.js';
import { custodyIn, type TestArchive } from '../../support/archive-fixtures.js';
import { servedArchive, signIn, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';
import { caseIdKeyOf } from '../../support/case-codes.js';
import { openCaseFacts } from '../../../src/examination/blind/index.js';
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

const KEY_PASSWORD = 'my key password, not my login 7731';
/** The catalogue's facts about the plan's subjects: none may reach an examiner's page. */
const NUMBER = '58213';
const numberOf = (i: number) => `${NUMBER}${i}/9042`;
const SCHEME = {
  id: 'card',
  pattern: '{detainee}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 999999 },
    report: { type: 'integer', min: 1, max: 99999 },
  },
};
const UNIT_CODE = 'BRIG7';
const UNIT_NAME = 'Brigade Seventy-Seven';
const DEATH = '2013-07-14';
const PHOTOGRAPHED = '2013-08-02';
const FILE_STEM = 'card-photo-';

interface Entry {
  seq: number;
  actor: string;
  details: Record<string, unknown> & { action?: string };
}

describe.skipIf(skipBrowser('examination pages browser tests'))(
  'the examination pages in Chromium (issue 13, test 4)',
  () => {
    let served: ServedArchive;
    let archive: TestArchive;
    let base: string;
    let browser: Browser;
    let pages: KeptPages;
    const ids = new Map<string, string>();
    const subjects: string[] = [];
    let items: string[] = [];
    let plan = '';
    let code = '';

    const cli = async (who: string, args: string[]) => {
      const r = await custodyIn(
        [...args, '--archive', archive.dir, '--actor', ids.get(who) ?? who],
        archive.env,
      );
      expect(r.code, `custody ${args.join(' ')}\n${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const entries = async (): Promise<Entry[]> => {
      const size = served.open.ledger.size;
      return (await served.open.ledger.read(0, size)).map((e) => e.entry as unknown as Entry);
    };

    beforeAll(async () => {
      assertUiBuilt();
      served = await servedArchive(
        'exam-pages',
        [
          ['Amal Examiner', 'examiner'],
          ['Basel Examiner', 'examiner'],
          ['Carla Adjudicator', 'adjudicator'],
          ['Dana Investigator', 'investigator'],
        ],
        {
          server: { uiDir: UI_DIR },
          before: async (a) => {
            archive = a;
            const list = JSON.parse(
              (await custodyIn(['user', 'list', '--json', '--archive', a.dir], a.env)).stdout,
            ) as { id: string; name: string }[];
            for (const x of list) ids.set(x.name, x.id);
            const photos = join(await makeTempDir('exam-pages-photos'), 'photos');
            await mkdir(photos);
            // Two subjects, two photographs each; the EXIF and the file names carry the number and unit.
            for (let i = 0; i < 4; i++)
              await sharp({
                create: {
                  width: 64,
                  height: 48,
                  channels: 3,
                  background: { r: 50 * i, g: 110, b: 200 - 40 * i },
                },
              })
                .jpeg()
                .withExifMerge({
                  IFD0: { ImageDescription: `${numberOf(i >> 1)} ${UNIT_NAME} ${DEATH}` },
                })
                .toFile(join(photos, `${FILE_STEM}${NUMBER}${i >> 1}-${i}.jpg`));
            await cli('Dana Investigator', ['ingest', photos, '--source', 'KITE', '--new-source']);
            await cli('Dana Investigator', ['analyze']);
            items = (
              JSON.parse(await cli('Dana Investigator', ['items', '--json'])) as {
                id: string;
                name: string;
              }[]
            )
              .sort((x, y) => x.name.localeCompare(y.name))
              .map((x) => x.id);
            await cli('Dana Investigator', [
              'unit',
              'add',
              '--name-en',
              UNIT_NAME,
              '--code',
              UNIT_CODE,
            ]);
            await writeFile(join(photos, '..', 'scheme.json'), JSON.stringify(SCHEME));
            await cli('Dana Investigator', ['scheme', 'add', join(photos, '..', 'scheme.json')]);
            for (let i = 0; i < 2; i++) {
              const added = JSON.parse(
                await cli('Dana Investigator', [
                  'subject',
                  'add',
                  '--number',
                  numberOf(i),
                  '--unit',
                  UNIT_CODE,
                  '--sex',
                  'female',
                  '--age-band',
                  '60+',
                  '--date-of-death',
                  DEATH,
                  '--date-of-photography',
                  PHOTOGRAPHED,
                  '--item',
                  items[2 * i]!,
                  '--item',
                  items[2 * i + 1]!,
                  '--reason',
                  'catalogue card',
                  '--json',
                ]),
              ) as string | { id: string };
              subjects.push(typeof added === 'string' ? added : added.id);
            }
          },
        },
      );
      base = await served.server.listen({ port: 0, host: '127.0.0.1' });
      // The investigator draws a plan of one case and assigns it to both examiners (over HTTP).
      const inv = await signIn(served.server, 'Dana Investigator');
      const drawn = await inv.request('POST', '/api/plans', {
        name: 'pilot',
        over: 'subjects',
        method: 'simple',
        size: 1,
      });
      expect(drawn.statusCode, drawn.body).toBe(201);
      plan = drawn.json<{ id: string }>().id;
      const assigned = await inv.request('POST', `/api/plans/${plan}/assignment`, {
        examiners: ['Amal Examiner', 'Basel Examiner'],
      });
      expect(assigned.statusCode, assigned.body).toBe(200);
      code = (await inv.request('GET', `/api/plans/${plan}`)).json<{ cases: { code: string }[] }>()
        .cases[0]!.code;
      browser = await launchChromium();
      pages = new KeptPages(browser);
      await mkdir(SHOTS, { recursive: true });
    }, 240_000);

    afterAll(async () => {
      await pages?.close();
      await browser?.close();
      await served?.close();
    });

    async function open(lang: 'en' | 'ar', path = '/'): Promise<Page> {
      const { page } = await pages.use({
        viewport: { width: 1400, height: 1000 },
        locale: lang === 'ar' ? 'ar' : 'en-GB',
      });
      await page.goto(base + path);
      return page;
    }

    /** Nothing of the subject reaches the examiner's page: not in its text, nor in its markup. */
    async function expectBlind(page: Page): Promise<void> {
      const text = `${await page.locator('body').innerText()}\n${await page.content()}`;
      expect(text).toContain(code);
      for (const secret of [
        ...subjects,
        ...items,
        ...items.map((x) => x.toLowerCase()),
        numberOf(0),
        numberOf(1),
        NUMBER,
        UNIT_CODE,
        UNIT_NAME,
        DEATH,
        PHOTOGRAPHED,
        FILE_STEM,
        '.jpg',
        '/api/items/',
      ])
        expect(text, secret).not.toContain(secret);
    }

    it('each examiner and the adjudicator make a key in the page under a key password, and enrol it; the fingerprint shown is the enrolled key’s', async () => {
      for (const who of ['Amal Examiner', 'Basel Examiner', 'Carla Adjudicator']) {
        const page = await open('en');
        await signInThroughForm(page, who);
        await page.getByRole('link', { name: 'My signing key' }).click();
        await expect.poll(() => page.getByTestId('no-key').isVisible()).toBe(true);
        expect(await page.locator('body').innerText()).toContain('NOT your login password');
        // Two passwords that differ: refused in the page, nothing made.
        await page.getByLabel('Key password', { exact: true }).fill(KEY_PASSWORD);
        await page.getByLabel('Key password, again').fill(`${KEY_PASSWORD}!`);
        await page.getByRole('button', { name: 'Make and enrol my key' }).click();
        await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('differ');
        await page.getByLabel('Key password, again').fill(KEY_PASSWORD);
        await page.getByRole('button', { name: 'Make and enrol my key' }).click();
        await page.getByTestId('fingerprint').waitFor({ timeout: 60_000 });
        const fingerprint = await page.getByTestId('fingerprint').textContent();
        const enrol = (await entries()).filter(
          (e) => e.details.action === 'account.key.enrol' && e.actor === ids.get(who),
        );
        expect(enrol).toHaveLength(1);
        const pub = Buffer.from(String(enrol[0]!.details.public_key), 'base64');
        expect(fingerprint).toBe(
          createHash('sha256').update(pub).digest('hex').match(/.{4}/g)!.join(' '),
        );
        if (who === 'Amal Examiner') {
          await expect.poll(() => page.getByTestId('current-key').isVisible()).toBe(true);
          await page.screenshot({ path: join(SHOTS, 'exam-key.en.png'), fullPage: true });
        }
      }
    }, 180_000);

    for (const lang of ['en', 'ar'] as const)
      it(`the examiner's queue and case page in ${lang}: blind, no serious or critical axe violations, screenshots`, async () => {
        const page = await open(lang, '/examination');
        // Nothing is fetched from elsewhere: fonts (the Arabic one included) come from this server.
        const requests: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        await signInThroughForm(page, 'Basel Examiner');
        await expect.poll(() => page.getByTestId('queue-table').isVisible()).toBe(true);
        if (lang === 'ar')
          expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
        await expectBlind(page);
        await expectNoSeriousA11yViolations(page, `examination queue (${lang})`);
        await page.screenshot({ path: join(SHOTS, `exam-queue.${lang}.png`), fullPage: true });
        await page.getByRole('link', { name: code }).click();
        await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
        await expectBlind(page);
        await expectNoSeriousA11yViolations(page, `examination case (${lang})`);
        // The codebook's own text in the page's language: v2 carries its Arabic, marked unreviewed.
        const emaciation = page.locator('[data-testid=finding-emaciation]');
        const note = page.getByTestId('codebook-review-note');
        if (lang === 'ar') {
          expect(await page.getByTestId('codebook-form').getAttribute('data-codebook-lang')).toBe('ar');
          expect(await emaciation.locator('legend').innerText()).toBe('هزال');
          expect(await emaciation.locator('.definition').getAttribute('lang')).toBe('ar');
          expect(await emaciation.locator('.definition').innerText()).toContain('فقدان ملحوظ');
          expect(await emaciation.locator('input[value=absent] + span').innerText()).toBe('غير موجودة');
          expect(await note.innerText()).toContain('ممارسٌ في الطب الشرعي');
          expect(await page.locator('[data-testid=field-age_band] input[value="60+"] + span').innerText()).toBe('60 فأكثر');
          expect(await page.getByTestId('draft-retention').innerText()).toContain('لحسابك وحده');
          await page.getByTestId('draft-retention').scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(SHOTS, 'exam-codebook.ar.png'), fullPage: false });
          await emaciation.locator('details.source-text summary').click();
          expect(await emaciation.locator('details.source-text').innerText()).toContain('Marked, generalised loss of body fat');
        } else {
          expect(await emaciation.locator('legend').innerText()).toBe('Emaciation');
          expect(await note.count()).toBe(0);
          expect(await page.getByTestId('draft-retention').innerText()).toContain('for your account alone');
        }
        // The contact sheet: the tiny blurred previews at 128 px, greyscale and blurred (issue 14).
        await expectBlurredTiles(page, '[data-testid^=thumb-] img', 120);
        await page.screenshot({ path: join(SHOTS, `exam-case.${lang}.png`), fullPage: true });
        await page.evaluate('document.fonts.ready');
        const origin = new URL(base).origin;
        expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
        // The Arabic font is this server's, and in use (a request may not show: the browser may hold
        // it from an earlier page, whose language switch already says "العربية").
        if (lang === 'ar')
          expect(
            await page.evaluate(
              `[...document.fonts].some((f) => f.family.replace(/['"]/g, '') === 'Noto Sans Arabic' && f.status === 'loaded')`,
            ),
          ).toBe(true);
      }, 120_000);

    it("a draft is kept for its examiner across a reload, and a second examiner signed in on the same browser does not see it", async () => {
      const page = await open('en', '/examination');
      await signInThroughForm(page, 'Amal Examiner');
      await page.getByRole('link', { name: code }).click();
      await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
      await page.locator('[data-testid=field-age_band] input[value="50-59"]').check();
      await expect.poll(() => page.getByTestId('draft-status').textContent()).toContain('Draft saved');
      await page.reload();
      await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
      expect(await page.locator('[data-testid=field-age_band] input[value="50-59"]').isChecked()).toBe(true);
      const switchTo = async (who: string) => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        await signInThroughForm(page, who);
        await page.getByTestId('account-role').waitFor();
        await page.goto(`${base}/examination`);
        await page.getByRole('link', { name: code }).click();
        await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
      };
      // Same browser, same case, another examiner: a blank form, no draft.
      await switchTo('Basel Examiner');
      expect(await page.locator('[data-testid=field-age_band] input:checked').count()).toBe(0);
      expect(await page.getByTestId('draft-status').textContent()).toBe('No draft saved yet.');
      expect(await page.locator('body').innerText()).not.toContain('50-59');
      // The first examiner's draft is still there for them.
      await switchTo('Amal Examiner');
      expect(await page.locator('[data-testid=field-age_band] input[value="50-59"]').isChecked()).toBe(true);
    }, 120_000);

    /** Answers the whole form: both say female, every finding absent; the age band differs. */
    async function fillForm(page: Page, age: string): Promise<void> {
      await page.locator('[data-testid=field-sex] input[value=female]').check();
      await page.locator(`[data-testid=field-age_band] input[value="${age}"]`).check();
      const absent = page.locator('[data-testid^=finding-] input[value=absent]');
      for (let i = 0, n = await absent.count(); i < n; i++) await absent.nth(i).check();
    }
    async function reveal(page: Page, n: number): Promise<void> {
      await page.getByTestId(`thumb-${n}`).click();
      await page.getByTestId('case-viewer-reveal').click();
      await page.getByTestId('case-viewer-original').waitFor({ timeout: 30_000 });
      await expect
        .poll(() => page.getByTestId(`thumb-${n}`).textContent())
        .toContain('Seen at full resolution');
    }

    it('the first examiner examines blind: a draft kept in the browser across a reload, a warning for the photograph never opened, a wrong key password refused, then a signed submission that clears the draft', async () => {
      const page = await open('en', '/examination');
      await signInThroughForm(page, 'Amal Examiner');
      await page.getByRole('link', { name: code }).click();
      await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
      expect(await page.getByTestId('draft-retention').textContent()).toContain('14 days');
      await reveal(page, 1);
      await fillForm(page, '30-39');
      await expect
        .poll(() => page.getByTestId('draft-status').textContent())
        .toContain('Draft saved');
      const draftKey = `custody.draft.${ids.get('Amal Examiner')}.${plan}.${code}`;
      expect(
        await page.evaluate<string | null>(
          `window.localStorage.getItem(${JSON.stringify(draftKey)})`,
        ),
      ).toContain('30-39');
      await page.reload();
      await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
      expect(
        await page.locator('[data-testid=field-age_band] input[value="30-39"]').isChecked(),
      ).toBe(true);
      expect(await page.getByTestId('thumb-1').textContent()).toContain('Seen at full resolution');
      await expectBlind(page);
      // Keyboard: the sex group is a radio group; the arrow keys move the answer within it.
      await page.locator('[data-testid=field-sex] input[value=female]').focus();
      await page.keyboard.press('ArrowRight');
      expect(
        await page.locator('[data-testid=field-sex] input[value=undetermined]').isChecked(),
      ).toBe(true);
      await page.keyboard.press('ArrowLeft');
      expect(await page.locator('[data-testid=field-sex] input[value=female]').isChecked()).toBe(
        true,
      );

      await page.getByRole('button', { name: 'Review and submit' }).click();
      const warning = await page.getByTestId('unopened-warning').textContent();
      expect(warning).toContain('Photograph 2');
      expect(warning).not.toContain('Photograph 1');
      await page.screenshot({ path: join(SHOTS, 'exam-review.en.png'), fullPage: true });
      const before = served.open.ledger.size;
      await page
        .getByLabel('Your key password (not your login password)')
        .fill('not my key password');
      await page.getByRole('button', { name: 'Sign and submit' }).click();
      await expect
        .poll(() => page.getByTestId('submit-failed').textContent(), { timeout: 60_000 })
        .toContain('does not open your key');
      expect(
        (await entries()).slice(before).filter((e) => e.details.action === 'examination.submit'),
      ).toEqual([]);
      await page.getByLabel('Your key password (not your login password)').fill(KEY_PASSWORD);
      await page.getByRole('button', { name: 'Sign and submit' }).click();
      await page.getByTestId('submitted').waitFor({ timeout: 60_000 });
      expect(
        await page.evaluate<string | null>(
          `window.localStorage.getItem(${JSON.stringify(draftKey)})`,
        ),
      ).toBeNull();
      await expectBlind(page);
    }, 180_000);

    it('the second examiner, who opted in to colour inside their cases, sees each photograph at full resolution without a click, is told both were opened, and submits signed: the case is revealed', async () => {
      const page = await open('en', '/examination');
      await signInThroughForm(page, 'Basel Examiner');
      // The image settings: colour inside my examination cases (the default elsewhere stays blurred).
      await page.getByTestId('settings-link').click();
      await page.getByRole('checkbox', { name: /In my examination cases/ }).setChecked(true);
      await page.getByTestId('settings-save').click();
      await expect.poll(() => page.getByTestId('settings-saved').textContent()).toBe('Saved.');
      await page.goto(`${base}/examination`);
      await page.getByRole('link', { name: code }).click();
      await expect.poll(() => page.getByTestId('codebook-form').isVisible()).toBe(true);
      for (const n of [1, 2]) {
        await page.getByTestId(`thumb-${n}`).click();
        await page.getByTestId('case-viewer-original').waitFor({ timeout: 30_000 });
        expect(await page.getByTestId('case-viewer-reveal').count()).toBe(0);
        await expect.poll(() => page.getByTestId(`thumb-${n}`).textContent()).toContain('Seen at full resolution');
      }
      await fillForm(page, '40-49');
      await page.getByRole('button', { name: 'Review and submit' }).click();
      await page.getByTestId('all-opened').waitFor();
      await page.getByLabel('Your key password (not your login password)').fill(KEY_PASSWORD);
      await page.getByRole('button', { name: 'Sign and submit' }).click();
      await page.getByTestId('submitted').waitFor({ timeout: 60_000 });
      await expectBlind(page);
      await page.goto(`${base}/examination`);
      await expect.poll(() => page.getByTestId('queue-table').textContent()).toContain('Submitted');
      // Back on the case: it says the answer is in, and offers no form to fill again.
      await page.getByRole('link', { name: code }).click();
      await page.getByTestId('already-submitted').waitFor();
      expect(await page.getByTestId('codebook-form').count()).toBe(0);
    }, 180_000);

    it('the adjudicator sees the answers side by side with the photographs, decides the disputed field with a reason, and signs', async () => {
      const page = await open('en', '/adjudication');
      await signInThroughForm(page, 'Carla Adjudicator');
      await expect.poll(() => page.getByTestId('adjudication-table').isVisible()).toBe(true);
      await page.getByRole('link', { name: code }).click();
      await expect.poll(() => page.getByTestId('answers-table').isVisible()).toBe(true);
      const disputed = page.locator('[data-testid=answers-table] tr.disputed');
      expect(await disputed.count()).toBe(1);
      expect(await disputed.getAttribute('data-field')).toBe('age_band');
      // Fields and values by the codebook's labels, not their codes.
      expect(await disputed.locator('th').textContent()).toMatch(/^Age band/);
      expect(await disputed.textContent()).toMatch(/30 to 39[\s\S]*40 to 49|40 to 49[\s\S]*30 to 39/);
      const table = (await page.getByTestId('answers-table').textContent()) ?? '';
      expect(table).not.toMatch(/findings\.|age_band|cannot_assess/);
      expect(table).toContain('Sex');
      expect(table).toMatch(/Absent|Present|Cannot assess/);
      const findingRows = page.locator('[data-testid=answers-table] tr[data-field$=".value"]');
      expect(await findingRows.count()).toBe(DEFAULT_CODEBOOK.findings.length);
      for (const row of await findingRows.all()) {
        const code = /^findings\.(.+)\.value$/.exec((await row.getAttribute('data-field')) ?? '')?.[1];
        const def = DEFAULT_CODEBOOK.findings.find((f) => f.code === code);
        expect(def, code).toBeDefined();
        expect(await row.locator('th').textContent()).toBe(def!.label);
      }
      expect(await page.getByTestId('decision-age_band').locator('legend').textContent()).toBe(
        'Age band',
      );
      await page.getByTestId('thumb-2').waitFor();
      await expectBlind(page);
      await expectNoSeriousA11yViolations(page, 'adjudication case (en)');
      await page.screenshot({ path: join(SHOTS, 'exam-adjudication.en.png'), fullPage: true });
      await page.getByTestId('decision-age_band').locator('select').selectOption('40-49');
      await page.getByLabel('Reason').fill('dentition on photograph 2');
      await page.getByLabel('Your key password (not your login password)').fill(KEY_PASSWORD);
      await page.getByRole('button', { name: 'Sign and record the decisions' }).click();
      await page.getByTestId('adjudicated').waitFor({ timeout: 60_000 });
    }, 120_000);

    it('the ledger holds the two signed submissions and the signed adjudication: node:crypto verifies each from the entry alone; the submissions record the language and the photographs opened unblurred', async () => {
      const all = await entries();
      const keys = new Map(
        all
          .filter((e) => e.details.action === 'account.key.enrol')
          .map((e) => [String(e.details.key_id), String(e.details.public_key)]),
      );
      const owner = new Map(
        all
          .filter((e) => e.details.action === 'account.key.enrol')
          .map((e) => [String(e.details.key_id), e.actor]),
      );
      const h = (b: string) => createHash('sha256').update(b).digest('hex');
      const acts = all.filter(
        (e) =>
          e.details.action === 'examination.submit' ||
          e.details.action === 'examination.adjudicate',
      );
      expect(acts.map((e) => [e.details.action, e.actor])).toEqual([
        ['examination.submit', ids.get('Amal Examiner')],
        ['examination.submit', ids.get('Basel Examiner')],
        ['examination.adjudicate', ids.get('Carla Adjudicator')],
      ]);
      for (const e of acts) {
        const d = e.details as Record<string, unknown> & {
          sample: string;
          case: string;
          signature: { key_id: string; value: string };
        };
        expect(d.case).toBe(code); // the case by its code only (issue 12, blinded cases)
        expect(owner.get(d.signature.key_id), `entry ${e.seq}: signed by the actor's own key`).toBe(
          e.actor,
        );
        const fields: Record<string, string> =
          d.action === 'examination.submit'
            ? {
                plan: d.sample,
                case: code,
                key_id: d.signature.key_id,
                commitment: String(d.commitment),
                sealed_sha256: h(String(d.sealed)),
              }
            : {
                plan: d.sample,
                case: code,
                key_id: d.signature.key_id,
                decisions_sha256: h(canonicalJsonOf(d.decisions)),
                final_sha256: h(canonicalJsonOf(d.final)),
              };
        const act = d.action === 'examination.submit' ? 'submit' : 'adjudicate';
        const message = Buffer.from(`custody ${act} v1\n${canonicalJsonOf(fields)}`);
        const key = createPublicKey({
          key: Buffer.concat([
            Buffer.from('302a300506032b6570032100', 'hex'),
            Buffer.from(keys.get(d.signature.key_id)!, 'base64'),
          ]),
          format: 'der',
          type: 'spki',
        });
        expect(
          verify(null, message, key, Buffer.from(d.signature.value, 'base64')),
          `entry ${e.seq}`,
        ).toBe(true);
        // The same signature over other bytes does not verify (the check can fail).
        expect(
          verify(
            null,
            Buffer.concat([message, Buffer.from(' ')]),
            key,
            Buffer.from(d.signature.value, 'base64'),
          ),
        ).toBe(false);
      }
      const [a, b, adj] = acts;
      // The language in clear; the photographs (their count, the items opened) sealed under the
      // plan's case-id key, which the close publishes.
      const idKey = await caseIdKeyOf({ ...archive.env, CUSTODY_ARCHIVE: archive.dir }, plan);
      const facts = (e: (typeof acts)[number]) => {
        const w = e.details.examined_with as { language: string; sealed: string };
        expect(w).not.toHaveProperty('opened_unblurred');
        expect(w.language).toBe('en');
        return openCaseFacts(idKey, String(e.details.sample), code, e.actor, w.sealed) as {
          photos: number;
          opened_unblurred: string[];
        };
      };
      expect(facts(a!).photos).toBe(2);
      expect(facts(a!).opened_unblurred).toHaveLength(1);
      expect(facts(b!).opened_unblurred).toHaveLength(2);
      expect(adj!.details.decisions).toMatchObject([
        { field: 'age_band', value: '40-49', reason: 'dentition on photograph 2' },
      ]);
    });
  },
);

/** RFC 8785 JSON of the (integer, string, boolean, null, array, object) values in the ledger. */
function canonicalJsonOf(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJsonOf).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJsonOf(o[k])}`)
    .join(',')}}`;
}
