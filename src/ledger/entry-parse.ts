// Typed narrowing of a ledger entry's details, for the projections. Untrusted input: the ledger
// file may have been edited by anyone with disk access, so nothing read back is cast to the
// writers' types (entry-details.ts). Each reader names the fields it relies on and how it reads
// them (a FieldSpec, checked by tsc against the writer's type: a field the writers do not write,
// or read as a type they do not write, fails to compile); `detailsOf` checks exactly those
// fields, with the same rules and the same LEDGER_ENTRY_MALFORMED error as entry-fields.ts, and
// passes the writer's other fields through as plain JSON, for the reader to check where it uses them.
import type { JsonValue } from '../core/index.js';
import type { EntryType, LedgerEntry } from './entry.js';
import type { CataloguingDetails, DetailsOf, ExaminationDetails, ViewDetails } from './entry-details.js';
import { int, str, strOrNull } from './entry-fields.js';
import { LedgerError } from './errors.js';

/**
 * How a field is read: 'string' and 'int' must be present ('int': a safe integer);
 * 'string|null' is null when absent; 'int|null' must be present, null or a safe integer.
 */
export type FieldKind = 'string' | 'string|null' | 'int' | 'int|null';

type KindType<K extends FieldKind> = K extends 'string'
  ? string
  : K extends 'string|null'
    ? string | null
    : K extends 'int'
      ? number
      : number | null;

/** The ways a field the writers write as V may be read. Reading leniently is fine; reading stricter than the writers write is not. */
type KindsFor<V> =
  | ([V] extends [string] ? 'string' : never)
  | ([V] extends [string | null] ? 'string|null' : never)
  | ([V] extends [number] ? 'int' : never)
  | ([V] extends [number | null] ? 'int|null' : never);

/** Which fields of the writers' type T a reader checks, and how. */
export type FieldSpec<T> = { readonly [K in keyof T]?: KindsFor<Exclude<T[K], undefined>> };

/** Details as a reader sees them: the checked fields typed, the writers' other fields as unchecked JSON. */
export type Checked<T, S> = { readonly [K in keyof S]: S[K] extends FieldKind ? KindType<S[K]> : never } & {
  readonly [K in Exclude<keyof T, keyof S>]?: JsonValue;
};

/**
 * Reads `spec`'s fields of an entry's details (the rules of entry-fields.ts, in spec order). The
 * spec's agreement with T is checked where it is written (`satisfies FieldSpec<…>` below).
 */
function checkFields<T, S>(entry: LedgerEntry, spec: S): Checked<T, S> {
  const d = entry.details;
  const out: { [k: string]: JsonValue } = { ...d };
  for (const [k, kind] of fieldsIn(spec as { [k: string]: FieldKind })) {
    switch (kind) {
      case 'string':
        out[k] = str(d, k, entry);
        break;
      case 'string|null':
        out[k] = strOrNull(d, k, entry);
        break;
      case 'int':
        out[k] = int(d, k, entry);
        break;
      case 'int|null':
        out[k] = d[k] === null ? null : int(d, k, entry);
        break;
    }
  }
  return out as Checked<T, S>;
}

// Each spec's fields as a list, made once: the projection runs per entry, on the writer's path.
const compiled = new WeakMap<object, [string, FieldKind][]>();
function fieldsIn(spec: { [k: string]: FieldKind }): [string, FieldKind][] {
  let list = compiled.get(spec);
  if (list === undefined) {
    list = Object.entries(spec);
    compiled.set(spec, list);
  }
  return list;
}

/**
 * The fields each reader of an entry type relies on. An entry type not listed here is read
 * per action (`actionDetailsOf`) or not read at all.
 */
const BY_TYPE = {
  'ingestion start': {
    delivery: 'string',
    source: 'string',
    received_by: 'string|null',
    medium: 'string|null',
    note: 'string|null',
  },
  ingestion: {
    size: 'int',
    media_type: 'string',
    delivery: 'string',
    parent: 'string|null',
    member_index: 'int|null',
    path: 'string',
    path_raw_hex: 'string|null',
    path_encoding: 'string',
    relative_path: 'string',
    name: 'string',
    mtime: 'string|null',
  },
  'ingestion end': { delivery: 'string' },
  withdrawal: { reason: 'string', authority: 'string' },
  'metadata extraction': { analyzer: 'string' },
  decision: { subject: 'string', decision: 'string', note: 'string|null' },
} as const satisfies { [T in EntryType]?: FieldSpec<DetailsOf<T>> };
type ByType = typeof BY_TYPE;

/**
 * The details of an entry of type `type`, their fields checked; throws LEDGER_ENTRY_MALFORMED
 * naming the first bad field.
 *
 * @example const d = detailsOf(entry, 'ingestion'); d.size // number
 */
export function detailsOf<T extends keyof ByType>(entry: LedgerEntry, type: T): Checked<DetailsOf<T>, ByType[T]> {
  if (entry.type !== type) throw new LedgerError('LEDGER_ENTRY_MALFORMED', `entry ${entry.seq} is a ${entry.type} entry, read as ${type}`);
  return checkFields<DetailsOf<T>, ByType[T]>(entry, BY_TYPE[type]);
}

type ActionDetails = CataloguingDetails | ExaminationDetails;
type Action = ActionDetails['action'];
type OfAction<A extends Action> = Extract<ActionDetails, { action: A }>;

/** The fields each reader of a cataloguing or examination action relies on. */
const BY_ACTION = {
  'source.register': { codename: 'string' },
  'source.identity': { codename: 'string' },
  'source.grant': { grantee: 'string', role: 'string' },
  'source.revoke': { grantee: 'string' },
  'source.read': { codename: 'string', reason: 'string' },
  'account.add': { account: 'string', role: 'string', org: 'string|null' },
  'account.passwd': { account: 'string' },
  'account.role': { account: 'string', role: 'string' },
  'account.disable': { account: 'string', reason: 'string' },
  'account.sign-in': { account: 'string' },
  'account.sign-in-failures': { account: 'string' },
  'account.key.enrol': { account: 'string', replaces: 'string|null', key_id: 'string', public_key: 'string' },
  'account.key.revoke': { account: 'string', key_id: 'string', reason: 'string' },
  'sample.seed': { sample: 'string', seed: 'string' },
  'sample.manifest': { sample: 'string', manifest_digest: 'string' },
  'examination.assign': { sample: 'string' },
  'examination.close': { sample: 'string', case_code_key: 'string' },
  'examination.submit': { sample: 'string', case: 'string', examiner: 'string', commitment: 'string', sealed: 'string' },
  'examination.reveal': { sample: 'string', case: 'string' },
  'examination.adjudicate': { sample: 'string', case: 'string' },
  'sample.frame': { frame_digest: 'string', frame_size: 'int' },
  'missing.report': { report: 'string', org: 'string', digest: 'string' },
  'missing.erase': { report: 'string' },
  'missing.read': { report: 'string' },
  'missing.link-review': { decision: 'string' },
  'missing.subject-review': { report: 'string', subject: 'string', digest: 'string' },
  'missing.subject-level': { report: 'string', subject: 'string', digest: 'string' },
  'missing.viewing': { report: 'string', subject: 'string', digest: 'string' },
  'pm.record': { subject: 'string' },
} as const satisfies { [A in Action]?: FieldSpec<OfAction<A>> };
type ByAction = typeof BY_ACTION;

/**
 * The details of a cataloguing or examination entry whose `details.action` the caller has read
 * as `action`, their fields checked (throws LEDGER_ENTRY_MALFORMED naming the first bad field).
 */
export function actionDetailsOf<A extends keyof ByAction>(entry: LedgerEntry, action: A): Checked<OfAction<A>, ByAction[A]> {
  return checkFields<OfAction<A>, ByAction[A]>(entry, BY_ACTION[action]);
}

const VIEW = { hour: 'string', action: 'string' } as const satisfies FieldSpec<ViewDetails>;

/** The details of an audited view ('dissemination' whose `details.action` is 'view.…'), checked. */
export function viewDetailsOf(entry: LedgerEntry): Checked<ViewDetails, typeof VIEW> {
  return checkFields<ViewDetails, typeof VIEW>(entry, VIEW);
}

/** The writers' fields of some details, each as unchecked JSON: the names are checked by tsc, the values by the reader. */
export type Unchecked<T> = { readonly [K in keyof T]?: JsonValue };

/**
 * For lenient readers (which skip what they cannot use rather than refuse the entry): the
 * details of an entry of type `type` (of no other: then none), without checking them.
 *
 * @example const v = fieldsOf(entry, 'creation').verifier_key; if (typeof v === 'string') …
 */
export function fieldsOf<T extends EntryType>(entry: LedgerEntry, type: T): Unchecked<DetailsOf<T>> {
  // Sound for any JSON object (each field is JsonValue | undefined); tsc cannot see it through the generic T.
  return (entry.type === type ? entry.details : {}) as Unchecked<DetailsOf<T>>;
}

/** As `fieldsOf`, for the cataloguing or examination entries of one `details.action`. */
export function actionFieldsOf<A extends Action>(entry: LedgerEntry, action: A): Unchecked<OfAction<A>> {
  const d = (entry.type === 'cataloguing' || entry.type === 'examination') && entry.details.action === action ? entry.details : {};
  return d as Unchecked<OfAction<A>>; // as in fieldsOf
}
