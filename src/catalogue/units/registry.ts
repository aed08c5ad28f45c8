// The unit registry as a look-up: codes (numbers such as 215, or text such as "AFI") and aliases
// ("جوية", "Air Force Intelligence") resolve to one unit. Pure: built from the index rows.
import type { UnitsTable } from '../../db/index.js';
import { cleanNumberText, toWesternDigits } from '../numbering/text.js';

/** A unit code: a whole number (215) or a text code without spaces or separators ("AFI"). */
export type UnitCode = number | string;

/**
 * The comparison key of a code, name or alias: NFC, invisible marks dropped, spaces collapsed,
 * digits made Western, leading zeros of an all-digit value dropped, lower case. So "afi", "AFI"
 * and "\u200FAFI" are one key, and "٢١٥", "0215" and 215 are one key.
 */
export function unitKey(value: UnitCode): string {
  const text = toWesternDigits(cleanNumberText(String(value))).text.toLowerCase();
  return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : text;
}

/** A unit's code as written: the number, the text code, or null. */
export function codeOf(u: Pick<UnitsTable, 'code' | 'code_text'>): UnitCode | null {
  return u.code ?? u.code_text ?? null;
}

export type Resolution =
  | { status: 'found'; unit: UnitsTable }
  | { status: 'ambiguous'; units: UnitsTable[] }
  | { status: 'retired'; unit: UnitsTable }
  | { status: 'none' };

export class UnitRegistry {
  private readonly byKey = new Map<string, UnitsTable[]>();
  readonly byId: ReadonlyMap<string, UnitsTable>;

  constructor(readonly units: readonly UnitsTable[]) {
    this.byId = new Map(units.map((u) => [u.id, u]));
    for (const u of units) for (const k of resolutionKeys(u)) this.byKey.set(k, [...(this.byKey.get(k) ?? []), u]);
  }

  /**
   * The unit a code or alias names: only units in service resolve; a value that names only
   * retired units says so, one that names several is ambiguous (never a guess).
   */
  resolve(value: UnitCode): Resolution {
    const all = this.byKey.get(unitKey(value)) ?? [];
    const active = all.filter((u) => u.retired_seq === null);
    if (active.length === 1 && active[0] !== undefined) return { status: 'found', unit: active[0] };
    if (active.length > 1) return { status: 'ambiguous', units: active };
    if (all[0] !== undefined) return { status: 'retired', unit: all[0] };
    return { status: 'none' };
  }

  /** The unit with this code exactly (retired or not): codes are unique across the registry. */
  withCode(code: UnitCode): UnitsTable | undefined {
    const k = unitKey(code);
    return this.units.find((u) => {
      const c = codeOf(u);
      return c !== null && unitKey(c) === k;
    });
  }

  /**
   * Units in service other than `exceptId` that share a name, alias or code with the candidate:
   * what "duplicate name" means (compared by unitKey, so case and digit systems do not hide one).
   */
  duplicates(
    candidate: { code: UnitCode | null; name_en: string; name_ar: string | null; aliases: readonly string[] },
    exceptId: string | null,
  ): { unit: UnitsTable; shared: string }[] {
    const wanted = new Map(nameValues(candidate).map((v) => [unitKey(v), v]));
    const out: { unit: UnitsTable; shared: string }[] = [];
    for (const u of this.units) {
      if (u.id === exceptId || u.retired_seq !== null) continue;
      const hit = nameValues(rowNames(u)).find((v) => wanted.has(unitKey(v)));
      if (hit !== undefined) out.push({ unit: u, shared: hit });
    }
    return out;
  }

  /** A unit's label for people: "AFI Air Force Intelligence المخابرات الجوية". */
  label(id: string | null): string | null {
    const u = id === null ? undefined : this.byId.get(id);
    return u === undefined ? null : unitLabel(u);
  }
}

export function unitLabel(u: Pick<UnitsTable, 'code' | 'code_text' | 'name_en' | 'name_ar'>): string {
  const code = codeOf(u);
  return [code === null ? null : String(code), u.name_en, u.name_ar].filter((x) => x !== null && x !== '').join(' ');
}

function rowNames(u: UnitsTable): { code: UnitCode | null; name_en: string; name_ar: string | null; aliases: string[] } {
  return { code: codeOf(u), name_en: u.name_en, name_ar: u.name_ar, aliases: JSON.parse(u.aliases_json) as string[] };
}

function nameValues(c: { code: UnitCode | null; name_en: string; name_ar: string | null; aliases: readonly string[] }): string[] {
  return [c.code === null ? null : String(c.code), c.name_en, c.name_ar, ...c.aliases].filter((x): x is string => x !== null && x !== '');
}

/** Codes and aliases: the values a numbering-scheme field or a `--unit` / `--parent` may name. */
function resolutionKeys(u: UnitsTable): string[] {
  const code = codeOf(u);
  const keys = (JSON.parse(u.aliases_json) as string[]).map(unitKey);
  if (code !== null) keys.push(unitKey(code));
  return [...new Set(keys)];
}
