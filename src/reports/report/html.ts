// Escaping and bidirectional text for the HTML renderer. Everything that reaches the page from the
// archive (paths, names, codenames, notes) is escaped here; Arabic runs are marked up so that a
// browser, a PDF and a screen reader lay them out right to left and pick an Arabic font.

/** Escapes text for element content and double-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Arabic script: the Arabic, Supplement, Extended-A blocks and the presentation forms. */
const AR = '\\u0600-\\u06FF\\u0750-\\u077F\\u08A0-\\u08FF\\uFB50-\\uFDFF\\uFE70-\\uFEFF';
/** Invisible direction marks a card's number may carry (LRM, RLM, ALM): kept inside the run. */
const MARKS = '\\u200E\\u200F\\u061C';
/**
 * One Arabic run with its number: Arabic characters (Arabic-Indic digits among them), the spaces,
 * marks, digits and number punctuation between two of them, marks before the first, and a Western
 * number after the last. So "فرع الأمن العسكري", "فرع فلسطين 235" and "‏١٠٠٠/٢٤٨/٥٠٠٠" are each
 * one run. A Latin comma or semicolon ends a run: in this report they separate fields.
 */
const ARABIC_RUN = new RegExp(
  `[${MARKS}]*[${AR}]+(?:[\\s\\u200C${MARKS}0-9./:()\\-–]+[${AR}]+)*(?:\\s+[0-9]+(?:[./:\\-][0-9]+)*)?`,
  'gu',
);

export function hasArabic(s: string): boolean {
  return new RegExp(`[${AR}]`, 'u').test(s);
}

/**
 * Escaped text with each Arabic run wrapped in `<span dir="rtl" lang="ar">` (an isolate: the
 * stylesheet gives [dir] `unicode-bidi: isolate`, so a run never reorders the text around it).
 *
 * @example
 *   bidiText('Branch فرع <1>') // 'Branch <span dir="rtl" lang="ar">فرع</span> &lt;1&gt;'
 */
export function bidiText(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(ARABIC_RUN)) {
    out += escapeHtml(s.slice(last, m.index));
    out += `<span dir="rtl" lang="ar">${escapeHtml(m[0])}</span>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(s.slice(last));
}
