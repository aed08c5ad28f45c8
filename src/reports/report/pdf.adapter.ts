// Prints the report's HTML to PDF with the system's Chromium through playwright-core. Nothing is
// downloaded: no browser (playwright-core ships none; Debian's chromium package is used) and no
// page resource (every request the page makes is refused; the HTML is self-contained).
import { accessSync, constants } from 'node:fs';
import { escapeHtml } from './html.js';
import { ReportError } from './errors.js';

/** Debian's chromium (scripts/install-system-deps.sh). CUSTODY_CHROMIUM overrides it. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Chromium flags for a headless print on a server: no sandbox (containers), no GPU, no network chatter. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The executable, or null when it is missing or not executable. */
export function findChromium(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

/**
 * Writes `html` as an A4 PDF to `out`, page size and margins from the stylesheet's @page, with a
 * footer naming the checkpoint and the page number on every page.
 */
export async function printPdf(
  html: string,
  out: string,
  opts: { executablePath: string; footer: string; timeoutMs?: number },
): Promise<void> {
  const timeout = opts.timeoutMs ?? 120_000;
  let browser;
  try {
    // Loaded here, not at the top: only a PDF needs Chromium's driver.
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: opts.executablePath,
      args: CHROMIUM_ARGS,
      timeout,
    });
  } catch (e) {
    throw new ReportError(
      'REPORT_PDF_FAILED',
      `could not start ${opts.executablePath}: ${firstLine(e)}`,
      { cause: e },
    );
  }
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load', timeout });
    await page.pdf({
      path: out,
      preferCSSPageSize: true,
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate:
        `<div style="width:100%;font-size:7pt;color:#555;text-align:center;font-family:'Noto Sans','DejaVu Sans',sans-serif">` +
        `${escapeHtml(opts.footer)} · page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`,
      tagged: true,
      outline: true,
    });
  } catch (e) {
    throw new ReportError('REPORT_PDF_FAILED', `printing the PDF failed: ${firstLine(e)}`, {
      cause: e,
    });
  } finally {
    await browser.close();
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}
