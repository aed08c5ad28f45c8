// Splitting a full name into its parts, keeping compound names whole: عبد الله, أبو بكر, نور الدين,
// Abdul Rahman, Abu Bakr, Nour Eddine, Saif Allah. The word lists are the rows of
// COMPOUND_RULES (tokens.test.ts runs one test per row); tokens() is the one algorithm that
// reads them. Arabic parts come out through normaliseArabic, Latin parts in lower case.
import { normaliseArabic } from './arabic.js';

export type CompoundKind = 'connector' | 'prefix' | 'article' | 'sun-article' | 'suffix';

export interface CompoundRule {
  readonly rule: string;
  readonly kind: CompoundKind;
  /** The words, as tokens() sees them: normalised Arabic or lower-case Latin. */
  readonly words: readonly string[];
  /** [full name, expected tokens]. */
  readonly examples: readonly (readonly [string, readonly string[]])[];
}

/** The compound-name rules. A rule's words are matched whole, never inside a part. */
export const COMPOUND_RULES: readonly CompoundRule[] = [
  {
    rule: 'connectors (bin, ibn, bint, ould, بن, ابن, بنت) between parts are dropped',
    kind: 'connector',
    words: ['bin', 'ben', 'ibn', 'bint', 'ould', 'بن', 'ابن', 'بنت'],
    examples: [
      ['Ahmad bin Ali', ['ahmad', 'ali']],
      ['أحمد بن علي', ['احمد', 'علي']],
    ],
  },
  {
    rule: 'Abd, Abu and Umm with the part after them (and its article) are one part',
    kind: 'prefix',
    words: [
      'abd',
      'abdel',
      'abdul',
      'abdal',
      'abdoul',
      'abdol',
      'abu',
      'abou',
      'abo',
      'abul',
      'aboul',
      'umm',
      'oum',
      'عبد',
      'ابو',
      'ام',
    ],
    examples: [
      ['عبد الله محمد', ['عبدالله', 'محمد']],
      ['عبد الرحمن', ['عبدالرحمن']],
      ['أبو بكر', ['ابوبكر']],
      ['Abdul Rahman Ali', ['abdulrahman', 'ali']],
      ['Abd al-Rahman', ['abdalrahman']],
      ['Abd-el-Kader', ['abdelkader']],
      ['Abd ar-Rahman', ['abdarrahman']],
      ['Abu Bakr', ['abubakr']],
      ['Umm Mohammed', ['ummmohammed']],
    ],
  },
  {
    rule: 'a definite article standing alone (al, el, ال) joins the part after it',
    kind: 'article',
    words: ['al', 'el', 'ال'],
    examples: [
      ['Hassan Al Ali', ['hassan', 'al-ali']],
      ['Hassan el-Ali', ['hassan', 'el-ali']],
      ['حسن ال علي', ['حسن', 'العلي']],
    ],
  },
  {
    rule: 'an article assimilated to a sun letter (ad-, ar-, as-, ash-, at-, az-, en-, ed-, er-, es-, et-, ez-) joins the part after it when that part opens with the same letter',
    kind: 'sun-article',
    words: ['ad', 'ar', 'as', 'ash', 'at', 'az', 'an', 'ed', 'er', 'es', 'esh', 'et', 'ez', 'en'],
    examples: [
      ['Deir ez-Zor', ['deir', 'ez-zor']],
      ['Abu Kamal ar-Raqqa', ['abukamal', 'ar-raqqa']],
      ['Ash-Sham', ['ash-sham']],
      ['Ahmad As Ali', ['ahmad', 'as', 'ali']],
    ],
  },
  {
    rule: 'al-Din and Allah join the part before them, with their article',
    kind: 'suffix',
    words: [
      'din',
      'deen',
      'dine',
      'eddin',
      'eddine',
      'uddin',
      'addin',
      'aldin',
      'eldin',
      'allah',
      'ullah',
      'illah',
      'الدين',
      'الله',
    ],
    examples: [
      ['Nour al-Din', ['nouraldin']],
      ['Nour Eddine Hamdan', ['noureddine', 'hamdan']],
      ['Nour ed-Din', ['noureddin']],
      ['نور الدين', ['نورالدين']],
      ['Saif Allah', ['saifallah']],
      ['سيف الله', ['سيفالله']],
    ],
  },
];

/** Article forms that may stand between a compound's words, assimilated ones included (ar-, ad-, as-, ...). */
export const COMPOUND_ARTICLES: readonly string[] = [
  'al',
  'el',
  'ul',
  'il',
  'ar',
  'er',
  'ur',
  'as',
  'es',
  'us',
  'ash',
  'esh',
  'ad',
  'ed',
  'ud',
  'at',
  'et',
  'az',
  'ez',
  'an',
  'en',
  'ال',
];

const wordsOf = (kind: CompoundKind): ReadonlySet<string> =>
  new Set(COMPOUND_RULES.filter((r) => r.kind === kind).flatMap((r) => r.words));
const CONNECTORS = wordsOf('connector');
const PREFIXES = wordsOf('prefix');
const ARTICLES = wordsOf('article');
const SUN_ARTICLES = wordsOf('sun-article');
/** ez-Zor, ash-Sham: the article's last letter(s) are the part's first (assimilation), never 'As Ali'. */
const assimilated = (article: string, next: string): boolean =>
  SUN_ARTICLES.has(article) && next.length > 2 && next.startsWith(article.slice(1));
const SUFFIXES = wordsOf('suffix');
const COMPOUND_ARTICLE_SET = new Set(COMPOUND_ARTICLES);

const isArabicWord = (w: string): boolean => /[\u0620-\u06FF]/u.test(w);

/** The raw parts: normalised, lower case, split at spaces and punctuation (not apostrophes). */
function rawParts(fullName: string): string[] {
  return normaliseArabic(fullName.normalize('NFC'))
    .toLowerCase()
    .split(/[\s,.;:_/()[\]"«»\-–—]+/u)
    .filter((p) => p.length > 0);
}

/**
 * The parts of a full name, compound names kept whole.
 *
 * @example
 *   tokens('Abdul Rahman bin Ali Al Hassan') // ['abdulrahman', 'ali', 'al-hassan']
 *   tokens('عبد الله محمد') // ['عبدالله', 'محمد']
 */
export function tokens(fullName: string): string[] {
  const parts = rawParts(fullName);
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    const p = parts[i] ?? '';
    const next = parts[i + 1];
    const afterNext = parts[i + 2];
    if (CONNECTORS.has(p) && out.length > 0 && next !== undefined) {
      i += 1;
    } else if (PREFIXES.has(p) && next !== undefined) {
      if (COMPOUND_ARTICLE_SET.has(next) && afterNext !== undefined) {
        out.push(p + next + afterNext);
        i += 3;
      } else {
        out.push(p + next);
        i += 2;
      }
    } else if (SUFFIXES.has(p) && out.length > 0) {
      out[out.length - 1] += p;
      i += 1;
    } else if (
      COMPOUND_ARTICLE_SET.has(p) &&
      next !== undefined &&
      SUFFIXES.has(next) &&
      out.length > 0
    ) {
      out[out.length - 1] += p + next;
      i += 2;
    } else if (next !== undefined && assimilated(p, next)) {
      out.push(`${p}-${next}`);
      i += 2;
    } else if (ARTICLES.has(p) && next !== undefined) {
      out.push(isArabicWord(p) ? p + next : `${p}-${next}`);
      i += 2;
    } else {
      out.push(p);
      i += 1;
    }
  }
  return out;
}
