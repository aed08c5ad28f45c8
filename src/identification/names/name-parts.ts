// The parts of an Arabic full name: given, father, grandfather, family (nasab order: أحمد محمد
// علي الحسن). Reports carry them as separate fields, or as one full name with some dropped, or
// (in Latin letters, for Western forms) with the family name first. NAME_PART_LAYOUTS says which
// part each position is; alignNameParts tries the family-first order too.
import {
  betterComparison,
  comparePrepared,
  prepareName,
  type NameComparison,
  type NameHandling,
  type PreparedName,
} from './compare.js';
import { tokens } from './tokens.js';

export const NAME_PARTS = ['given', 'father', 'grandfather', 'family'] as const;
export type NamePart = (typeof NAME_PARTS)[number];
export type NameParts = Partial<Record<NamePart, string>>;

/** Which part each position of a full name is, by its number of parts (compounds count as one). */
export const NAME_PART_LAYOUTS: readonly {
  readonly parts: number;
  readonly layout: readonly NamePart[];
  readonly example: readonly [string, NameParts];
}[] = [
  { parts: 1, layout: ['given'], example: ['محمد', { given: 'محمد' }] },
  {
    parts: 2,
    layout: ['given', 'family'],
    example: ['Ahmad Al Hassan', { given: 'ahmad', family: 'al-hassan' }],
  },
  {
    parts: 3,
    layout: ['given', 'father', 'family'],
    example: ['عبد الله محمد الحسن', { given: 'عبدالله', father: 'محمد', family: 'الحسن' }],
  },
  {
    parts: 4,
    layout: ['given', 'father', 'grandfather', 'family'],
    example: [
      'Ahmad bin Mohammed Ali Hamdan',
      { given: 'ahmad', father: 'mohammed', grandfather: 'ali', family: 'hamdan' },
    ],
  },
];

/**
 * Splits a full name into its parts by NAME_PART_LAYOUTS; a name of five parts or more keeps the
 * first three positions and the last, the middle ones being further ancestors.
 *
 * @example
 *   splitNameParts('أحمد محمد علي الحسن') // { given: 'احمد', father: 'محمد', grandfather: 'علي', family: 'الحسن' }
 */
export function splitNameParts(fullName: string, handling: NameHandling = 'normalised'): NameParts {
  const parts = handling === 'plain' ? prepareName(fullName, 'plain').tokens : tokens(fullName);
  if (parts.length === 0) return {};
  const kept = parts.length > 4 ? [...parts.slice(0, 3), parts[parts.length - 1] ?? ''] : parts;
  const layout = NAME_PART_LAYOUTS.find((l) => l.parts === kept.length)?.layout ?? [];
  const out: NameParts = {};
  layout.forEach((part, i) => {
    const value = kept[i];
    if (value !== undefined) out[part] = value;
  });
  return out;
}

export type PreparedParts = Partial<Record<NamePart, PreparedName>>;

/** Prepares each part present. */
export function prepareParts(
  parts: NameParts,
  handling: NameHandling = 'normalised',
): PreparedParts {
  const out: PreparedParts = {};
  for (const part of NAME_PARTS) {
    const value = parts[part];
    if (value !== undefined && value.trim() !== '') out[part] = prepareName(value, handling);
  }
  return out;
}

export interface PartsAlignment {
  /** 'family-first' when b reads better with its given and family names swapped. */
  readonly order: 'as-written' | 'family-first';
  readonly parts: Record<NamePart, NameComparison>;
}

const MISSING: NameComparison = { level: 'missing', similarity: 0 };

function comparePart(a: PreparedName | undefined, b: PreparedName | undefined): NameComparison {
  return a === undefined || b === undefined ? MISSING : comparePrepared(a, b);
}

/** A part agrees at 'subset' or better. */
const agreed = (c: NameComparison): boolean =>
  c.level === 'exact' || c.level === 'normalised' || c.level === 'subset';

/** How many parts agree at 'subset' or better: what decides between the two orders. */
function agreements(parts: Record<NamePart, NameComparison>): number {
  let k = 0;
  for (const p of NAME_PARTS) if (agreed(parts[p])) k++;
  return k;
}

function align(a: PreparedParts, b: PreparedParts): Record<NamePart, NameComparison> {
  return {
    given: comparePart(a.given, b.given),
    father: comparePart(a.father, b.father),
    grandfather: comparePart(a.grandfather, b.grandfather),
    family: comparePart(a.family, b.family),
  };
}

/**
 * Compares two names part by part, as written and with b's given and family names swapped (a
 * Latin form written family first), and keeps the order in which more parts agree.
 */
export function alignNameParts(a: PreparedParts, b: PreparedParts): PartsAlignment {
  const asWritten = align(a, b);
  // Only a pair whose given or family names disagree as written can read better swapped.
  if (
    b.given === undefined ||
    b.family === undefined ||
    (agreed(asWritten.given) && agreed(asWritten.family))
  ) {
    return { order: 'as-written', parts: asWritten };
  }
  const swappedB: PreparedParts = { ...b, given: b.family, family: b.given };
  const swapped = align(a, swappedB);
  return agreements(swapped) > agreements(asWritten)
    ? { order: 'family-first', parts: swapped }
    : { order: 'as-written', parts: asWritten };
}

/** The better comparison of each part over several alignments (one per script pair). */
export function bestParts(alignments: readonly PartsAlignment[]): Record<NamePart, NameComparison> {
  const out = { given: MISSING, father: MISSING, grandfather: MISSING, family: MISSING };
  for (const al of alignments) {
    for (const p of NAME_PARTS) out[p] = betterComparison(out[p], al.parts[p]);
  }
  return out;
}
