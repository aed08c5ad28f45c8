// Arabic-script normalisation for comparing names as families and organisations write them.
// Each rule is a row of ARABIC_NORMALISATION_RULES, applied in order, with the examples its test
// checks (arabic.test.ts runs one test per row). Code points: Unicode 15, Arabic block U+0600–U+06FF.

/** One rule of a name-handling table: what it does, how, and the examples that prove it. */
export interface TextRule {
  readonly rule: string;
  readonly apply: (s: string) => string;
  /** [input, expected output of the whole pipeline]. */
  readonly examples: readonly (readonly [string, string])[];
}

const replace =
  (pattern: RegExp, replacement: string) =>
  (s: string): string =>
    s.replace(pattern, replacement);

/** Every Arabic-script letter, for the word-boundary rules (the Arabic block less marks and punctuation). */
const LETTER = '[\\u0620-\\u064A\\u066E-\\u06D3\\u06D5\\u06EE-\\u06FF]';

/** The rules of normaliseArabic, in the order they apply. */
export const ARABIC_NORMALISATION_RULES: readonly TextRule[] = [
  {
    rule: 'presentation forms to base letters (NFKC)',
    apply: (s) => s.normalize('NFKC'),
    examples: [
      ['\uFEE3\uFEA4\uFEE4\uFEAA', 'محمد'],
      ['عبد \uFDF2', 'عبد الله'],
    ],
  },
  {
    rule: 'remove bidi controls, joiners and the Arabic letter mark',
    apply: replace(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u061C\uFEFF]/g, ''),
    examples: [
      ['مح\u200Cمد', 'محمد'],
      ['\u200Fأحمد\u200E', 'احمد'],
    ],
  },
  {
    rule: 'remove tashkeel (harakat, tanwin, shadda, sukun, dagger alef, Quranic marks)',
    apply: replace(
      /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E8\u06EA-\u06ED]/g,
      '',
    ),
    examples: [
      ['مُحَمَّد', 'محمد'],
      ['عَبْدُ الرَّحْمٰنِ', 'عبد الرحمن'],
      ['سعيدٌ', 'سعيد'],
    ],
  },
  {
    rule: 'remove tatweel (kashida)',
    apply: replace(/\u0640/g, ''),
    examples: [['محـــمد', 'محمد']],
  },
  {
    rule: 'Sorani short vowel ە inside a word is dropped (Arabic leaves short vowels unwritten)',
    apply: replace(new RegExp(`\\u06D5(?=${LETTER})`, 'gu'), ''),
    examples: [['ئەحمەد', 'احمد']],
  },
  {
    rule: 'Sorani ە at the end of a word is heh',
    apply: replace(/\u06D5/g, 'ه'),
    examples: [['حەمە', 'حمه']],
  },
  {
    rule: 'Kurdish word-initial ئ (vowel seat, ئا included) is alef',
    apply: replace(/(^|[^\u0620-\u06FF])\u0626\u0627?/gu, '$1ا'),
    examples: [
      ['ئازاد', 'ازاد'],
      ['ئیبراهیم', 'ايبراهيم'],
    ],
  },
  {
    rule: 'alef forms (hamza above/below, madda, wasla) are bare alef',
    apply: replace(/[\u0622\u0623\u0625\u0671\u0672\u0673]/g, 'ا'),
    examples: [
      ['أحمد', 'احمد'],
      ['إبراهيم', 'ابراهيم'],
      ['آمنة', 'امنه'],
      ['ٱلله', 'الله'],
    ],
  },
  {
    rule: 'hamza on waw is waw',
    apply: replace(/\u0624/g, 'و'),
    examples: [['مؤمن', 'مومن']],
  },
  {
    rule: 'hamza on yeh is yeh',
    apply: replace(/\u0626/g, 'ي'),
    examples: [['وائل', 'وايل']],
  },
  {
    rule: 'standalone hamza is dropped',
    apply: replace(/\u0621/g, ''),
    examples: [['علاء', 'علا']],
  },
  {
    rule: 'taa marbuta (and its Urdu form) is heh',
    apply: replace(/[\u0629\u06C3]/g, 'ه'),
    examples: [
      ['فاطمة', 'فاطمه'],
      ['حمزة', 'حمزه'],
    ],
  },
  {
    rule: 'alef maqsura and the Persian, Urdu and Kurdish yeh forms are yeh',
    apply: replace(/[\u0649\u06CC\u06CD\u06CE\u06D0\u06D2]/g, 'ي'),
    examples: [
      ['مصطفى', 'مصطفي'],
      ['علی', 'علي'],
      ['شێرزاد', 'شيرزاد'],
    ],
  },
  {
    rule: 'Persian and Urdu kaf forms are kaf',
    apply: replace(/[\u06A9\u06AA]/g, 'ك'),
    examples: [['کریم', 'كريم']],
  },
  {
    rule: 'Urdu and Persian heh forms are heh',
    apply: replace(/[\u06BE\u06C0\u06C1]/g, 'ه'),
    examples: [
      ['ہادی', 'هادي'],
      ['ھشام', 'هشام'],
    ],
  },
  {
    rule: 'veh (ڤ, written for v) is feh',
    apply: replace(/\u06A4/g, 'ف'),
    examples: [['ڤیان', 'فيان']],
  },
  {
    rule: 'Sorani reh and lam with small v are reh and lam',
    apply: (s) => s.replace(/\u0695/g, 'ر').replace(/\u06B5/g, 'ل'),
    examples: [
      ['ڕێباز', 'ريباز'],
      ['هەڵۆ', 'هلو'],
    ],
  },
  {
    rule: 'Sorani oe (ۆ) is waw, and a doubled waw (Sorani long u, داوود) is one',
    apply: (s) => s.replace(/\u06C6/g, 'و').replace(/وو+/g, 'و'),
    examples: [
      ['گۆران', 'گوران'],
      ['داوود', 'داود'],
      ['یووسف', 'يوسف'],
    ],
  },
  {
    rule: 'whitespace collapses to one space, trimmed',
    apply: (s) => s.replace(/\s+/gu, ' ').trim(),
    examples: [['  محمد \t علي ', 'محمد علي']],
  },
];

/**
 * Normalises Arabic-script text for comparison: presentation forms, tashkeel, tatweel, alef forms,
 * hamza carriers, taa marbuta → heh, alef maqsura → yeh, Persian/Urdu and Sorani letter variants.
 * Latin letters pass through unchanged. Never merges خ with ك (no rule touches either).
 *
 * @example
 *   normaliseArabic('أَحْمَـــد') // 'احمد'
 */
export function normaliseArabic(s: string): string {
  let out = s;
  for (const row of ARABIC_NORMALISATION_RULES) out = row.apply(out);
  return out;
}

/** True when `s` contains an Arabic-script letter. */
export function hasArabic(s: string): boolean {
  return /[\u0620-\u06FF\uFB50-\uFDFF\uFE70-\uFEFF]/u.test(s);
}
