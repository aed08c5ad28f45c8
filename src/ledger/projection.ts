import { canonicalize, type JsonValue } from '../core/index.js';
import {
  ANALYSIS_INPUT_TABLES,
  ANALYSIS_INPUTS_MARK,
  INDEX_TABLES,
  type IndexTable,
  type Mutation,
  type Row,
} from '../db/index.js';
import type { LedgerEntry } from './entry.js';
import type { SubjectFields, UnitFields } from './entry-details.js';
import { LedgerError } from './errors.js';
import { bad, manifestDigest, only, str } from './entry-fields.js';
import { actionDetailsOf, detailsOf, viewDetailsOf } from './entry-parse.js';
import { examinationMutations } from './examination-projection.js';
import { identificationMutations } from './identification-projection.js';

/**
 * How each ledger entry shows in the index database. Pure and stateless: the same function
 * feeds intake (row by row), `rebuild` (replay of the whole ledger) and `verify` (replay in
 * memory, then compared with the database both ways). That is what makes the database an
 * index of the ledger rather than a second record.
 */
// The write the projection hands to the index is the index's own type (db/schema.ts):
// db/ never imports ledger/.
export type { Mutation };

export function projectEntry(entry: LedgerEntry, leafHashHex: string): Mutation[] {
  const d = entry.details;
  const out: Mutation[] = [
    {
      op: 'insert',
      table: 'ledger_entries',
      row: {
        seq: entry.seq,
        type: entry.type,
        time: entry.time,
        actor: entry.actor,
        leaf_hash: leafHashHex,
      },
    },
  ];
  switch (entry.type) {
    case 'ingestion start': {
      if (d.continued === true) break;
      const s = detailsOf(entry, 'ingestion start');
      out.push({
        op: 'insert',
        table: 'deliveries',
        row: {
          id: s.delivery,
          source: s.source,
          received_by: s.received_by,
          medium: s.medium,
          note: s.note,
          roots_json: canonicalize(s.roots ?? []),
          manifest_sha256: manifestDigest(d),
          opened_seq: entry.seq,
          opened_at: entry.time,
          opened_by: entry.actor,
          closed_seq: null,
          report_json: null,
        },
      });
      break;
    }
    case 'ingestion': {
      const id = only(entry.items, 'items', entry);
      const sha256 = only(entry.objects, 'objects', entry);
      const i = detailsOf(entry, 'ingestion');
      const size = i.size;
      const mediaType = i.media_type;
      out.push({
        op: 'insertIfAbsent',
        table: 'objects',
        row: {
          sha256,
          size,
          media_type: mediaType,
          first_seq: entry.seq,
          withdrawn_seq: null,
          purged_seq: null,
        },
      });
      out.push({
        op: 'insert',
        table: 'items',
        row: {
          id,
          seq: entry.seq,
          delivery_id: i.delivery,
          parent_id: i.parent,
          member_index: i.member_index,
          path: i.path,
          path_raw_hex: i.path_raw_hex,
          path_encoding: i.path_encoding,
          relative_path: i.relative_path,
          name: i.name,
          size,
          mtime: i.mtime,
          media_type: mediaType,
          sha256,
          flags_json: canonicalize(i.flags ?? []),
          origin_key: originKey(i.parent, i.path_raw_hex ?? i.path, i.member_index),
          received_at: entry.time,
          actor: entry.actor,
        },
      });
      break;
    }
    case 'ingestion end':
      out.push({
        op: 'update',
        table: 'deliveries',
        key: detailsOf(entry, 'ingestion end').delivery,
        set: { closed_seq: entry.seq, report_json: canonicalize(d) },
      });
      break;
    case 'withdrawal': {
      const sha256 = only(entry.objects, 'objects', entry);
      const w = detailsOf(entry, 'withdrawal');
      out.push({ op: 'update', table: 'objects', key: sha256, set: { withdrawn_seq: entry.seq } });
      out.push({
        op: 'insert',
        table: 'withdrawals',
        row: {
          seq: entry.seq,
          sha256,
          reason: w.reason,
          authority: w.authority,
          actor: entry.actor,
          time: entry.time,
        },
      });
      break;
    }
    case 'deletion':
      out.push({
        op: 'update',
        table: 'objects',
        key: only(entry.objects, 'objects', entry),
        set: { purged_seq: entry.seq },
      });
      break;
    case 'metadata extraction':
      out.push({ op: 'upsert', table: 'analyses', row: analysisRow(entry) });
      break;
    case 'decision': {
      const c = detailsOf(entry, 'decision');
      out.push({
        op: 'insert',
        table: 'decisions',
        row: {
          seq: entry.seq,
          subject: c.subject,
          objects_json: canonicalize(entry.objects),
          decision: c.decision,
          note: c.note,
          actor: entry.actor,
          time: entry.time,
        },
      });
      break;
    }
    case 'cataloguing':
      out.push(...catalogueMutations(entry));
      break;
    case 'examination':
      out.push(...examinationMutations(entry));
      break;
    case 'dissemination':
      // An export is its own record (no index rows); an audited view is indexed, so that the
      // server records one per (account, item, hour) across restarts.
      if (typeof d.action === 'string' && d.action.startsWith('view.')) out.push(viewMutation(entry));
      break;
    case 'creation':
    case 'fixity check':
    case 'quarantine': // the entry itself records what was set aside; no index rows
      break;
  }
  // The mark the analysis caches are keyed on (schema.ts, MarksTable): moved by every entry that
  // writes a table they read, whatever its type, so that a new kind of entry cannot be missed.
  if (out.some((m) => ANALYSIS_INPUT_TABLES.has(m.table)))
    out.push({ op: 'upsert', table: 'marks', row: { name: ANALYSIS_INPUTS_MARK, seq: entry.seq } });
  return out;
}

/** An audited view: 'dissemination' with details.action 'view.original' | 'view.unblurred' | … */
function viewMutation(entry: LedgerEntry): Mutation {
  const d = viewDetailsOf(entry);
  const hour = d.hour;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}$/.test(hour)) throw bad(entry, 'hour');
  return {
    op: 'insert',
    table: 'views',
    row: {
      seq: entry.seq,
      actor: entry.actor,
      action: d.action,
      item_id: entry.items[0] ?? null,
      sha256: entry.objects[0] ?? null,
      hour,
      time: entry.time,
    },
  };
}

/** Catalogue entries: `details.action` names the change, `details.unit` carries the fields. */
function catalogueMutations(entry: LedgerEntry): Mutation[] {
  const d = entry.details;
  const action = str(d, 'action', entry);
  const unit = obj(d.unit);
  const fields: Row = {};
  for (const k of ['name_en', 'name_ar', 'parent_id'] as const satisfies readonly (keyof UnitFields)[])
    if (k in unit) fields[k] = typeof unit[k] === 'string' ? unit[k] : null;
  // A numeric code goes to `code`, a text code ("AFI") to `code_text`: one of them or neither.
  if ('code' in unit) {
    fields.code = typeof unit.code === 'number' ? unit.code : null;
    fields.code_text = typeof unit.code === 'string' ? unit.code : null;
  }
  if ('aliases' in unit) fields.aliases_json = canonicalize(unit.aliases ?? []);
  if (action.startsWith('subject.') || action === 'scheme.define')
    return subjectMutations(entry, action);
  if (action.startsWith('source.')) return sourceMutations(entry, action);
  if (action.startsWith('account.')) return accountMutations(entry, action);
  if (action.startsWith('missing.') || action.startsWith('pm.'))
    return identificationMutations(entry, action);
  const id = str(unit, 'id', entry);
  switch (action) {
    case 'unit.register':
      return [
        {
          op: 'insert',
          table: 'units',
          row: {
            id,
            code: null,
            code_text: null,
            retired_seq: null,
            name_ar: null,
            aliases_json: '[]',
            parent_id: null,
            ...fields,
            name_en: str(unit, 'name_en', entry),
            created_seq: entry.seq,
            updated_seq: entry.seq,
          },
        },
      ];
    case 'unit.update':
      return [
        { op: 'update', table: 'units', key: id, set: { ...fields, updated_seq: entry.seq } },
      ];
    case 'unit.retire':
      return [
        {
          op: 'update',
          table: 'units',
          key: id,
          set: { retired_seq: entry.seq, updated_seq: entry.seq },
        },
      ];
    default:
      throw new LedgerError(
        'LEDGER_ENTRY_MALFORMED',
        `cataloguing entry ${entry.seq} has an unknown action ${action}`,
      );
  }
}

/** The queryable columns of an analysis; the whole result stays in the ledger entry. */
function analysisRow(entry: LedgerEntry): Row {
  const sha256 = only(entry.objects, 'objects', entry);
  const d = detailsOf(entry, 'metadata extraction');
  const exif = obj(d.exif);
  const jpeg = obj(d.jpeg);
  const pdq = obj(d.pdq);
  const dims = obj(d.dimensions);
  const gps = obj(exif.gps);
  const thumb = obj(d.thumbnail);
  const c2pa = obj(d.c2pa);
  const s = (v: JsonValue | undefined): string | null => (typeof v === 'string' ? v : null);
  const n = (v: JsonValue | undefined): number | null => (typeof v === 'number' ? v : null);
  return {
    sha256,
    seq: entry.seq,
    analyzer: d.analyzer,
    make: s(exif.make),
    model: s(exif.model),
    body_serial: s(exif.body_serial_number),
    software: s(exif.software),
    xmp_creator_tool: s(exif.xmp_creator_tool),
    xmp_history_json: canonicalize(exif.xmp_history_software ?? []),
    date_time_original: s(exif.date_time_original),
    create_date: s(exif.create_date),
    modify_date: s(exif.modify_date),
    offset_time_original: s(exif.offset_time_original),
    sub_sec_time_original: s(exif.sub_sec_time_original),
    orientation: n(exif.orientation),
    width: n(dims.width),
    height: n(dims.height),
    exif_present:
      exif.make != null || exif.model != null || exif.date_time_original != null ? 1 : 0,
    jpeg_quality: n(jpeg.estimated_quality),
    quant_digest: s(jpeg.quant_digest),
    pdq: s(pdq.hash),
    pdq_quality: n(pdq.quality),
    pdq_dihedral_json: canonicalize(pdq.dihedral ?? null),
    crops_json: canonicalize(d.crops ?? []),
    thumbnail_pdq: s(thumb.pdq),
    gps_latitude: s(gps.latitude),
    gps_longitude: s(gps.longitude),
    c2pa_state: s(c2pa.state) ?? 'none',
    c2pa_codes_json: canonicalize(c2pa.codes ?? []),
    warnings_json: canonicalize(d.warnings ?? []),
  };
}

function obj(v: JsonValue | undefined): { [k: string]: JsonValue } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

/** An in-memory copy of the index tables, built by replaying mutations. */
export class MemoryIndex {
  readonly tables = new Map<IndexTable, Map<string, Row>>();

  apply(mutations: readonly Mutation[]): void {
    for (const m of mutations) {
      const t = this.table(m.table);
      switch (m.op) {
        case 'upsert':
          t.set(String(m.row[PK[m.table]]), { ...m.row });
          break;
        case 'delete':
          if (!t.delete(String(m.key)))
            throw new LedgerError(
              'LEDGER_ENTRY_MALFORMED',
              `ledger removes ${m.table} ${String(m.key)}, which does not exist`,
            );
          break;
        case 'insert':
        case 'insertIfAbsent': {
          const key = String(m.row[PK[m.table]]);
          if (t.has(key)) {
            if (m.op === 'insert')
              throw new LedgerError(
                'LEDGER_ENTRY_MALFORMED',
                `ledger names ${m.table} ${key} twice`,
              );
            break;
          }
          t.set(key, { ...m.row });
          break;
        }
        case 'update': {
          const row = t.get(String(m.key));
          if (row === undefined) {
            throw new LedgerError(
              'LEDGER_ENTRY_MALFORMED',
              `ledger updates ${m.table} ${String(m.key)}, which it never created`,
            );
          }
          Object.assign(row, m.set);
          break;
        }
      }
    }
  }

  table(name: IndexTable): Map<string, Row> {
    let t = this.tables.get(name);
    if (t === undefined) {
      t = new Map();
      this.tables.set(name, t);
    }
    return t;
  }
}

const PK: Record<IndexTable, string> = INDEX_TABLES;

/**
 * Intake's idempotence key: where an item came from. A file: its original path (raw bytes in
 * hex when the name is not UTF-8). A container member: its container item and its index there.
 */
export function originKey(
  parent: string | null,
  pathOrRawHex: string,
  memberIndex: number | null,
): string {
  return canonicalize([parent, pathOrRawHex, memberIndex]);
}

export function primaryKeyOf(table: IndexTable): string {
  return PK[table];
}

const SUBJECT_FIELDS = [
  'number_raw',
  'scheme_id',
  'number_normalised',
  'unit_id',
  'sex',
  'age_band',
  'date_of_death',
  'date_of_photography',
  'notes',
] as const satisfies readonly (keyof SubjectFields)[];

/** Subject entries: the ledger names every subject and item a change touches, explicitly. */
function subjectMutations(entry: LedgerEntry, action: string): Mutation[] {
  const d = entry.details;
  if (action === 'scheme.define') {
    const scheme = obj(d.scheme);
    return [
      {
        op: 'insert',
        table: 'numbering_schemes',
        row: {
          id: str(scheme, 'id', entry),
          config_json: canonicalize(scheme.config ?? null),
          seq: entry.seq,
        },
      },
    ];
  }
  const subject = obj(d.subject);
  const id = str(subject, 'id', entry);
  const reason = str(d, 'reason', entry);
  const items = Array.isArray(d.items)
    ? d.items.filter((x): x is string => typeof x === 'string')
    : [];
  const event = (subjectId: string): Mutation => ({
    op: 'insert',
    table: 'subject_events',
    row: {
      id: `${entry.seq}:${subjectId}`,
      seq: entry.seq,
      subject_id: subjectId,
      action,
      reason,
      actor: entry.actor,
      time: entry.time,
    },
  });
  const link = (subjectId: string): Mutation[] =>
    items.map((item) => ({
      op: 'upsert',
      table: 'subject_items',
      row: { item_id: item, subject_id: subjectId, seq: entry.seq },
    }));
  const fields = (o: { [k: string]: JsonValue }): Row => {
    const row: Row = {};
    for (const k of SUBJECT_FIELDS) if (k in o) row[k] = typeof o[k] === 'string' ? o[k] : null;
    if ('fields' in o) row.fields_json = canonicalize(o.fields ?? {});
    return row;
  };
  const created = (o: { [k: string]: JsonValue }, newId: string): Mutation => ({
    op: 'insert',
    table: 'subjects',
    row: {
      id: newId,
      number_raw: null,
      scheme_id: null,
      number_normalised: null,
      fields_json: '{}',
      unit_id: null,
      sex: null,
      age_band: null,
      date_of_death: null,
      date_of_photography: null,
      notes: null,
      ...fields(o),
      status: 'active',
      merged_into: null,
      created_seq: entry.seq,
      updated_seq: entry.seq,
    },
  });
  switch (action) {
    case 'subject.create':
      return [created(subject, id), ...link(id), event(id)];
    case 'subject.update':
      return [
        {
          op: 'update',
          table: 'subjects',
          key: id,
          set: { ...fields(subject), updated_seq: entry.seq },
        },
        event(id),
      ];
    case 'subject.link':
      return [
        ...link(id),
        { op: 'update', table: 'subjects', key: id, set: { updated_seq: entry.seq } },
        event(id),
      ];
    case 'subject.unlink':
      return [
        ...items.map((item): Mutation => ({ op: 'delete', table: 'subject_items', key: item })),
        { op: 'update', table: 'subjects', key: id, set: { updated_seq: entry.seq } },
        event(id),
      ];
    case 'subject.merge': {
      const merged = Array.isArray(d.merged)
        ? d.merged.filter((x): x is string => typeof x === 'string')
        : [];
      return [
        ...merged.flatMap((m): Mutation[] => [
          {
            op: 'update',
            table: 'subjects',
            key: m,
            set: { status: 'merged', merged_into: id, updated_seq: entry.seq },
          },
          event(m),
        ]),
        ...link(id),
        { op: 'update', table: 'subjects', key: id, set: { updated_seq: entry.seq } },
        event(id),
      ];
    }
    case 'subject.split': {
      const next = obj(d.new_subject);
      const newId = str(next, 'id', entry);
      return [
        created(next, newId),
        ...link(newId),
        { op: 'update', table: 'subjects', key: id, set: { updated_seq: entry.seq } },
        event(id),
        event(newId),
      ];
    }
    default:
      throw new LedgerError(
        'LEDGER_ENTRY_MALFORMED',
        `cataloguing entry ${entry.seq} has an unknown action ${action}`,
      );
  }
}

/** Source entries: the identity is ciphertext here as in the ledger; reads and roles are logged. */
function sourceMutations(entry: LedgerEntry, action: string): Mutation[] {
  const d = entry.details;
  const identity = (): string | null =>
    d.identity === null || d.identity === undefined ? null : canonicalize(d.identity);
  switch (action) {
    case 'source.register': {
      const s = actionDetailsOf(entry, 'source.register');
      return [
        {
          op: 'insert',
          table: 'sources',
          row: {
            codename: s.codename,
            identity_json: identity(),
            registered_seq: entry.seq,
            updated_seq: entry.seq,
          },
        },
      ];
    }
    case 'source.identity':
      return [
        {
          op: 'update',
          table: 'sources',
          key: actionDetailsOf(entry, 'source.identity').codename,
          set: { identity_json: identity(), updated_seq: entry.seq },
        },
      ];
    case 'source.grant': {
      const s = actionDetailsOf(entry, 'source.grant');
      return [
        {
          op: 'upsert',
          table: 'source_roles',
          row: { actor: s.grantee, role: s.role, seq: entry.seq },
        },
      ];
    }
    case 'source.revoke':
      return [{ op: 'delete', table: 'source_roles', key: actionDetailsOf(entry, 'source.revoke').grantee }];
    case 'source.read': {
      const s = actionDetailsOf(entry, 'source.read');
      return [
        {
          op: 'insert',
          table: 'source_reads',
          row: {
            seq: entry.seq,
            codename: s.codename,
            actor: entry.actor,
            reason: s.reason,
            time: entry.time,
          },
        },
      ];
    }
    default:
      throw new LedgerError(
        'LEDGER_ENTRY_MALFORMED',
        `cataloguing entry ${entry.seq} has an unknown action ${action}`,
      );
  }
}

/** Account entries (issue 12): id, role and organisation in clear, the name as ciphertext. */
function accountMutations(entry: LedgerEntry, action: string): Mutation[] {
  switch (action) {
    case 'account.add': {
      const a = actionDetailsOf(entry, 'account.add');
      return [
        {
          op: 'insert',
          table: 'accounts',
          row: {
            id: a.account,
            role: a.role,
            org: a.org,
            name_sealed: canonicalize(obj(a.name)),
            created_seq: entry.seq,
            updated_seq: entry.seq,
            disabled_seq: null,
            disabled_reason: null,
          },
        },
      ];
    }
    case 'account.passwd':
      return [{ op: 'update', table: 'accounts', key: actionDetailsOf(entry, 'account.passwd').account, set: { updated_seq: entry.seq } }];
    case 'account.role': {
      const a = actionDetailsOf(entry, 'account.role');
      return [
        {
          op: 'update',
          table: 'accounts',
          key: a.account,
          set: { role: a.role, updated_seq: entry.seq },
        },
      ];
    }
    case 'account.disable': {
      const a = actionDetailsOf(entry, 'account.disable');
      return [
        {
          op: 'update',
          table: 'accounts',
          key: a.account,
          set: {
            disabled_seq: entry.seq,
            disabled_reason: a.reason,
            updated_seq: entry.seq,
          },
        },
      ];
    }
    case 'account.sign-in':
      // A record of who signed in when (the entry's actor and time); the index keeps nothing.
      actionDetailsOf(entry, 'account.sign-in');
      return [];
    case 'account.sign-in-failures':
      // The count of failed sign-ins of an account in one hour {account, hour, count} (the
      // failures themselves are in the server's security log, not the ledger); nothing to index.
      actionDetailsOf(entry, 'account.sign-in-failures');
      return [];
    case 'account.key.enrol': {
      // A new key ends the one it replaces (rotation), in the same entry.
      const k = actionDetailsOf(entry, 'account.key.enrol');
      const replaces = k.replaces;
      return [
        ...(replaces === null
          ? []
          : [
              {
                op: 'update',
                table: 'person_keys',
                key: replaces,
                set: { ended_seq: entry.seq, ended_reason: 'replaced' },
              } satisfies Mutation,
            ]),
        {
          op: 'insert',
          table: 'person_keys',
          row: {
            key_id: k.key_id,
            account_id: k.account,
            public_key: k.public_key,
            enrol_seq: entry.seq,
            ended_seq: null,
            ended_reason: null,
          },
        },
      ];
    }
    case 'account.key.revoke': {
      const k = actionDetailsOf(entry, 'account.key.revoke');
      return [
        {
          op: 'update',
          table: 'person_keys',
          key: k.key_id,
          set: { ended_seq: entry.seq, ended_reason: k.reason },
        },
      ];
    }
    default:
      throw new LedgerError(
        'LEDGER_ENTRY_MALFORMED',
        `cataloguing entry ${entry.seq} has an unknown action ${action}`,
      );
  }
}
