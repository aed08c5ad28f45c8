import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-model.js';
import { bidiText, escapeHtml } from './html.js';
import type { ReportModel } from './model.js';
import { GENERATED_MARKER, renderReportHtml } from './render-html.js';
import { ARABIC_UNIT, inputFixture } from './report.fixture.js';

const NO_CHARTS = { perDay: null, deaths: null, prevalence: null };
const OPTS = {
  template: 'tribunal',
  generatedAt: '2026-11-30T00:00:00.000Z',
  codeVersion: 'custody 0.1.0',
} as const;

function html(model: ReportModel = buildReportModel(inputFixture(), OPTS)): string {
  return renderReportHtml(model, NO_CHARTS);
}

describe('escaping and Arabic', () => {
  it('escapes markup and quotes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });

  it('wraps each Arabic run, spaces between words included, and escapes around it', () => {
    expect(bidiText(`215 Military Security — ${ARABIC_UNIT} <b>`)).toBe(
      `215 Military Security — <span dir="rtl" lang="ar">${ARABIC_UNIT}</span> &lt;b&gt;`,
    );
    expect(bidiText('no arabic here')).toBe('no arabic here');
    expect(bidiText('فرع ٢١٥ and فرع')).toBe(
      '<span dir="rtl" lang="ar">فرع ٢١٥</span> and <span dir="rtl" lang="ar">فرع</span>',
    );
  });

  it('keeps a card number (with its RLM) in one run, and a branch name with its number in another', () => {
    expect(bidiText('\u200f١٠٠٠/٢٤٨/٥٠٠٠, فرع المداهمة ٢١٥')).toBe(
      '<span dir="rtl" lang="ar">\u200f١٠٠٠/٢٤٨/٥٠٠٠</span>, <span dir="rtl" lang="ar">فرع المداهمة ٢١٥</span>',
    );
    expect(bidiText('فرع فلسطين 235 and Branch 227')).toBe(
      '<span dir="rtl" lang="ar">فرع فلسطين 235</span> and Branch 227',
    );
  });

  it('escapes a reason and a unit name in the list of unit changes after the frame', () => {
    const hostile = { id: 'U9', code: 'AFI', name_en: '<img src=x onerror=alert(2)>', name_ar: null };
    const input = inputFixture({
      unitChanges: { 'Autumn sample': [{ subject: 'S7', number: '1234', from: null, to: hostile, entries: [{ seq: 700, reason: '<b>card</b>' }] }] },
    });
    const page = html(buildReportModel(input, OPTS));
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(page).toContain('700: &lt;b&gt;card&lt;/b&gt;');
  });

  it('never lets a hostile codename into the page as markup', () => {
    const page = html();
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('puts the Arabic unit name in the page inside an rtl, lang=ar span', () => {
    expect(html()).toContain(`<span dir="rtl" lang="ar">${ARABIC_UNIT}</span>`);
  });
});

describe('the page', () => {
  it('is English A4 with repeating table headers, unsplit rows and the Noto/DejaVu font stack', () => {
    const page = html();
    expect(page.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(page).toContain('@page { size: A4;');
    expect(page).toContain('thead { display: table-header-group; }');
    expect(page).toMatch(/tr \{ break-inside: avoid;/);
    expect(page).toContain('"Noto Sans", "Noto Naskh Arabic", "Noto Sans Arabic", "DejaVu Sans"');
  });

  it('links every cited number to its footnote, numbered 1…n in order of appearance', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    const page = html(model);
    const cited = [...page.matchAll(/<sup class="fn"><a href="#fn-(\d+)">(\d+)<\/a><\/sup>/g)].map(
      (m) => Number(m[1]),
    );
    const firstSeen = [...new Set(cited)];
    expect(firstSeen).toEqual(model.footnotes.map((f) => f.n));
    expect(firstSeen).toEqual(firstSeen.map((_, i) => i + 1));
    for (const f of model.footnotes) expect(page).toContain(`<li id="fn-${f.n}"><code>`);
    expect(page).toContain('<code>custody items --at 812 --json | /length</code>');
  });

  it('prints each cited number exactly as its footnote value', () => {
    const model = buildReportModel(inputFixture(), OPTS);
    const values = new Map(model.footnotes.map((f) => [f.n, f.value]));
    const page = html(model);
    const spans = [
      ...page.matchAll(
        /<span class="cited" data-fn="(\d+)"(?: data-format="(percent|fixed)")?>(.*?)<\/span><sup/g,
      ),
    ];
    expect(spans.length).toBeGreaterThan(20);
    let fixed = 0;
    for (const [, n, format, text] of spans) {
      const v = values.get(Number(n));
      const plain = (text ?? '').replace(/<[^>]+>/g, '');
      if (format === 'percent') expect(plain).toBe(`${((v as number) * 100).toFixed(1)}%`);
      else if (format === 'fixed') {
        fixed += 1;
        expect(Math.abs(Number(plain) - (v as number))).toBeLessThanOrEqual(
          0.5 * 10 ** -(plain.split('.')[1]?.length ?? 0),
        );
      } else if (typeof v === 'number' || typeof v === 'string')
        expect(plain).toBe(escapeHtml(String(v)));
    }
    expect(fixed).toBeGreaterThan(0); // the fixture's agreement, 0.81, is printed through fixed()
  });

  it('is the same bytes for the same model apart from the generation line', () => {
    const a = html(buildReportModel(inputFixture(), OPTS));
    const b = html(
      buildReportModel(inputFixture(), { ...OPTS, generatedAt: '2027-01-01T00:00:00.000Z' }),
    );
    expect(a).not.toBe(b);
    const strip = (s: string) =>
      s.replace(new RegExp(`<p class="generated" ${GENERATED_MARKER}>.*</p>`), '');
    expect(strip(a)).toBe(strip(b));
  });
});
