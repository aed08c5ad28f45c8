import { isCalendarDate, type JsonValue, CustodyError,
  hint,
  type OperationContext,
} from '../../core/index.js';
import type { SubjectsTable } from '../../db/index.js';
import { AGE_BANDS, SEXES } from './demographics.js';
import type { EntryDraft, SubjectDetails, SubjectFields } from '../../ledger/index.js';
import type { StoredEntry } from '../../ledger/ledger.service.js';
import type { IndexReads } from '../ports.js';
import {
  defineNumberingScheme,
  parseCatalogueNumber,
  parseWithSchemes,
  type NumberingScheme,
} from '../numbering/index.js';
import { UnitRegistry } from '../units/registry.js';
import { resolveItemRefs } from './item-refs.js';
import { findUnit } from '../units/units.service.js';

/** What the catalogue's subject services read and append (never the whole archive). */
export interface SubjectsPorts
  extends IndexReads<
    | 'getItem'
    | 'getSubject'
    | 'listSchemes'
    | 'listUnits'
    | 'subjectItems'
    | 'subjectOfItem'
    | 'subjectsByNumber'
    | 'subjectsOfItems'
    | 'listDeliveries'
    | 'itemsWhereIn'
  > {
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
}

export type SubjectErrorCode =
  | 'SUBJECT_NOT_FOUND'
  | 'SUBJECT_INVALID'
  | 'SUBJECT_NUMBER_TAKEN'
  | 'SUBJECT_ITEM_TAKEN'
  | 'SUBJECT_REASON_REQUIRED'
  | 'SUBJECT_IMPORT_REJECTED'
  | 'SUBJECT_UNIT_CONFLICT'
  | 'SUBJECT_SUGGESTION_UNKNOWN'
  | 'SCHEME_EXISTS'
  | 'SCHEME_NOT_FOUND';
export class SubjectError extends CustodyError<SubjectErrorCode> {}

/** What a person may set on a subject; the number is parsed against the declared schemes. */
export interface SubjectInput {
  number?: string | null;
  schemeId?: string | null;
  sex?: string | null;
  ageBand?: string | null;
  dateOfDeath?: string | null;
  dateOfPhotography?: string | null;
  notes?: string | null;
  /** A unit code, alias or id; null detaches the subject from its unit. */
  unit?: string | null;
}


/** Declares a numbering scheme (validated by catalogue/numbering) as a ledger entry. */
export async function defineScheme(archive: SubjectsPorts, ctx: OperationContext, config: unknown): Promise<string> {
  const scheme = defineNumberingScheme(config);
  if ((await archive.index.listSchemes()).some((s) => s.id === scheme.id))
    throw new SubjectError('SCHEME_EXISTS', `scheme ${scheme.id} is already declared`);
  await commit(archive, ctx, {
    action: 'scheme.define',
    scheme: { id: scheme.id, config: config as JsonValue },
  });
  return scheme.id;
}

export async function loadSchemes(archive: SubjectsPorts): Promise<NumberingScheme[]> {
  return (await archive.index.listSchemes()).map((s) =>
    defineNumberingScheme(JSON.parse(s.config_json)),
  );
}

/** Parses the number and checks every field; nothing is written unless all of it holds. */
interface Lookups {
  registry: UnitRegistry;
  schemes: NumberingScheme[];
}

async function lookups(archive: SubjectsPorts): Promise<Lookups> {
  return { registry: new UnitRegistry(await archive.index.listUnits()), schemes: await loadSchemes(archive) };
}

async function resolveFields(
  archive: SubjectsPorts,
  input: SubjectInput,
  current: SubjectsTable | null,
  known?: Lookups,
): Promise<SubjectFields> {
  const out: SubjectFields = {};
  const { registry, schemes } = known ?? (await lookups(archive));
  let numberUnit: string | undefined;
  if (input.number !== undefined) {
    // Clearing the number leaves the unit as it is: it may have been named with --unit.
    if (input.number === null || input.number.trim() === '') {
      Object.assign(out, {
        number_raw: null,
        scheme_id: null,
        number_normalised: null,
        fields: {},
      });
    } else {
      // A value that names units (in service, retired or several) passes the shape check here;
      // which unit it is, and whether that may be used, is decided below with a clear code.
      const registries = { units: (code: number | string) => registry.resolve(code).status !== 'none' };
      const wanted = input.schemeId ?? current?.scheme_id ?? null;
      const scheme = wanted === null ? null : schemes.find((s) => s.id === wanted);
      if (wanted !== null && scheme === undefined)
        throw new SubjectError(
          'SCHEME_NOT_FOUND',
          `no numbering scheme ${wanted}`,
          { details: hint({ remedy: ['add-scheme'] }) },
        );
      const parsed =
        scheme == null
          ? parseWithSchemes(schemes, input.number, registries)
          : parseCatalogueNumber(scheme, input.number, registries);
      const spec = (scheme ?? schemes.find((s) => s.id === parsed.schemeId))?.fields ?? {};
      const unitField = Object.entries(spec).find(
        ([, f]) => f.kind !== 'year' && f.registry === 'units',
      )?.[0];
      const unitCode = unitField === undefined ? undefined : parsed.fields[unitField];
      if (unitCode !== undefined) numberUnit = findUnit(registry, String(unitCode), { retired: false }).id;
      const taken = (
        await archive.index.subjectsByNumber(parsed.schemeId, parsed.normalised)
      ).filter((s) => s.id !== current?.id && s.status === 'active');
      if (taken.length > 0)
        throw new SubjectError(
          'SUBJECT_NUMBER_TAKEN',
          `number ${parsed.normalised} (${parsed.schemeId}) is already subject ${taken[0]?.id ?? ''}: merge the two if they are one person`,
        );
      Object.assign(out, {
        number_raw: parsed.raw,
        scheme_id: parsed.schemeId,
        number_normalised: parsed.normalised,
        fields: { ...parsed.fields },
      });
    }
  }
  // The unit: named with --unit, or read from the number's unit field; both must agree.
  const explicitUnit =
    input.unit === undefined ? undefined : input.unit === null ? null : findUnit(registry, input.unit, { retired: false }).id;
  if (explicitUnit !== undefined && numberUnit !== undefined && explicitUnit !== numberUnit)
    throw new SubjectError(
      'SUBJECT_UNIT_CONFLICT',
      `the unit given names ${registry.label(explicitUnit) ?? 'no unit'}, the number names ${registry.label(numberUnit) ?? '?'}`,
      { details: hint({ field: 'unit' }) },
    );
  const unit = explicitUnit !== undefined ? explicitUnit : numberUnit;
  if (unit !== undefined) out.unit_id = unit;
  const choose = (
    name: 'sex' | 'age_band',
    value: string | null | undefined,
    allowed: readonly string[],
  ): void => {
    if (value === undefined) return;
    if (value !== null && !allowed.includes(value))
      throw new SubjectError('SUBJECT_INVALID', `${name} must be one of ${allowed.join(', ')}`);
    out[name] = value;
  };
  choose('sex', input.sex, SEXES);
  choose('age_band', input.ageBand, AGE_BANDS);
  for (const [name, value] of [
    ['date_of_death', input.dateOfDeath],
    ['date_of_photography', input.dateOfPhotography],
  ] as const) {
    if (value === undefined) continue;
    // A calendar date, not a pattern: 2013-02-31 is refused.
    if (value !== null && !isCalendarDate(value))
      throw new SubjectError('SUBJECT_INVALID', `${name} must be a real date written YYYY, YYYY-MM or YYYY-MM-DD, got ${JSON.stringify(value)}`);
    out[name] = value;
  }
  if (input.notes !== undefined) out.notes = input.notes;
  return out;
}

export async function createSubject(
  archive: SubjectsPorts,
  ctx: OperationContext,
  input: SubjectInput,
  items: readonly string[],
  reason: string,
): Promise<string> {
  needReason(reason);
  const fields = await resolveFields(archive, input, null);
  const ids = await itemIdsOf(archive, items);
  await checkItemsFree(archive, ids, null);
  const id = ctx.newId();
  await commit(archive, ctx, {
    action: 'subject.create',
    reason,
    subject: { id, ...fields },
    items: ids,
  });
  return id;
}

export async function updateSubject(
  archive: SubjectsPorts,
  ctx: OperationContext,
  id: string,
  input: SubjectInput,
  reason: string,
): Promise<void> {
  needReason(reason);
  const current = await activeSubject(archive, id);
  const fields = await resolveFields(archive, input, current);
  if (Object.keys(fields).length === 0)
    throw new SubjectError('SUBJECT_INVALID', 'nothing to change');
  // The attribution before the change, so that statistics can name the subjects whose unit
  // changed after a sample's frame was fixed without replaying the catalogue.
  const previous: { previous_unit_id?: string | null } = 'unit_id' in fields ? { previous_unit_id: current.unit_id } : {};
  await commit(archive, ctx, { action: 'subject.update', reason, subject: { id, ...fields }, ...previous });
}

export async function linkItems(
  archive: SubjectsPorts,
  ctx: OperationContext,
  id: string,
  items: readonly string[],
  reason: string,
  unlink = false,
): Promise<void> {
  needReason(reason);
  await activeSubject(archive, id);
  if (items.length === 0) throw new SubjectError('SUBJECT_INVALID', 'name at least one item');
  if (!unlink) items = await itemIdsOf(archive, items);
  if (unlink) {
    const linked = new Set((await archive.index.subjectItems(id)).map((l) => l.item_id));
    for (const item of items)
      if (!linked.has(item))
        throw new SubjectError('SUBJECT_INVALID', `item ${item} is not linked to subject ${id}`);
  } else await checkItemsFree(archive, items, id);
  await commit(archive, ctx, {
    action: unlink ? 'subject.unlink' : 'subject.link',
    reason,
    subject: { id },
    items: [...items],
  });
}

/**
 * Photographs linked to several subjects at once (the server's bulk link, from the suggestions):
 * every link is checked as `subject link` checks it (active subject, known items, items not
 * showing another subject, a reason), and the same item named for two subjects is refused; then
 * one ledger batch of 'subject.link' entries, one per subject. Nothing is written unless all hold.
 */
export async function linkItemsInBulk(
  archive: SubjectsPorts,
  ctx: OperationContext,
  links: readonly { subject: string; items: readonly string[] }[],
  reason: string,
): Promise<{ subject: string; items: string[]; seq: number }[]> {
  needReason(reason);
  if (links.length === 0) throw new SubjectError('SUBJECT_INVALID', 'name at least one link');
  const bySubject = new Map<string, string[]>();
  const itemTo = new Map<string, string>();
  for (const link of links) {
    await activeSubject(archive, link.subject);
    if (link.items.length === 0)
      throw new SubjectError('SUBJECT_INVALID', `name at least one item for subject ${link.subject}`);
    const items = await itemIdsOf(archive, link.items);
    await checkItemsFree(archive, items, link.subject);
    for (const item of items) {
      const to = itemTo.get(item);
      if (to !== undefined && to !== link.subject)
        throw new SubjectError(
          'SUBJECT_ITEM_TAKEN',
          `item ${item} is named for subjects ${to} and ${link.subject}: link it to one of them`,
          { details: { item } },
        );
      itemTo.set(item, link.subject);
      const mine = bySubject.get(link.subject) ?? [];
      if (!mine.includes(item)) mine.push(item);
      bySubject.set(link.subject, mine);
    }
  }
  const out = [...bySubject].map(([subject, items]) => ({ subject, items: items.sort() }));
  const stored = await archive.commit(
    out.map((l): EntryDraft => ({
      actor: ctx.actor,
      type: 'cataloguing',
      items: [],
      objects: [],
      details: { action: 'subject.link', reason, subject: { id: l.subject }, items: l.items },
    })),
  );
  return out.map((l, i) => ({ ...l, seq: stored[i]?.entry.seq ?? -1 }));
}

/** Several records found to be one person: the others point at `into`, their items move to it. */
export async function mergeSubjects(
  archive: SubjectsPorts,
  ctx: OperationContext,
  into: string,
  from: readonly string[],
  reason: string,
): Promise<void> {
  needReason(reason);
  await activeSubject(archive, into);
  const merged = [...new Set(from)].filter((f) => f !== into);
  if (merged.length === 0)
    throw new SubjectError('SUBJECT_INVALID', 'name at least one other subject to merge');
  const items: string[] = [];
  for (const f of merged) {
    await activeSubject(archive, f);
    items.push(...(await archive.index.subjectItems(f)).map((l) => l.item_id));
  }
  await commit(archive, ctx, {
    action: 'subject.merge',
    reason,
    subject: { id: into },
    merged,
    items: items.sort(),
  });
}

/** One record that was two people: the named items go to a new subject with the given fields. */
export async function splitSubject(
  archive: SubjectsPorts,
  ctx: OperationContext,
  from: string,
  items: readonly string[],
  input: SubjectInput,
  reason: string,
): Promise<string> {
  needReason(reason);
  await activeSubject(archive, from);
  const linked = new Set((await archive.index.subjectItems(from)).map((l) => l.item_id));
  if (items.length === 0 || items.some((i) => !linked.has(i)))
    throw new SubjectError('SUBJECT_INVALID', `split moves items that subject ${from} has`);
  const fields = await resolveFields(archive, input, null);
  const id = ctx.newId();
  await commit(archive, ctx, {
    action: 'subject.split',
    reason,
    subject: { id: from },
    new_subject: { id, ...fields },
    items: [...items].sort(),
  });
  return id;
}

/** Photographs named by id, digest or path in a delivery (see item-refs.ts), as item ids. */
async function itemIdsOf(archive: SubjectsPorts, refs: readonly string[]): Promise<string[]> {
  const resolved = await resolveItemRefs(archive, refs);
  const ids: string[] = [];
  for (const ref of refs) {
    const r = resolved.get(ref.trim());
    if (r === undefined || 'error' in r) throw new SubjectError('SUBJECT_INVALID', r?.error ?? `no item ${ref}`);
    for (const id of r.items) if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

async function activeSubject(archive: SubjectsPorts, id: string): Promise<SubjectsTable> {
  const s = await archive.index.getSubject(id);
  if (s === undefined) throw new SubjectError('SUBJECT_NOT_FOUND', `no subject ${id}`);
  if (s.status !== 'active')
    throw new SubjectError(
      'SUBJECT_INVALID',
      `subject ${id} was merged into ${s.merged_into ?? '?'}`,
    );
  return s;
}

async function checkItemsFree(
  archive: SubjectsPorts,
  items: readonly string[],
  subject: string | null,
): Promise<void> {
  for (const item of items) {
    if ((await archive.index.getItem(item)) === undefined)
      throw new SubjectError('SUBJECT_INVALID', `no item ${item}`);
    const owner = await archive.index.subjectOfItem(item);
    if (owner !== undefined && owner.subject_id !== subject)
      throw new SubjectError(
        'SUBJECT_ITEM_TAKEN',
        `item ${item} already shows subject ${owner.subject_id}`,
      );
  }
}

function needReason(reason: string): void {
  if (reason.trim() === '')
    throw new SubjectError(
      'SUBJECT_REASON_REQUIRED',
      'every change to the catalogue needs a reason',
      { details: hint({ field: 'reason' }) },
    );
}

async function commit(archive: SubjectsPorts, ctx: OperationContext, details: SubjectDetails): Promise<void> {
  const draft: EntryDraft = {
    actor: ctx.actor,
    type: 'cataloguing',
    items: [],
    objects: [],
    details,
  };
  await archive.commit([draft]);
}

export interface SubjectImportResult {
  imported: number;
  ids: string[];
  errors: { row: number; column: string; reason: string }[];
}

/**
 * Imports subjects in one ledger batch: all or nothing, unless `validOnly` (then the rows with a
 * problem are left out and reported). Each row is checked as `subject add` checks it (number
 * parsed against the schemes, fields, items), and against the other rows (the same number or item
 * twice).
 */
export async function importSubjects(
  archive: SubjectsPorts,
  ctx: OperationContext,
  rows: readonly { row: number; input: SubjectInput; items: string[] }[],
  rowErrors: readonly { row: number; column: string; reason: string }[],
  opts: { validOnly: boolean; reason: string },
): Promise<SubjectImportResult> {
  needReason(opts.reason);
  const errors = [...rowErrors];
  const accepted: { row: number; fields: SubjectFields; items: string[] }[] = [];
  const numbers = new Map<string, number>();
  const itemRows = new Map<string, number>();
  // Set-based: the registry and schemes once, every photograph reference and owner in bulk.
  const known = await lookups(archive);
  const refs = await resolveItemRefs(archive, rows.flatMap((r) => r.items));
  const resolvedIds = [...refs.values()].flatMap((r) => ('items' in r ? r.items : []));
  const owners = new Map((await archive.index.subjectsOfItems(resolvedIds)).map((l) => [l.item_id, l.subject_id]));
  for (const r of rows) {
    const problems: { row: number; column: string; reason: string }[] = [];
    const check = async <T>(column: string, fn: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await fn();
      } catch (e) {
        if (!(e instanceof CustodyError)) throw e;
        problems.push({ row: r.row, column, reason: e.message });
        return undefined;
      }
    };
    const { number, schemeId, ...rest } = r.input;
    const numberFields = await check('number', () => resolveFields(archive, { number, schemeId }, null, known));
    const otherFields = await check(Object.keys(rest)[0] === undefined ? '*' : 'fields', () => fieldByField(archive, rest, r.row, problems, known));
    const items: string[] = [];
    for (const ref of r.items) {
      const res = refs.get(ref.trim());
      if (res === undefined || 'error' in res) {
        problems.push({ row: r.row, column: 'items', reason: res?.error ?? `no item ${ref}` });
        continue;
      }
      for (const item of res.items) {
        const owner = owners.get(item);
        if (owner !== undefined)
          problems.push({ row: r.row, column: 'items', reason: `${ref}: item ${item} already shows subject ${owner}` });
        const other = itemRows.get(item);
        if (other !== undefined && other !== r.row)
          problems.push({ row: r.row, column: 'items', reason: `${ref}: item ${item} is also on row ${other}` });
        else if (other === undefined) {
          itemRows.set(item, r.row);
          items.push(item);
        }
      }
    }
    const normalised = numberFields?.number_normalised;
    const key = typeof normalised === 'string' ? `${JSON.stringify(numberFields?.scheme_id ?? null)}\u0000${normalised}` : null;
    if (key !== null) {
      const other = numbers.get(key);
      if (other !== undefined) problems.push({ row: r.row, column: 'number', reason: `the same number as row ${other}` });
      else numbers.set(key, r.row);
    }
    if (problems.length > 0 || numberFields === undefined || otherFields === undefined) errors.push(...problems);
    else accepted.push({ row: r.row, fields: { ...numberFields, ...otherFields }, items });
  }
  errors.sort((a, b) => a.row - b.row);
  if (errors.length > 0 && !opts.validOnly)
    throw new SubjectError('SUBJECT_IMPORT_REJECTED', `nothing imported: ${errors.length} problem(s); fix them`, { details: { errors, ...hint({ remedy: ['valid-only'] }) } });
  const ids = accepted.map(() => ctx.newId());
  const drafts: EntryDraft[] = accepted.map((a, i) => ({
    actor: ctx.actor,
    type: 'cataloguing',
    items: [],
    objects: [],
    details: { action: 'subject.create', reason: opts.reason, subject: { id: ids[i] ?? '', ...a.fields }, items: [...a.items] },
  }));
  for (let i = 0; i < drafts.length; i += 1000) await archive.commit(drafts.slice(i, i + 1000));
  return { imported: drafts.length, ids, errors };
}

/** The non-number fields, each checked on its own so a problem names its column. */
async function fieldByField(
  archive: SubjectsPorts,
  input: SubjectInput,
  row: number,
  problems: { row: number; column: string; reason: string }[],
  known: Lookups,
): Promise<SubjectFields> {
  const columns: Record<string, string> = { sex: 'sex', ageBand: 'age_band', dateOfDeath: 'date_of_death', dateOfPhotography: 'date_of_photography', notes: 'notes' };
  const out: SubjectFields = {};
  let failed = false;
  for (const [key, value] of Object.entries(input)) {
    try {
      Object.assign(out, await resolveFields(archive, { [key]: value as string | null }, null, known));
    } catch (e) {
      if (!(e instanceof CustodyError)) throw e;
      problems.push({ row, column: columns[key] ?? key, reason: e.message });
      failed = true;
    }
  }
  if (failed) throw new SubjectError('SUBJECT_INVALID', 'see the row errors');
  return out;
}
