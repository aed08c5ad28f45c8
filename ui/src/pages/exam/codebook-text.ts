// Which language the codebook's own text is shown in: the page's language when the codebook
// carries a translation into it (the codebook's `translations`, covered by its digest), else the
// codebook's English. The UI never translates a definition itself.
import type { Codebook, CodebookTranslation, Term, TermList } from './types';

export interface CodebookText {
  /** The language of the text shown ('en' when there is no translation into the page's). */
  lang: string;
  dir: 'ltr' | 'rtl';
  /** lang and dir for an element holding the codebook's text (dir auto for English in an RTL page). */
  attrs: { lang: string; dir: 'auto' | 'ltr' | 'rtl' };
  /** The translation shown, or null for the codebook's English. */
  translation: CodebookTranslation | null;
  /** The page asked for a language the codebook has no translation into. */
  untranslated: boolean;
  instructions: string;
  /** The term's label and definition in the language shown (its code unchanged). */
  term<T extends Term>(list: TermList, term: T): T;
}

const RTL = new Set(['ar', 'fa', 'he', 'ku', 'ur']);

export function codebookText(codebook: Codebook, language: string): CodebookText {
  const lang = language.split('-')[0] ?? 'en';
  const translation = lang === 'en' ? null : (codebook.translations?.[lang] ?? null);
  if (translation === null)
    return {
      lang: 'en',
      dir: 'ltr',
      attrs: { lang: 'en', dir: 'auto' },
      translation: null,
      untranslated: lang !== 'en',
      instructions: codebook.instructions,
      term: (_list, term) => term,
    };
  const dir = RTL.has(lang) ? 'rtl' : 'ltr';
  return {
    lang,
    dir,
    attrs: { lang, dir },
    translation,
    untranslated: false,
    instructions: translation.instructions,
    term: (list, term) => {
      const t = translation[list][term.code];
      return t === undefined ? term : { ...term, label: t.label, definition: t.definition };
    },
  };
}

/**
 * The codebook with every term's label and definition in the language shown (its codes and
 * structure unchanged): for pages that name terms by label, such as the adjudicator's.
 *
 * @example
 *   localisedCodebook(v2, 'ar').findings[0].label // 'هزال'
 */
export function localisedCodebook(codebook: Codebook, language: string): { codebook: Codebook; text: CodebookText } {
  const text = codebookText(codebook, language);
  if (text.translation === null) return { codebook, text };
  const list = <T extends Term>(name: TermList, terms: readonly T[]): T[] => terms.map((term) => text.term(name, term));
  return {
    text,
    codebook: {
      ...codebook,
      instructions: text.instructions,
      values: list('values', codebook.values),
      sexes: list('sexes', codebook.sexes),
      ageBands: list('ageBands', codebook.ageBands),
      regions: list('regions', codebook.regions),
      findings: list('findings', codebook.findings),
    },
  };
}
