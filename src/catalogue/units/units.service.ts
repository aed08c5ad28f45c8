import type { Archive } from '../../app.js';
import { formatCsv } from '../../core/csv.js';
import type { UnitsTable } from '../../db/schema.js';
import type { EntryDraft } from '../../ledger/entry.js';
import { UnitError, type RowError, type UnitInput } from './unit-rows.js';

export interface UnitImportResult {
  imported: number;
  skipped: RowError[];
  units: { id: string; code: number | null; name_en: string }[];
}

/**
 * Registers units as 'cataloguing' ledger entries. Checked as a whole against the registry and
 * each other (codes unique, parents known, no cycles). All or nothing, unless `validOnly` asks to
 * import only the rows without problems; then the refused rows are reported.
 */
export async function importUnits(
  archive: Archive,
  rows: readonly { row: number; unit: UnitInput }[],
  rowErrors: readonly RowError[],
  opts: { validOnly: boolean },
): Promise<UnitImportResult> {
  const existing = await archive.index.listUnits();
  const byCode = new Map(
    existing.filter((u) => u.code !== null).map((u) => [u.code as number, u.id]),
  );
  const errors: RowError[] = [...rowErrors];
  const accepted: { row: number; unit: UnitInput; id: string }[] = [];
  const seen = new Map<number, number>();
  for (const r of rows) {
    const c = r.unit.code;
    if (c !== null && byCode.has(c)) {
      errors.push({ row: r.row, column: 'code', reason: `unit ${c} is already registered` });
      continue;
    }
    if (c !== null && seen.has(c)) {
      errors.push({ row: r.row, column: 'code', reason: `code ${c} also on row ${seen.get(c)}` });
      continue;
    }
    if (c !== null) seen.set(c, r.row);
    accepted.push({ ...r, id: archive.newId() });
  }
  const newIds = new Map(
    accepted.filter((a) => a.unit.code !== null).map((a) => [a.unit.code as number, a.id]),
  );
  const usable = accepted.filter((a) => {
    const p = a.unit.parent_code;
    if (p === null || byCode.has(p) || newIds.has(p)) return true;
    errors.push({ row: a.row, column: 'parent_code', reason: `no unit with code ${p}` });
    return false;
  });
  errors.sort((a, b) => a.row - b.row);
  if (errors.length > 0 && !opts.validOnly) {
    throw new UnitError(
      'UNIT_IMPORT_REJECTED',
      `nothing imported: ${errors.length} problem(s); fix them, or import only the valid rows with --valid-only`,
      { details: { errors } },
    );
  }
  const drafts: EntryDraft[] = usable.map((a) => ({
    actor: archive.config.actor,
    type: 'cataloguing',
    items: [],
    objects: [],
    details: {
      action: 'unit.register',
      unit: {
        id: a.id,
        code: a.unit.code,
        name_en: a.unit.name_en,
        name_ar: a.unit.name_ar,
        aliases: a.unit.aliases,
        parent_id:
          a.unit.parent_code === null
            ? null
            : (byCode.get(a.unit.parent_code) ?? newIds.get(a.unit.parent_code) ?? null),
      },
    },
  }));
  if (drafts.length > 0) await archive.commit(drafts);
  return {
    imported: drafts.length,
    skipped: errors,
    units: usable.map((a) => ({ id: a.id, code: a.unit.code, name_en: a.unit.name_en })),
  };
}

/** The registry as JSON rows, parents by code: what `unit export` writes and `unit import` reads. */
export function unitsForExport(
  units: readonly UnitsTable[],
): {
  code: number | null;
  name_en: string;
  name_ar: string | null;
  aliases: string[];
  parent_code: number | null;
  id: string;
}[] {
  const codeOf = new Map(units.map((u) => [u.id, u.code]));
  return units.map((u) => ({
    id: u.id,
    code: u.code,
    name_en: u.name_en,
    name_ar: u.name_ar,
    aliases: JSON.parse(u.aliases_json) as string[],
    parent_code: u.parent_id === null ? null : (codeOf.get(u.parent_id) ?? null),
  }));
}

/** CSV export, safe against formula injection (core/csv csvCell). */
export function unitsCsv(units: readonly UnitsTable[]): string {
  return formatCsv([
    ['code', 'name_en', 'name_ar', 'aliases', 'parent_code', 'id'],
    ...unitsForExport(units).map((u) => [
      u.code,
      u.name_en,
      u.name_ar,
      u.aliases.join(';'),
      u.parent_code,
      u.id,
    ]),
  ]);
}
