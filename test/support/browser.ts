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
  const result = await new AxeBuilder({ page }).analyze();
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
