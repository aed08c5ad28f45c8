import { formatCsv, hint, type OperationContext } from '../../core/index.js';
import type { UnitsTable } from '../../db/index.js';
import type { EntryDraft, UnitDetails, UnitFields } from '../../ledger/index.js';
import type { StoredEntry } from '../../ledger/ledger.service.js';
import type { IndexReads } from '../ports.js';
import { codeOf, unitKey, unitLabel, UnitRegistry, type UnitCode } from './registry.js';
import { parseUnitCode, UnitError, type RowError, type UnitInput } from './unit-rows.js';

/** What the unit registry's writers use: the registry as indexed, and the ledger's append. */
export interface UnitsPorts extends IndexReads<'listUnits'> {
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
}

export interface UnitImportResult {
  imported: number;
  skipped: RowError[];
  units: { id: string; code: UnitCode | null; name_en: string }[];
}

/**
 * Registers units as 'cataloguing' ledger entries. Checked as a whole against the registry and
 * each other (codes unique, parents known, no cycles, names and aliases not already another
 * unit's unless `allowDuplicateName`). All or nothing, unless `validOnly` asks to import only the
 * rows without problems; then the refused rows are reported.
 */
export async function importUnits(
  archive: UnitsPorts,
  ctx: OperationContext,
  rows: readonly { row: number; unit: UnitInput }[],
  rowErrors: readonly RowError[],
  opts: { validOnly: boolean; allowDuplicateName?: boolean },
): Promise<UnitImportResult> {
  const registry = new UnitRegistry(await archive.index.listUnits());
  const errors: RowError[] = [...rowErrors];
  const accepted: { row: number; unit: UnitInput; id: string }[] = [];
  const seen = new Map<string, number>();
  const seenNames = new Map<string, number>();
  for (const r of rows) {
    const c = r.unit.code;
    if (c !== null && registry.withCode(c) !== undefined) {
      errors.push({ row: r.row, column: 'code', reason: `unit ${c} is already registered` });
      continue;
    }
    if (c !== null && seen.has(unitKey(c))) {
      errors.push({ row: r.row, column: 'code', reason: `code ${c} also on row ${seen.get(unitKey(c))}` });
      continue;
    }
    if (opts.allowDuplicateName !== true) {
      const dup = registry.duplicates(r.unit, null)[0];
      if (dup !== undefined) {
        errors.push({ row: r.row, column: 'name_en', reason: duplicateReason(dup) });
        continue;
      }
      const names = [r.unit.name_en, r.unit.name_ar, ...r.unit.aliases].filter((n): n is string => n !== null).map(unitKey);
      const other = names.map((n) => seenNames.get(n)).find((x) => x !== undefined);
      if (other !== undefined) {
        errors.push({ row: r.row, column: 'name_en', reason: `a name or alias also on row ${other} (register it once, or pass --allow-duplicate-name)` });
        continue;
      }
      for (const n of names) seenNames.set(n, r.row);
    }
    if (c !== null) seen.set(unitKey(c), r.row);
    accepted.push({ ...r, id: ctx.newId() });
  }
  const newIds = new Map(
    accepted.filter((a) => a.unit.code !== null).map((a) => [unitKey(a.unit.code as UnitCode), a.id]),
  );
  const parentOf = (p: UnitCode): string | null => {
    const r = registry.resolve(p);
    return r.status === 'found' ? r.unit.id : (newIds.get(unitKey(p)) ?? null);
  };
  const usable = accepted.filter((a) => {
    const p = a.unit.parent_code;
    if (p === null || parentOf(p) !== null) return true;
    errors.push({ row: a.row, column: 'parent_code', reason: `no unit with code ${p}` });
    return false;
  });
  errors.sort((a, b) => a.row - b.row);
  if (errors.length > 0 && !opts.validOnly) {
    throw new UnitError(
      'UNIT_IMPORT_REJECTED',
      `nothing imported: ${errors.length} problem(s); fix them`,
      { details: { errors, ...hint({ remedy: ['valid-only'] }) } },
    );
  }
  const drafts: EntryDraft[] = usable.map((a) => ({
    actor: ctx.actor,
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
        parent_id: a.unit.parent_code === null ? null : parentOf(a.unit.parent_code),
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

function duplicateReason(dup: { unit: UnitsTable; shared: string }): string {
  return `"${dup.shared}" is already a name, alias or code of unit ${unitLabel(dup.unit)} (${dup.unit.id}); pass --allow-duplicate-name if they are really two units`;
}

/**
 * The unit a person names: its id, or a code or alias of a unit (retired units too, when
 * `retired` says so and nothing in service matches).
 */
export function findUnit(registry: UnitRegistry, ref: string, opts: { retired: boolean }): UnitsTable {
  const byId = registry.byId.get(ref);
  if (byId !== undefined) return byId;
  const code = parseUnitCode(ref);
  const r = code === null || typeof code === 'object' ? registry.resolve(ref) : registry.resolve(code);
  switch (r.status) {
    case 'found':
      return r.unit;
    case 'ambiguous':
      throw new UnitError('UNIT_AMBIGUOUS', `"${ref}" names ${r.units.length} units: ${r.units.map((u) => `${unitLabel(u)} (${u.id})`).join('; ')}`, { details: { candidates: r.units.map((u) => u.id) } });
    case 'retired':
      if (opts.retired) return r.unit;
      throw new UnitError('UNIT_RETIRED', `unit ${unitLabel(r.unit)} (${r.unit.id}) is retired`);
    case 'none':
      throw new UnitError('UNIT_NOT_FOUND', `no unit has the code or alias "${ref}"`);
  }
}

export interface UnitChanges {
  code?: UnitCode | null;
  name_en?: string;
  name_ar?: string | null;
  aliases?: string[];
  parent?: string | null;
}

/** Changes a unit's code, names, aliases or parent: one 'unit.update' entry with the reason. */
export async function editUnit(
  archive: UnitsPorts,
  ctx: Pick<OperationContext, 'actor'>,
  ref: string,
  changes: UnitChanges,
  reason: string,
  opts: { allowDuplicateName: boolean },
): Promise<string> {
  needReason(reason);
  const registry = new UnitRegistry(await archive.index.listUnits());
  const unit = findUnit(registry, ref, { retired: true });
  const set: UnitFields = {};
  if (changes.code !== undefined) {
    const other = changes.code === null ? undefined : registry.withCode(changes.code);
    if (other !== undefined && other.id !== unit.id)
      throw new UnitError('UNIT_INVALID', `code ${changes.code} is already unit ${unitLabel(other)} (${other.id})`);
    set.code = changes.code;
  }
  if (changes.name_en !== undefined) set.name_en = changes.name_en;
  if (changes.name_ar !== undefined) set.name_ar = changes.name_ar;
  if (changes.aliases !== undefined) set.aliases = changes.aliases;
  if (changes.parent !== undefined) {
    const parent = changes.parent === null ? null : findUnit(registry, changes.parent, { retired: false });
    let p: UnitsTable | undefined = parent ?? undefined;
    for (let hops = 0; p !== undefined && hops <= registry.units.length; hops++) {
      if (p.id === unit.id)
        throw new UnitError('UNIT_INVALID', `${changes.parent} is ${unitLabel(unit)} or within it: a unit cannot be its own parent or ancestor`);
      p = p.parent_id === null ? undefined : registry.byId.get(p.parent_id);
    }
    set.parent_id = parent?.id ?? null;
  }
  if (Object.keys(set).length === 0) throw new UnitError('UNIT_INVALID', 'nothing to change');
  if (!opts.allowDuplicateName) {
    const after = {
      code: changes.code !== undefined ? changes.code : codeOf(unit),
      name_en: changes.name_en ?? unit.name_en,
      name_ar: changes.name_ar !== undefined ? changes.name_ar : unit.name_ar,
      aliases: changes.aliases ?? (JSON.parse(unit.aliases_json) as string[]),
    };
    const dup = registry.duplicates(after, unit.id)[0];
    if (dup !== undefined) throw new UnitError('UNIT_DUPLICATE_NAME', duplicateReason(dup), { details: { unit: dup.unit.id, shared: dup.shared } });
  }
  await commitOne(archive, ctx, { action: 'unit.update', reason, unit: { id: unit.id, ...set } });
  return unit.id;
}

/**
 * Takes a unit out of service (never deleted): it keeps its subjects and its history, but its
 * code and aliases no longer resolve for new numbers, `--unit` or `--parent`.
 */
export async function retireUnit(archive: UnitsPorts, ctx: Pick<OperationContext, 'actor'>, ref: string, reason: string): Promise<string> {
  needReason(reason);
  const unit = findUnit(new UnitRegistry(await archive.index.listUnits()), ref, { retired: true });
  if (unit.retired_seq !== null)
    throw new UnitError('UNIT_RETIRED', `unit ${unitLabel(unit)} (${unit.id}) was retired at entry ${unit.retired_seq}`);
  await commitOne(archive, ctx, { action: 'unit.retire', reason, unit: { id: unit.id } });
  return unit.id;
}

function needReason(reason: string): void {
  if (reason.trim() === '')
    throw new UnitError('UNIT_REASON_REQUIRED', 'every change to a unit needs a reason', { details: hint({ field: 'reason' }) });
}

async function commitOne(archive: UnitsPorts, ctx: Pick<OperationContext, 'actor'>, details: UnitDetails): Promise<void> {
  await archive.commit([{ actor: ctx.actor, type: 'cataloguing', items: [], objects: [], details }]);
}

/** The registry as JSON rows, parents by code: what `unit export` writes and `unit import` reads. */
export function unitsForExport(
  units: readonly UnitsTable[],
): {
  code: UnitCode | null;
  name_en: string;
  name_ar: string | null;
  aliases: string[];
  parent_code: UnitCode | null;
  id: string;
  retired_seq: number | null;
}[] {
  const codes = new Map(units.map((u) => [u.id, codeOf(u)]));
  return units.map((u) => ({
    id: u.id,
    code: codeOf(u),
    name_en: u.name_en,
    name_ar: u.name_ar,
    aliases: JSON.parse(u.aliases_json) as string[],
    parent_code: u.parent_id === null ? null : (codes.get(u.parent_id) ?? null),
    retired_seq: u.retired_seq,
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
