// The comparison of two reports, field by field. Each field has its levels, strongest first; a
// level index of MISSING means one side has no value, which adds no evidence either way (m = u).
// Names are compared through identification/names: parts aligned across scripts and part order.
import {
  alignNameParts,
  comparePrepared,
  prepareName,
  prepareParts,
  splitNameParts,
  bestParts,
  type NameComparison,
  type NameHandling,
  type NameParts,
  type PreparedName,
  type PreparedParts,
} from '../names/index.js';
import { LinkageError, type LinkRecord } from './types.js';

export const MISSING = -1;

/** Jaro–Winkler bands of the name levels, on the keys. */
export const JW_HIGH = 0.92;
export const JW_MID = 0.8;

const NAME_FIELD_LEVELS = [
  'exact',
  'normalised',
  'subset',
  'skeleton',
  'one_edit',
  'jw_high',
  'jw_mid',
  'different',
] as const;

/** The compared fields and their levels, strongest first. */
export const LINK_FIELDS = [
  { name: 'given', levels: NAME_FIELD_LEVELS },
  { name: 'father', levels: NAME_FIELD_LEVELS },
  { name: 'grandfather', levels: NAME_FIELD_LEVELS },
  { name: 'family', levels: NAME_FIELD_LEVELS },
  { name: 'mother', levels: NAME_FIELD_LEVELS },
  { name: 'sex', levels: ['exact', 'different'] },
  { name: 'birth_year', levels: ['exact', 'one_year', 'two_three_years', 'different'] },
  { name: 'origin', levels: NAME_FIELD_LEVELS },
  // near_day: both give the day, one of day, month or year off by one (a typed or remembered
  // date slip, still a precise date); near_month: the month or the year off by one, the day not
  // both given or not agreeing. One level for both before: the month-only slips, twenty times as
  // common among random pairs, diluted the day-precise ones.
  // year_only / year_only_near: one report gives the year alone, and it agrees / is one off.
  // same_year: both give the month, it differs (more than a near_month slip). One level,
  // 'same_year', held both before: the year-only agreement (what an imprecise date can give at
  // best, mild evidence for) was diluted by the month disagreements (evidence against, and far
  // more common among random pairs, most reports giving the month); and a year-only date one
  // year off fell to 'different' with the precise dates years apart.
  {
    name: 'arrest_date',
    levels: [
      'exact',
      'near_day',
      'same_month',
      'near_month',
      'year_only',
      'year_only_near',
      'same_year',
      'different',
    ],
  },
  { name: 'arrest_place', levels: NAME_FIELD_LEVELS },
  { name: 'unit', levels: ['exact', 'different'] },
  // Whether both reports come from one organisation. A family reports a person to an organisation
  // once, so duplicates are mostly across organisations; EM measures how much (m of 'same' small
  // where that holds, near u where organisations hold duplicates of their own).
  { name: 'organisation', levels: ['same', 'different'] },
] as const satisfies readonly { name: string; levels: readonly string[] }[];

export type LinkField = (typeof LINK_FIELDS)[number]['name'];

export interface PartialDate {
  readonly y: number;
  readonly m?: number;
  readonly d?: number;
}

/** A report read once for comparison. */
export interface PreparedRecord {
  readonly id: string;
  readonly org: string;
  /** The name parts as each script's name field gives them, explicit parts filling in. */
  readonly parts: readonly PreparedParts[];
  readonly mother?: PreparedName;
  readonly origin?: PreparedName;
  readonly arrestPlace?: PreparedName;
  readonly sex?: 'male' | 'female';
  readonly birthYear?: number;
  readonly arrest?: PartialDate;
  readonly unit?: string;
}

function invalid(record: LinkRecord, field: string, message: string): LinkageError {
  return new LinkageError('LINKAGE_INVALID_INPUT', `report ${record.id}: ${message}`, {
    details: { id: record.id, field },
  });
}

/** Parses YYYY, YYYY-MM or YYYY-MM-DD (a real calendar date). Untrusted input: checked here. */
export function parsePartialDate(record: LinkRecord, s: string): PartialDate {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(s.trim());
  if (m === null)
    throw invalid(record, 'arrest_date', `arrest_date "${s}" is not YYYY, YYYY-MM or YYYY-MM-DD`);
  const y = Number(m[1]);
  const month = m[2] === undefined ? undefined : Number(m[2]);
  const day = m[3] === undefined ? undefined : Number(m[3]);
  if (month !== undefined && (month < 1 || month > 12))
    throw invalid(record, 'arrest_date', `no month ${month}`);
  if (month !== undefined && day !== undefined) {
    const last = new Date(Date.UTC(y, month, 0)).getUTCDate();
    if (day < 1 || day > last)
      throw invalid(record, 'arrest_date', `no day ${day} in ${y}-${month}`);
  }
  return {
    y,
    ...(month === undefined ? {} : { m: month }),
    ...(day === undefined ? {} : { d: day }),
  };
}

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';
const prepared = (s: string | undefined, handling: NameHandling): PreparedName | undefined =>
  present(s) ? prepareName(s, handling) : undefined;

/**
 * The name parts a full name gives, as one or two sets: the explicit father, grandfather and
 * family fields filling in and replacing the parts the name gives in their place, and, where they
 * replace a part with other text, the name's own parts as well (the explicit fields filling in
 * only). A report may write its father's name twice, in its full Arabic name and in the field,
 * in other scripts or with a typo in one: each form is compared, the better one counts.
 */
function partsFrom(
  name: string | undefined,
  record: LinkRecord,
  handling: NameHandling,
): NameParts[] {
  if (!present(name)) return [];
  const split = orient(splitNameParts(name, handling), record, handling);
  const explicit: NameParts = {};
  if (present(record.father)) explicit.father = record.father;
  if (present(record.grandfather)) explicit.grandfather = record.grandfather;
  if (present(record.family)) explicit.family = record.family;
  const merged = { ...split, ...explicit };
  const replaced = (['father', 'grandfather', 'family'] as const).some(
    (part) =>
      split[part] !== undefined && explicit[part] !== undefined && split[part] !== explicit[part],
  );
  return replaced ? [merged, { ...explicit, ...split }] : [merged];
}

const bagOf = (s: string | undefined, handling: NameHandling): string | undefined =>
  present(s) ? prepareName(s, handling).bag : undefined;

/**
 * A name of two parts written family first (a Western form: "Darwiche Nader"), read given first.
 * The report says so itself: its family name is the first part and not the second, or its Arabic
 * name (nasab order, given first) begins with the second part and not the first. Left as written,
 * two brothers' "Darwiche Nader" and "Darwiche Mohammed" agreed on the given name.
 */
function orient(split: NameParts, record: LinkRecord, handling: NameHandling): NameParts {
  if (split.given === undefined || split.family === undefined || split.father !== undefined)
    return split;
  const [first, second] = [bagOf(split.given, handling), bagOf(split.family, handling)];
  if (first === second) return split;
  const family = bagOf(record.family, handling);
  const arabicGiven = present(record.name_ar)
    ? bagOf(splitNameParts(record.name_ar, handling).given, handling)
    : undefined;
  const familyFirst =
    (family !== undefined && family === first) ||
    (arabicGiven !== undefined && arabicGiven === second && arabicGiven !== first);
  return familyFirst ? { ...split, given: split.family, family: split.given } : split;
}

/** Reads and checks one report. */
export function prepareRecord(record: LinkRecord): PreparedRecord {
  return prepareRecordAs(record, 'normalised');
}

/** Reads and checks one report; 'plain' turns the Arabic-aware name handling off. */
export function prepareRecordAs(record: LinkRecord, handling: NameHandling): PreparedRecord {
  if (typeof record.id !== 'string' || record.id === '')
    throw invalid(record, 'id', 'a report needs an id');
  if (record.sex !== undefined && record.sex !== 'male' && record.sex !== 'female') {
    throw invalid(record, 'sex', `sex "${String(record.sex)}" is neither male nor female`);
  }
  if (
    record.birth_year !== undefined &&
    !(Number.isInteger(record.birth_year) && record.birth_year >= 1850 && record.birth_year <= 2100)
  ) {
    throw invalid(record, 'birth_year', `birth_year ${String(record.birth_year)} is not a year`);
  }
  const nameSets = [
    ...partsFrom(record.name_ar, record, handling),
    ...partsFrom(record.name_latin, record, handling),
  ];
  if (
    nameSets.length === 0 &&
    (present(record.father) || present(record.family) || present(record.grandfather))
  ) {
    nameSets.push({
      father: record.father,
      grandfather: record.grandfather,
      family: record.family,
    });
  }
  return {
    id: record.id,
    org: String(record.org),
    parts: nameSets.map((p) => prepareParts(p, handling)),
    ...optional('mother', prepared(record.mother, handling)),
    ...optional('origin', prepared(record.origin, handling)),
    ...optional('arrestPlace', prepared(record.arrest_place, handling)),
    ...optional('sex', record.sex),
    ...optional('birthYear', record.birth_year),
    ...optional(
      'arrest',
      present(record.arrest_date) ? parsePartialDate(record, record.arrest_date) : undefined,
    ),
    ...optional(
      'unit',
      present(record.unit) ? record.unit.normalize('NFKC').trim().toLowerCase() : undefined,
    ),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** A name comparison as a level index of NAME_FIELD_LEVELS ('different' split by Jaro–Winkler band). */
export function nameLevel(c: NameComparison): number {
  if (c.level === 'missing') return MISSING;
  const level: (typeof NAME_FIELD_LEVELS)[number] =
    c.level !== 'different'
      ? c.level
      : c.similarity >= JW_HIGH
        ? 'jw_high'
        : c.similarity >= JW_MID
          ? 'jw_mid'
          : 'different';
  return NAME_FIELD_LEVELS.indexOf(level);
}

function compareOptionalName(a: PreparedName | undefined, b: PreparedName | undefined): number {
  return a === undefined || b === undefined ? MISSING : nameLevel(comparePrepared(a, b));
}

/**
 * Date levels, compared at the precision both dates give: exact, one of day/month/year off by one
 * (both precise to the day), same month, month or year off by one; where one gives the year
 * alone: same year, year off by one; else same year (months differ), different.
 */
export function dateLevel(a: PartialDate | undefined, b: PartialDate | undefined): number {
  if (a === undefined || b === undefined) return MISSING;
  const dy = Math.abs(a.y - b.y);
  const hasMonth = a.m !== undefined && b.m !== undefined;
  const hasDay = hasMonth && a.d !== undefined && b.d !== undefined;
  const dm = hasMonth ? Math.abs((a.m ?? 0) - (b.m ?? 0)) : 0;
  const dd = hasDay ? Math.abs((a.d ?? 0) - (b.d ?? 0)) : 0;
  if (dy === 0 && dm === 0 && dd === 0 && hasDay) return 0;
  if (hasDay && dy + dm + dd === 1) return 1;
  if (dy === 0 && dm === 0 && hasMonth) return 2;
  if (hasMonth && dy + dm === 1) return 3;
  if (!hasMonth) return dy === 0 ? 4 : dy === 1 ? 5 : 7;
  if (dy === 0) return 6;
  return 7;
}

export function birthYearLevel(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return MISSING;
  const d = Math.abs(a - b);
  return d === 0 ? 0 : d === 1 ? 1 : d <= 3 ? 2 : 3;
}

/** The level index of every field of LINK_FIELDS, in order. */
export function compareRecords(a: PreparedRecord, b: PreparedRecord): number[] {
  const parts =
    a.parts.length === 1 && b.parts.length === 1
      ? bestParts([alignNameParts(a.parts[0] as PreparedParts, b.parts[0] as PreparedParts)])
      : bestParts(a.parts.flatMap((pa) => b.parts.map((pb) => alignNameParts(pa, pb))));
  return [
    nameLevel(parts.given),
    nameLevel(parts.father),
    nameLevel(parts.grandfather),
    nameLevel(parts.family),
    compareOptionalName(a.mother, b.mother),
    a.sex === undefined || b.sex === undefined ? MISSING : a.sex === b.sex ? 0 : 1,
    birthYearLevel(a.birthYear, b.birthYear),
    compareOptionalName(a.origin, b.origin),
    dateLevel(a.arrest, b.arrest),
    compareOptionalName(a.arrestPlace, b.arrestPlace),
    a.unit === undefined || b.unit === undefined ? MISSING : a.unit === b.unit ? 0 : 1,
    a.org === b.org ? 0 : 1,
  ];
}
