// A script-independent comparison key per name part: both محمد and Mohammed become "mhmd".
// The key is a consonant skeleton, because Arabic script leaves short vowels unwritten and Latin
// transliterations disagree mostly about vowels. Arabic letters map through ARABIC_KEY_LETTERS,
// Latin spellings through LATIN_KEY_RULES, and both end with SKELETON_RULES. Every row carries
// the names it must bring together (and, where it matters, keep apart); name-key.test.ts runs one
// test per row. خ (Latin kh, Hawar x) keys as "x" and ك/ق (k, q) as "k": they never merge.
import { normaliseArabic, hasArabic } from './arabic.js';
import { tokens } from './tokens.js';

export interface KeyRule {
  readonly rule: string;
  readonly apply: (s: string) => string;
  /** Groups of names that must share one key. */
  readonly same: readonly (readonly string[])[];
  /** Pairs of names that must keep different keys. */
  readonly distinct?: readonly (readonly [string, string])[];
}

const replace =
  (pattern: RegExp, replacement: string) =>
  (s: string): string =>
    s.replace(pattern, replacement);

/**
 * Latin forms that are not spellings of the Arabic: exonyms and forms from other languages, each
 * to a spelling the rules below key like the Arabic. Matched as a whole part, article aside.
 */
export const LATIN_NAME_FORMS: ReadonlyMap<string, string> = new Map([
  ['damascus', 'dimashq'],
  ['aleppo', 'halab'],
  ['latakia', 'ladhiqiyya'],
  ['lattakia', 'ladhiqiyya'],
  ['osman', 'othman'],
  ['hage', 'hajj'],
  ['tohme', 'toumeh'],
]);

/** Latin spellings, in the order the rules apply. Placeholders: C = sh (ش), X = kh (خ), U = ou (a long u). */
export const LATIN_KEY_RULES: readonly KeyRule[] = [
  {
    rule: 'known forms no spelling rule reaches: exonyms of Syrian places (Damascus, Aleppo, Latakia) and the Turkish, French and Lebanese forms of names (Osman, El Hage, Tohme)',
    apply: (s) => {
      const whole = LATIN_NAME_FORMS.get(s);
      if (whole !== undefined) return whole;
      const m = /^((?:al|el)-)([a-z]+)$/.exec(s);
      const form = m === null ? undefined : LATIN_NAME_FORMS.get(m[2] ?? '');
      return form === undefined ? s : `${m?.[1] ?? ''}${form}`;
    },
    same: [
      ['Damascus', 'Dimashq', 'دمشق'],
      ['Aleppo', 'Halab', 'حلب'],
      ['Latakia', 'Lattakia', 'Ladhiqiyya', 'اللاذقية'],
      ['Osman', 'Othman', 'عثمان'],
      ['El Hage', 'Al-Hajj', 'الحاج'],
      ['Tohme', 'Toumeh', 'طعمة'],
    ],
    distinct: [['Osmani', 'Othman']],
  },
  {
    rule: 'Kurdish Hawar letters: c is j (ج), ş is sh, ç is ch, x is kh, ğ is gh',
    apply: (s) =>
      s
        .replace(/c(?!h)/g, 'j')
        .replace(/ş/g, 'sh')
        .replace(/ç/g, 'ch')
        .replace(/x/g, 'kh')
        .replace(/ğ/g, 'gh'),
    same: [
      ['Cemal', 'Jamal', 'جمال'],
      ['Şêrko', 'Sherko', 'شێرکۆ'],
      ['Xalid', 'Khalid', 'خالد'],
      ['Çiya', 'Chiya', 'چیا'],
    ],
  },
  {
    rule: 'Arabizi digits: 2 (ء) and 3 (ع) are dropped, 7 is h (ح), 5 is kh (خ)',
    apply: (s) => s.replace(/[23]/g, '').replace(/7/g, 'h').replace(/5/g, 'kh'),
    same: [
      ['7assan', 'Hassan', 'حسن'],
      ['5aled', 'Khaled', 'خالد'],
      ['3omar', 'Omar', 'عمر'],
    ],
  },
  {
    rule: 'scholarly diacritics (ḥ ṣ ā ʿ ʾ) and apostrophes are dropped',
    apply: (s) =>
      s
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .replace(/[^a-z-]/g, ''),
    same: [
      ['Ḥasan', 'Hasan'],
      ['ʿUmar', 'Umar', "'Omar"],
      ["Ma'moun", 'Mamoun', 'مأمون'],
    ],
  },
  {
    rule: 'Muhammad and its abbreviations (Mhd, Mohd, Muhd, Mhmd) are one name',
    apply: (s) => (/^(?:mhd|mohd|muhd|mhmd|mohmd|mhmmd)$/.test(s) ? 'muhammad' : s),
    same: [['Mohammed', 'Muhammad', 'Mohamad', 'Mohamed', 'Muhammed', 'Mhd', 'Mohd', 'محمد']],
  },
  {
    rule: 'Abd al-, Abdul, Abdel, Abd ar- and Abu al- drop their inner article',
    apply: (s) =>
      s
        .replace(/^abd(?:[aeiou]l|[aeiou](?=([^aeiou])\1))(?=[a-z]{2})/, 'abd')
        .replace(/^ab(?:ou|u|o)(?:[aeiou]?l|[aeiou](?=([^aeiou])\1))(?=[a-z]{3})/, 'abu'),
    same: [
      [
        'Abd al-Rahman',
        'Abdul Rahman',
        'Abdel Rahman',
        'Abdulrahman',
        'Abdurrahman',
        'Abd Al Rahman',
        'عبد الرحمن',
        'عبدالرحمن',
      ],
      ['Abdullah', 'Abdallah', 'Abd Allah', 'Abdulla', 'عبد الله', 'عبدالله'],
      ['Abdelkader', 'Abd al-Qadir', 'عبد القادر'],
      ['Abu al-Fadl', 'Aboul Fadl', 'أبو الفضل'],
    ],
  },
  {
    rule: 'al-Din (ad-Din, ed-Din, Eddine, uddin) drops its inner article',
    apply: replace(/(?<=[a-z]{2})(?:[aeiou]l|[aeiou](?=dd))?d{1,2}(?:i|ee|ii)ne?$/, 'din'),
    same: [['Nour al-Din', 'Nour Eddine', 'Nour ed-Din', 'Nureddin', 'Nouraldin', 'نور الدين']],
  },
  {
    rule: 'a leading article al-, el- (and Al or El joined to a consonant and four letters) is dropped, assimilated forms too (ez-Zor, ash-Sham)',
    apply: (s) =>
      s
        .replace(/^(?:al|el|[ae](?:sh|[dnrstz]))-/, '')
        .replace(/^(?:al|el)(?=[^aeiouy-][a-z]{3,}$)/, '')
        .replace(/-/g, ''),
    same: [
      ['al-Hassan', 'el-Hassan', 'Al Hassan', 'Alhassan', 'Hassan', 'الحسن', 'حسن'],
      ['ez-Zor', 'al-Zour', 'الزور'],
      ['Ash-Sham', 'al-Sham', 'الشام'],
    ],
    distinct: [['Alma', 'Ma']],
  },
  {
    rule: 'French ou is w before a vowel (Ouassim), a long u (U) otherwise (Youssef)',
    apply: (s) => s.replace(/ou(?=[aeiy])/g, 'w').replace(/ou/g, 'U'),
    same: [
      ['Ouassim', 'Wassim', 'وسيم'],
      ['Youssef', 'Yusuf', 'Yousef', 'يوسف'],
    ],
  },
  {
    rule: 'digraphs: kh (خ), sh and French ch (ش), gh (غ), th (ث), dh and z (ذ ظ), French dj and zh (ج ژ), ph (f)',
    apply: (s) =>
      s
        .replace(/kh/g, 'X')
        .replace(/[sc]h/g, 'C')
        .replace(/gh/g, 'g')
        .replace(/th/g, 't')
        .replace(/dh/g, 'z')
        .replace(/dj|zh/g, 'j')
        .replace(/ph/g, 'f'),
    same: [
      ['Chadi', 'Shadi', 'شادي'],
      ['Djamel', 'Jamal', 'جمال'],
      ['Munzer', 'Mundhir', 'منذر'],
      ['Ghassan', 'غسان'],
      ['Othman', 'عثمان'],
      ['Zhila', 'Jîla', 'ژیلا'],
    ],
    distinct: [
      ['Khaled', 'Kaled'],
      ['Khalil', 'Kalil'],
      ['خالد', 'كالد'],
      ['Khaled', 'كالد'],
    ],
  },
  {
    rule: 'q and k are one key (ق is written both ways), and ck is k',
    apply: (s) => s.replace(/ck/g, 'k').replace(/q/g, 'k'),
    same: [
      ['Qasim', 'Kassem', 'Kasim', 'قاسم'],
      ['Tariq', 'Tarek', 'طارق'],
    ],
  },
  {
    rule: 'v is f (ڤ) and p is b (پ), letters Arabic writes with f and b',
    apply: (s) => s.replace(/v/g, 'f').replace(/p/g, 'b'),
    same: [
      ['Vian', 'ڤیان'],
      ['Piroz', 'پیرۆز'],
    ],
  },
];

/** Arabic letters to key letters; a (ا) and ' (ع, a vowel seat) are vowels, so are w and y unless first. */
export const ARABIC_KEY_LETTERS: readonly {
  letter: string;
  key: string;
  same: readonly string[];
}[] = [
  { letter: 'ا', key: 'a', same: ['ابراهيم', 'Ibrahim'] },
  { letter: 'ب', key: 'b', same: ['بشار', 'Bashar'] },
  { letter: 'ت', key: 't', same: ['تامر', 'Tamer'] },
  { letter: 'ث', key: 't', same: ['عثمان', 'Othman'] },
  { letter: 'ج', key: 'j', same: ['جمال', 'Jamal'] },
  { letter: 'ح', key: 'h', same: ['حسن', 'Hassan'] },
  { letter: 'خ', key: 'x', same: ['خالد', 'Khaled'] },
  { letter: 'د', key: 'd', same: ['دياب', 'Diab'] },
  { letter: 'ذ', key: 'z', same: ['منذر', 'Munzer'] },
  { letter: 'ر', key: 'r', same: ['رامي', 'Rami'] },
  { letter: 'ز', key: 'z', same: ['زياد', 'Ziad'] },
  { letter: 'س', key: 's', same: ['سامر', 'Samer'] },
  { letter: 'ش', key: 'c', same: ['شادي', 'Chadi'] },
  { letter: 'ص', key: 's', same: ['صالح', 'Saleh'] },
  { letter: 'ض', key: 'd', same: ['رمضان', 'Ramadan'] },
  { letter: 'ط', key: 't', same: ['طارق', 'Tarek'] },
  { letter: 'ظ', key: 'z', same: ['ظافر', 'Dhafer'] },
  { letter: 'ع', key: "'", same: ['عمر', 'Omar'] },
  { letter: 'غ', key: 'g', same: ['غسان', 'Ghassan'] },
  { letter: 'ف', key: 'f', same: ['فراس', 'Firas'] },
  { letter: 'ق', key: 'k', same: ['قاسم', 'Qasim'] },
  { letter: 'ك', key: 'k', same: ['كريم', 'Karim'] },
  { letter: 'ل', key: 'l', same: ['نبيل', 'Nabil'] },
  { letter: 'م', key: 'm', same: ['مازن', 'Mazen'] },
  { letter: 'ن', key: 'n', same: ['نادر', 'Nader'] },
  { letter: 'ه', key: 'h', same: ['هاني', 'Hani'] },
  { letter: 'و', key: 'w', same: ['وليد', 'Walid'] },
  { letter: 'ي', key: 'y', same: ['يوسف', 'Yusuf'] },
  { letter: 'پ', key: 'b', same: ['پیرۆز', 'Piroz'] },
  { letter: 'چ', key: 'c', same: ['چیا', 'Çiya'] },
  { letter: 'ژ', key: 'j', same: ['ژیلا', 'Jila'] },
  { letter: 'گ', key: 'g', same: ['گوران', 'Goran'] },
];
const ARABIC_KEY = new Map(ARABIC_KEY_LETTERS.map((r) => [r.letter, r.key]));

/** Names that begin with ال without an article (Ilyas, Ilham, Olfat, Alyssar). */
export const ARABIC_NAMES_WITHOUT_ARTICLE: readonly string[] = ['الياس', 'الهام', 'الفت', 'اليسار'];

/** Arabic parts, after normaliseArabic and before the letters are mapped. */
export const ARABIC_KEY_RULES: readonly KeyRule[] = [
  {
    rule: 'عبد ال-, أبو ال- and ام ال- drop their inner article; so does -الدين',
    apply: (s) => s.replace(/^(عبد|ابو|ام)ال(?=..)/u, '$1').replace(/(?<=..)الدين$/u, 'دين'),
    same: [
      ['عبد الرحمن', 'عبدرحمن', 'Abdul Rahman'],
      ['صلاح الدين', 'Salah Eddine', 'Salahuddin'],
    ],
  },
  {
    rule: 'a leading article ال is dropped (before two letters too: التل, الرز), except in names that begin with ال (الياس, الهام)',
    apply: (s) => (ARABIC_NAMES_WITHOUT_ARTICLE.includes(s) ? s : s.replace(/^ال(?=..)/u, '')),
    same: [
      ['الحسن', 'حسن', 'Hassan'],
      ['الهام', 'Ilham'],
      ['التل', 'Al-Tal', 'Tell'],
      ['الرز', 'Al-Rez', 'Rez'],
    ],
    distinct: [['الهام', 'هام']],
  },
  {
    rule: 'letters map to key letters (ARABIC_KEY_LETTERS); others are dropped',
    apply: (s) => Array.from(s, (c) => ARABIC_KEY.get(c) ?? '').join(''),
    same: [['ئەحمەد', 'أحمد', 'Ahmad']],
  },
];

/** The skeleton both scripts end in, applied to the output of either table above. */
export const SKELETON_RULES: readonly KeyRule[] = [
  {
    rule: 'vowels are dropped; y and w are vowels too, unless they open the part',
    apply: (s) =>
      (/^[yw]/.test(s) ? s[0] : '') + s.slice(/^[yw]/.test(s) ? 1 : 0).replace(/[aeiouywU']/g, ''),
    same: [
      ['Ayman', 'Aiman', 'أيمن'],
      ['Walid', 'وليد'],
      ['Eyad', 'Iyad', 'إياد'],
      ['Issa', 'Eissa', 'عيسى'],
      ['ئیبراهیم', 'Ibrahim', 'إبراهيم'],
    ],
  },
  {
    rule: 'final -a, -ah, -eh (taa marbuta) and a final h are dropped',
    apply: (s) => (s.length > 1 ? s.replace(/h$/, '') : s),
    same: [
      ['Fatima', 'Fatimah', 'Fatmeh', 'فاطمة', 'فاطمه'],
      ['Taha', 'طه'],
      ['Saleh', 'صالح'],
    ],
  },
  {
    rule: 'doubled letters (shadda, ss, mm) are one; placeholders become key letters',
    apply: (s) => s.replace(/(.)\1+/g, '$1').toLowerCase(),
    same: [
      ['Hassan', 'Hasan', 'حسّان'],
      ['Mohammed', 'Mohamed'],
    ],
  },
];

/** The rule tables a key is computed with (all of them, unless a test leaves one out). */
export interface KeyTables {
  readonly latin: readonly KeyRule[];
  readonly arabic: readonly KeyRule[];
  readonly skeleton: readonly KeyRule[];
}

export const KEY_TABLES: KeyTables = {
  latin: LATIN_KEY_RULES,
  arabic: ARABIC_KEY_RULES,
  skeleton: SKELETON_RULES,
};

/**
 * The comparison key of one part (a token from tokens()), whatever its script.
 *
 * @example
 *   tokenKey('محمد') // 'mhmd'
 *   tokenKey('mohammed') // 'mhmd'
 */
export function tokenKey(token: string, tables: KeyTables = KEY_TABLES): string {
  let out = beforeSkeleton(token, tables);
  for (const row of tables.skeleton) out = row.apply(out);
  return out;
}

/** A part through its script's table, before the skeleton rules: vowels still in (vowels.ts reads them). */
export function beforeSkeleton(token: string, tables: KeyTables = KEY_TABLES): string {
  const arabic = hasArabic(token);
  let out = arabic ? normaliseArabic(token) : token.toLowerCase();
  for (const row of arabic ? tables.arabic : tables.latin) out = row.apply(out);
  return out;
}

/** The key of every part of a full name, in order. */
export function nameKeys(fullName: string, tables: KeyTables = KEY_TABLES): string[] {
  return tokens(fullName).map((t) => tokenKey(t, tables));
}

/**
 * The script-independent comparison key of a name: one key per part, joined by a space.
 *
 * @example
 *   nameKey('Abdul Rahman Al Hassan') === nameKey('عبد الرحمن الحسن') // true: 'bdrhmn hsn'
 */
export function nameKey(fullName: string, tables: KeyTables = KEY_TABLES): string {
  return nameKeys(fullName, tables).join(' ');
}
