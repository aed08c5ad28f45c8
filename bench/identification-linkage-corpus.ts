// Synthetic missing-person reports for record linkage (issue 15): people drawn from Syrian,
// Kurdish and Palestinian name pools, each reported by one to three organisations, every report
// corrupted the way families' reports are: transliteration variants, Arabic spelling variants
// (hamza, taa marbuta, tashkeel, tatweel), typos in both scripts, dropped and reordered name parts,
// missing fields, dates off by a day, a month or a year, birth years off, a wrong branch in 10%.
// Fixed before any tuning of the linkage: the rates below are not adjusted to the results.
import { seededPrng, type Prng } from '../src/stats/index.js';
import type { LinkRecord } from '../src/identification/linkage/index.js';

/** 'Arabic:Latin|Latin variant|…' — the first Latin form is the common one. */
type Entry = readonly [string, readonly string[]];
const parse = (rows: readonly string[]): Entry[] =>
  rows.map((row) => {
    const [ar = '', latin = ''] = row.split(':');
    return [ar, latin.split('|')] as const;
  });

export const MALE_GIVEN = parse([
  'محمد:Mohammed|Muhammad|Mohamad|Mhd|Mohamed',
  'أحمد:Ahmad|Ahmed',
  'علي:Ali',
  'حسن:Hassan|Hasan',
  'حسين:Hussein|Hussain|Houssein',
  'عمر:Omar|Umar',
  'خالد:Khaled|Khalid',
  'محمود:Mahmoud|Mahmud',
  'مصطفى:Mustafa|Moustafa|Mostafa',
  'يوسف:Youssef|Yusuf|Yousef',
  'إبراهيم:Ibrahim|Ebrahim',
  'عبد الله:Abdullah|Abdallah|Abd Allah',
  'عبد الرحمن:Abdul Rahman|Abdulrahman|Abd al-Rahman|Abdel Rahman',
  'عبد القادر:Abdelkader|Abdul Qader|Abd al-Qadir',
  'سامر:Samer|Sameer',
  'وليد:Walid|Waleed|Oualid',
  'طارق:Tarek|Tariq|Tarik',
  'قاسم:Qasim|Kassem|Kasim',
  'جمال:Jamal|Djamel',
  'شادي:Shadi|Chadi',
  'منذر:Munzer|Mundhir|Monzer',
  'غسان:Ghassan',
  'عثمان:Othman|Osman',
  'فراس:Firas|Feras',
  'مازن:Mazen|Mazin',
  'نادر:Nader|Nadir',
  'هاني:Hani|Hany',
  'زياد:Ziad|Ziyad',
  'ياسر:Yasser|Yaser',
  'بشار:Bashar|Bachar',
  'أيمن:Ayman|Aiman',
  'إياد:Iyad|Eyad',
  'عيسى:Issa|Eissa',
  'صالح:Saleh|Salih',
  'رامي:Rami|Ramy',
  'كريم:Karim|Kareem',
  'نبيل:Nabil|Nabeel',
  'سعيد:Said|Saeed',
  'ماهر:Maher',
  'عماد:Imad|Emad',
  'رضوان:Radwan|Redouane',
  'نور الدين:Nour al-Din|Noureddine|Nureddin',
  'أنس:Anas',
  'معاذ:Muaz|Mouaz|Moaz',
  'حمزة:Hamza|Hamzah',
  'عدنان:Adnan',
  'سليمان:Suleiman|Sleiman|Soliman',
  'مروان:Marwan',
  'باسل:Basel|Basil',
  'فادي:Fadi|Fady',
  "وائل:Wael|Wa'el",
  'هيثم:Haitham|Haytham',
  'جهاد:Jihad|Jehad',
  'أسامة:Osama|Oussama|Usama',
  'خليل:Khalil',
  'رياض:Riad|Riyad',
  'عبد الكريم:Abdul Karim|Abdelkarim',
  'ثائر:Thaer|Thaier',
  'طه:Taha',
  'شيركو:Sherko|Şêrko',
  'آزاد:Azad',
  'دلشاد:Dilshad|Dilşad',
]);

export const FEMALE_GIVEN = parse([
  'فاطمة:Fatima|Fatimah|Fatmeh',
  'عائشة:Aisha|Aicha|Aysha',
  'مريم:Maryam|Mariam|Meryem',
  'زينب:Zeinab|Zainab',
  'خديجة:Khadija|Khadijah',
  'نور:Nour|Noor|Nur',
  'سارة:Sara|Sarah',
  'رنا:Rana',
  'هدى:Huda|Houda|Hoda',
  'سلمى:Salma',
  'ليلى:Layla|Leila',
  'رزان:Razan',
  'آمنة:Amina|Aminah|Ameneh',
  'رقية:Ruqaya|Roukaya',
  'سعاد:Souad|Suad',
  'نادية:Nadia|Nadiya',
  'منى:Mona|Muna',
  'هالة:Hala',
  'سميرة:Samira|Sameera',
  'غادة:Ghada',
  'وفاء:Wafaa|Wafa',
  'رحاب:Rehab|Rihab',
  'جميلة:Jamila|Djamila',
  'ناهد:Nahed',
  'شيرين:Shirin|Chirine',
]);

export const FAMILY = parse([
  'الحسن:Al-Hassan|Al Hassan|Alhassan|Hassan',
  'العلي:Al-Ali|Al Ali',
  'الخطيب:Al-Khatib|Khatib|El Khatib',
  'حمدان:Hamdan',
  'الأحمد:Al-Ahmad|Al Ahmed',
  'المصري:Al-Masri|Masri|El Masri',
  'الحلبي:Al-Halabi|Halabi',
  'الشامي:Al-Shami|Chami|Al Shami',
  'العمر:Al-Omar|Al Umar',
  'الصالح:Al-Saleh|Saleh',
  'قباني:Qabbani|Kabbani',
  'الخوري:Al-Khoury|Khoury|Khouri',
  'الزعبي:Al-Zoubi|Zoubi|Al Zoubi',
  'الحمصي:Al-Homsi|Homsi',
  'الدرويش:Al-Darwish|Darwiche',
  'النجار:Al-Najjar|Najjar|Nadjar',
  'الحداد:Al-Haddad|Haddad',
  'الكردي:Al-Kurdi|Kurdi',
  'السيد:Al-Sayed|El Sayed|Sayyed',
  'الحاج:Al-Hajj|Hajj|El Hage',
  'القاسم:Al-Qasim|Kassem',
  'العثمان:Al-Othman|Osman',
  'الجاسم:Al-Jassem|Jassim',
  'الرفاعي:Al-Rifai|Rifaai',
  'الطويل:Al-Tawil|Tawil',
  'السقا:Al-Saqqa|Sakka',
  'الحموي:Al-Hamwi|Hamwi',
  'الديري:Al-Deiri|Deiri',
  'الإدلبي:Al-Idlibi|Idlibi',
  'البيطار:Al-Bitar|Bitar',
  'الشيخ:Al-Sheikh|Cheikh|El Sheikh',
  'العطار:Al-Attar|Attar',
  'الحريري:Al-Hariri|Hariri',
  'المحمد:Al-Mohammad|Al Mohamed',
  'الخليل:Al-Khalil|Khalil',
  'الأسعد:Al-Asaad|Assad',
  'الزين:Al-Zein|Zein',
  'الفارس:Al-Fares|Fares',
  'الحسين:Al-Hussein|Hussein',
  'الموسى:Al-Mousa|Moussa',
  'بكور:Bakkour|Bakour',
  'دياب:Diab|Dyab',
  'عكاش:Akkash|Okash',
  'طعمة:Tohme|Toumeh|Tomeh',
  'سلوم:Salloum|Saloum',
  'شيخو:Sheikho|Şêxo',
  'برزاني:Barzani',
  'ملا:Mulla|Mala',
  'الجندي:Al-Jundi|Jundi',
  'الرز:Al-Rez|Rez',
]);

export const PLACES = parse([
  'دمشق:Damascus|Dimashq',
  'حلب:Aleppo|Halab',
  'حمص:Homs|Hims',
  'حماة:Hama|Hamah',
  'درعا:Daraa|Deraa',
  'إدلب:Idlib|Edleb',
  'دير الزور:Deir ez-Zor|Deir al-Zour',
  'الرقة:Raqqa|Al-Raqqa|Rakka',
  'اللاذقية:Latakia|Lattakia',
  'طرطوس:Tartus|Tartous',
  'الحسكة:Hasakah|Al-Hasakah|Hassakeh',
  'القامشلي:Qamishli|Kamechliye',
  'دوما:Douma|Duma',
  'داريا:Daraya|Darayya',
  'الزبداني:Zabadani',
  'معضمية الشام:Moadamiyeh|Muadamiyat al-Sham',
  'السويداء:Suwayda|Sweida',
  'التل:Al-Tal|Tell',
  'جرمانا:Jaramana|Jaramanah',
  'عفرين:Afrin|Efrin',
]);

export const UNITS = [
  'branch-215',
  'branch-227',
  'branch-235',
  'branch-248',
  'branch-251',
  'branch-285',
  'branch-291',
  'air-force-intelligence-mezzeh',
  'military-police-qaboun',
  'saydnaya',
];

export const ORGS = ['org-a', 'org-b', 'org-c'];

export interface Person {
  readonly id: string;
  readonly sex: 'male' | 'female';
  readonly given: Entry;
  readonly father: Entry;
  readonly grandfather: Entry;
  readonly family: Entry;
  readonly mother: Entry;
  readonly birthYear: number;
  readonly origin: Entry;
  readonly arrest: { y: number; m: number; d: number };
  readonly arrestPlace: Entry;
  readonly unit: string;
}

export interface SyntheticReports {
  readonly people: readonly Person[];
  readonly records: readonly LinkRecord[];
  /** Report id → person id: the truth. */
  readonly truth: ReadonlyMap<string, string>;
}

const chance = (rng: Prng, p: number): boolean => rng.nextUint32() / 2 ** 32 < p;
const pick = <T>(rng: Prng, xs: readonly T[]): T => xs[rng.nextInt(xs.length)] as T;
/** A Zipf-like draw: common names are common (rank^-0.8). */
function zipf<T>(rng: Prng, xs: readonly T[]): T {
  const weights = xs.map((_, i) => (i + 1) ** -0.8);
  let r = (rng.nextUint32() / 2 ** 32) * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < xs.length; i++) {
    r -= weights[i] ?? 0;
    if (r <= 0) return xs[i] as T;
  }
  return xs[xs.length - 1] as T;
}

const ARABIC_LETTERS = 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي';
const LATIN_LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One typo: delete, substitute, or swap two neighbours (in either script). */
function typo(rng: Prng, s: string): string {
  const cs = Array.from(s);
  if (cs.length < 3) return s;
  const i = 1 + rng.nextInt(cs.length - 2);
  const letters = /[\u0600-\u06FF]/u.test(s) ? ARABIC_LETTERS : LATIN_LETTERS;
  const kind = rng.nextInt(3);
  if (kind === 0) cs.splice(i, 1);
  else if (kind === 1) cs[i] = pick(rng, Array.from(letters));
  else [cs[i - 1], cs[i]] = [cs[i] ?? '', cs[i - 1] ?? ''];
  return cs.join('');
}

/** Arabic spelling as families type it: bare alef for hamza forms, heh for taa marbuta, some tashkeel. */
function arabicVariant(rng: Prng, s: string): string {
  let out = s;
  if (chance(rng, 0.4)) out = out.replace(/[أإآ]/g, 'ا');
  if (chance(rng, 0.3)) out = out.replace(/ة/g, 'ه');
  if (chance(rng, 0.3)) out = out.replace(/ى/g, 'ي');
  if (chance(rng, 0.1)) out = out.replace(/(.)/u, '$1َ');
  if (chance(rng, 0.05)) out = out.replace(/(..)/u, '$1ـ');
  if (chance(rng, 0.1)) out = out.replace(/ /g, '');
  return out;
}

function arabic(rng: Prng, e: Entry, typoRate: number): string {
  const v = arabicVariant(rng, e[0]);
  return chance(rng, typoRate) ? typo(rng, v) : v;
}

function latin(rng: Prng, e: Entry, typoRate: number): string {
  const v = chance(rng, 0.5) ? (e[1][0] ?? '') : pick(rng, e[1]);
  return chance(rng, typoRate) ? typo(rng, v) : v;
}

const pad = (n: number): string => String(n).padStart(2, '0');

function makePerson(rng: Prng, id: string): Person {
  const sex = chance(rng, 0.85) ? 'male' : 'female';
  return {
    id,
    sex,
    given: zipf(rng, sex === 'male' ? MALE_GIVEN : FEMALE_GIVEN),
    father: zipf(rng, MALE_GIVEN),
    grandfather: zipf(rng, MALE_GIVEN),
    family: zipf(rng, FAMILY),
    mother: zipf(rng, FEMALE_GIVEN),
    birthYear: 1950 + rng.nextInt(50),
    origin: zipf(rng, PLACES),
    arrest: { y: 2011 + rng.nextInt(5), m: 1 + rng.nextInt(12), d: 1 + rng.nextInt(28) },
    arrestPlace: zipf(rng, PLACES),
    unit: zipf(rng, UNITS),
  };
}

/** The arrest date as reported: precision day / month / year, off by a day, a month or a year. */
function reportedDate(rng: Prng, a: Person['arrest']): string {
  let { y, m, d } = a;
  if (chance(rng, 0.1)) d = Math.min(28, Math.max(1, d + (chance(rng, 0.5) ? 1 : -1)));
  if (chance(rng, 0.05)) m = Math.min(12, Math.max(1, m + (chance(rng, 0.5) ? 1 : -1)));
  if (chance(rng, 0.05)) y += chance(rng, 0.5) ? 1 : -1;
  const precision = rng.nextInt(10);
  if (precision < 6) return `${y}-${pad(m)}-${pad(d)}`;
  if (precision < 9) return `${y}-${pad(m)}`;
  return `${y}`;
}

const TYPO_RATE = 0.08;

function makeReport(rng: Prng, p: Person, id: string, org: string): LinkRecord {
  const r: { -readonly [K in keyof LinkRecord]: LinkRecord[K] } = { id, org };
  const hasAr = chance(rng, 0.85);
  const hasLatin = !hasAr || chance(rng, 0.7);
  // Arabic name: the given name alone, or the full nasab with parts dropped.
  if (hasAr) {
    const layout = rng.nextInt(20);
    const g = arabic(rng, p.given, TYPO_RATE);
    if (layout < 12) r.name_ar = g;
    else if (layout < 17)
      r.name_ar = `${g} ${arabic(rng, p.father, TYPO_RATE)} ${arabic(rng, p.grandfather, TYPO_RATE)} ${arabic(rng, p.family, TYPO_RATE)}`;
    else r.name_ar = `${g} ${arabic(rng, p.father, TYPO_RATE)} ${arabic(rng, p.family, TYPO_RATE)}`;
  }
  // Latin name: given alone, given + family, or family first (a Western form).
  if (hasLatin) {
    const layout = rng.nextInt(10);
    const g = latin(rng, p.given, TYPO_RATE);
    if (layout < 6) r.name_latin = g;
    else if (layout < 9) r.name_latin = `${g} ${latin(rng, p.family, TYPO_RATE)}`;
    else r.name_latin = `${latin(rng, p.family, TYPO_RATE)} ${g}`;
  }
  const part = (e: Entry): string =>
    chance(rng, 0.6) ? arabic(rng, e, TYPO_RATE) : latin(rng, e, TYPO_RATE);
  if (chance(rng, 0.8)) r.father = part(p.father);
  if (chance(rng, 0.4)) r.grandfather = part(p.grandfather);
  if (chance(rng, 0.75)) r.family = part(p.family);
  if (chance(rng, 0.5)) r.mother = part(p.mother);
  if (chance(rng, 0.9)) r.sex = chance(rng, 0.01) ? (p.sex === 'male' ? 'female' : 'male') : p.sex;
  if (chance(rng, 0.7)) {
    const off = chance(rng, 0.15)
      ? chance(rng, 0.5)
        ? 1
        : -1
      : chance(rng, 0.05)
        ? chance(rng, 0.5)
          ? 2
          : -2
        : 0;
    r.birth_year = p.birthYear + off;
  }
  if (chance(rng, 0.8)) r.origin = part(p.origin);
  if (chance(rng, 0.85)) r.arrest_date = reportedDate(rng, p.arrest);
  if (chance(rng, 0.6)) r.arrest_place = part(p.arrestPlace);
  if (chance(rng, 0.5))
    r.unit = chance(rng, 0.1)
      ? pick(
          rng,
          UNITS.filter((u) => u !== p.unit),
        )
      : p.unit;
  return r;
}

/**
 * `reports` reports of `people` people from three organisations: each person is reported once,
 * the remaining reports go to people drawn at random, each by an organisation that has not
 * reported them yet where one is left.
 */
export function syntheticReports(
  people: number,
  reports: number,
  seed = 'identification-linkage-v1',
): SyntheticReports {
  const rng = seededPrng(seed);
  const persons = Array.from({ length: people }, (_, i) =>
    makePerson(rng, `p${String(i).padStart(6, '0')}`),
  );
  const records: LinkRecord[] = [];
  const truth = new Map<string, string>();
  const orgsOf = new Map<string, string[]>();
  for (let i = 0; i < reports; i++) {
    const p = i < people ? (persons[i] as Person) : pick(rng, persons);
    const used = orgsOf.get(p.id) ?? [];
    const free = ORGS.filter((o) => !used.includes(o));
    const org = pick(rng, free.length > 0 ? free : ORGS);
    orgsOf.set(p.id, [...used, org]);
    const id = `r${String(i).padStart(6, '0')}`;
    records.push(makeReport(rng, p, id, org));
    truth.set(id, p.id);
  }
  return { people: persons, records, truth };
}

/** Every true duplicate pair (a < b by id). */
export function truePairs(truth: ReadonlyMap<string, string>): Set<string> {
  const byPerson = new Map<string, string[]>();
  for (const [rid, pid] of truth) byPerson.set(pid, [...(byPerson.get(pid) ?? []), rid]);
  const out = new Set<string>();
  for (const ids of byPerson.values()) {
    const sorted = [...ids].sort();
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) out.add(`${sorted[i]}|${sorted[j]}`);
    }
  }
  return out;
}
