/**
 * The index database. Everything here is derived from the ledger (see ledger/projection.ts)
 * and can be rebuilt from it; `verify` checks that it has not drifted, both ways.
 */
export interface DeliveriesTable {
  id: string;
  source: string;
  received_by: string | null;
  medium: string | null;
  note: string | null;
  roots_json: string;
  manifest_sha256: string | null;
  opened_seq: number;
  opened_at: string;
  opened_by: string;
  closed_seq: number | null;
  report_json: string | null;
}

export interface ObjectsTable {
  sha256: string;
  size: number;
  media_type: string;
  first_seq: number;
  withdrawn_seq: number | null;
  purged_seq: number | null;
}

export interface ItemsTable {
  id: string;
  seq: number;
  delivery_id: string;
  parent_id: string | null;
  member_index: number | null;
  path: string;
  path_raw_hex: string | null;
  path_encoding: string;
  relative_path: string;
  name: string;
  size: number;
  mtime: string | null;
  media_type: string;
  sha256: string;
  flags_json: string;
  origin_key: string;
  received_at: string;
  actor: string;
}

export interface LedgerEntriesTable {
  seq: number;
  type: string;
  time: string;
  actor: string;
  leaf_hash: string;
}

export interface WithdrawalsTable {
  seq: number;
  sha256: string;
  reason: string;
  authority: string;
  actor: string;
  time: string;
}

/** One row per analysed object, from its 'metadata extraction' entry (see ledger/projection). */
export interface AnalysesTable {
  sha256: string;
  seq: number;
  analyzer: string;
  make: string | null;
  model: string | null;
  body_serial: string | null;
  software: string | null;
  xmp_creator_tool: string | null;
  xmp_history_json: string;
  date_time_original: string | null;
  create_date: string | null;
  modify_date: string | null;
  offset_time_original: string | null;
  sub_sec_time_original: string | null;
  orientation: number | null;
  width: number | null;
  height: number | null;
  exif_present: number;
  jpeg_quality: number | null;
  quant_digest: string | null;
  pdq: string | null;
  pdq_quality: number | null;
  pdq_dihedral_json: string;
  crops_json: string;
  thumbnail_pdq: string | null;
  gps_latitude: string | null;
  gps_longitude: string | null;
  c2pa_state: string;
  c2pa_codes_json: string;
  warnings_json: string;
}

/** An examiner's decision on a pair or cluster of objects (ledger 'decision' entries). */
export interface DecisionsTable {
  seq: number;
  subject: string;
  objects_json: string;
  decision: string;
  note: string | null;
  actor: string;
  time: string;
}

/** Operational: analysis work to do. Not part of the record; rebuilt from objects lacking results. */
export interface JobsTable {
  id: string;
  name: string;
  sha256: string;
  media_type: string;
  state: string;
  attempts: number;
  error: string | null;
  updated_at: string;
}

/** A security branch or similar body that held people (catalogue 'unit.*' entries). */
export interface UnitsTable {
  id: string;
  /** A numeric code (215); a text code ("AFI") is in code_text instead. */
  code: number | null;
  code_text: string | null;
  name_en: string;
  name_ar: string | null;
  aliases_json: string;
  parent_id: string | null;
  created_seq: number;
  updated_seq: number;
  /** The 'unit.retire' entry: a unit is never deleted, it leaves service. */
  retired_seq: number | null;
}

export interface NumberingSchemesTable {
  id: string;
  config_json: string;
  seq: number;
}

/** One person as catalogued (catalogue 'subject.*' entries). */
export interface SubjectsTable {
  id: string;
  number_raw: string | null;
  scheme_id: string | null;
  number_normalised: string | null;
  fields_json: string;
  unit_id: string | null;
  sex: string | null;
  age_band: string | null;
  date_of_death: string | null;
  date_of_photography: string | null;
  notes: string | null;
  status: string;
  merged_into: string | null;
  created_seq: number;
  updated_seq: number;
}

/** Which subject an item (a photograph) shows; an item shows at most one. */
export interface SubjectItemsTable {
  item_id: string;
  subject_id: string;
  seq: number;
}

/** A subject's history: every entry that changed it, with actor and reason. */
export interface SubjectEventsTable {
  id: string;
  seq: number;
  subject_id: string;
  action: string;
  reason: string;
  actor: string;
  time: string;
}

/** A source by codename; the real identity is only ever stored encrypted (AES-256-GCM). */
export interface SourcesTable {
  codename: string;
  identity_json: string | null;
  registered_seq: number;
  updated_seq: number;
}

export interface SourceRolesTable {
  actor: string;
  role: string;
  seq: number;
}

/** Every read of a source's identity, from its ledger entry. */
export interface SourceReadsTable {
  seq: number;
  codename: string;
  actor: string;
  reason: string;
  time: string;
}

/** A sampling plan: frame (frozen, digest), seed and manifest, each from its own ledger entry. */
export interface SamplesTable {
  id: string;
  name: string;
  unit_kind: string;
  method: string;
  stratify: string | null;
  size: number;
  population: number | null;
  frame_digest: string;
  frame_size: number;
  /** [{name, frame_size, frame_digest}] for stratified plans, '[]' otherwise. */
  strata_json: string;
  codebook_json: string;
  codebook_version: string;
  codebook_digest: string;
  frame_seq: number;
  seed: string | null;
  seed_seq: number | null;
  manifest_digest: string | null;
  manifest_seq: number | null;
  /** The plan's answer key, wrapped by the archive's examination KEK (null: a plan sealed the old way). */
  plan_key_json: string | null;
  /** Hex HMAC key of the plan's case codes, published by the close entry (null until then). */
  case_code_key: string | null;
  closed_seq: number | null;
  /** Hex key that opens the plan's sealed case ids, published by the close entry of a version-2 assignment (null until then, and for earlier plans). */
  case_id_key: string | null;
}

/** One drawn member (a case): id is '<sample>/<member>'. */
export interface SampleMembersTable {
  id: string;
  sample_id: string;
  member_id: string;
  position: number;
  stratum: string | null;
}

/** Who examines a case: id is '<sample>/<case>/<examiner>'. */
export interface ExamAssignmentsTable {
  id: string;
  sample_id: string;
  case_id: string;
  examiner: string;
  seq: number;
  /** The case's opaque code, what examiners see (null for plans assigned before case codes). */
  code: string | null;
  /**
   * The case's subject or item id sealed under the plan's case-id key (assignment entries of
   * version 2, whose rows are keyed by code: case_id is the code in the table, and the
   * examination repository reads it back as the id through the plan's case links). Null before.
   */
  sealed_case: string | null;
}

/**
 * A case's code linked to its subject or item id, as a plan's close entry (version 2) publishes
 * it: id is '<sample>/<code>'. From the ledger, like every index table.
 */
export interface ExamCaseLinksTable {
  id: string;
  sample_id: string;
  code: string;
  member_id: string;
  seq: number;
}

/**
 * A sealed submission (commitment + ciphertext), later revealed: id is '<sample>/<case>/<examiner>'.
 * answer_json and salt stay null until the reveal entry, after the last examiner has submitted.
 */
export interface ExamSubmissionsTable {
  id: string;
  sample_id: string;
  case_id: string;
  examiner: string;
  commitment: string;
  sealed: string;
  submit_seq: number;
  answer_json: string | null;
  salt: string | null;
  reveal_seq: number | null;
}

/** The adjudicator's decisions on a case and the final answer: id is '<sample>/<case>'. */
export interface ExamAdjudicationsTable {
  id: string;
  sample_id: string;
  case_id: string;
  actor: string;
  decisions_json: string;
  final_json: string;
  seq: number;
}

/** Staff accounts (issue 12), projected from `account.*` entries: the name is ciphertext. */
export interface AccountsTable {
  id: string;
  role: string;
  org: string | null;
  name_sealed: string;
  created_seq: number;
  updated_seq: number;
  disabled_seq: number | null;
  disabled_reason: string | null;
}

/**
 * Password hashes: the only index table not projected from the ledger (a hash in a permanent,
 * exportable record would be an offline-guessing target). Lost with the database.
 */
export interface AccountPasswordsTable {
  account_id: string;
  hash: string;
}

/**
 * Missing-person reports (issue 15), projected from `missing.report` / `missing.erase` entries.
 * Only non-identifying metadata in clear: the report's content (names, dates, marks, contact,
 * consent) is the sealed ciphertext, whose key lives outside the index and the ledger.
 */
export interface MissingReportsTable {
  id: string;
  org: string;
  sealed_json: string;
  digest: string;
  codebook_version: string;
  codebook_digest: string;
  recorded_seq: number;
  recorded_at: string;
  recorded_by: string;
  erased_seq: number | null;
  /** The erasure's category (MissingEraseCategory); null for an erasure written before categories. */
  erased_category: string | null;
  /** The free-text reason of an erasure written before categories (in clear in its entry), else null. */
  erased_reason: string | null;
}

/** Every read of a report's sealed contact (`missing.read`): who, when, why (sealed). */
export interface MissingReportReadsTable {
  seq: number;
  report_id: string;
  actor: string;
  /** The reason in clear (entries written before it was sealed), or '' when sealed. */
  reason: string;
  /** The reason sealed under the report's data key, and its digest; null for older entries. */
  sealed_json: string | null;
  digest: string | null;
  time: string;
}

/**
 * A reviewer's decision on a proposed link between two reports (`missing.link-review`):
 * report_a < report_b; the latest decision on a pair stands. Ids, decision and reason only.
 */
export interface MissingLinkReviewsTable {
  seq: number;
  report_a: string;
  report_b: string;
  decision: 'same' | 'different';
  /** The reason in clear (entries written before it was sealed), or '' when sealed. */
  reason: string;
  /** The reason sealed under both reports' keys (canonical JSON), or null for a clear reason. */
  sealed_json: string | null;
  digest: string | null;
  actor: string;
  time: string;
}

/**
 * Report↔subject links (issue 15, "Review" and "Consented viewing"): one row per ledger entry
 * (`missing.subject-review`, `missing.subject-level`, `missing.viewing`), folded in seq order by
 * identification/reports/subject-link-state.ts. In clear only ids, the decision or level, and
 * facts that are not family data (the photographs shown and their outcomes, the kinds of
 * corroboration); reasons, references and attendees are `sealed_json`, under the report's key.
 */
export interface MissingSubjectEventsTable {
  seq: number;
  action: string;
  report_id: string;
  subject_id: string;
  /** accept | reject (review), recognised | confirmed (level), null (viewing). */
  value: string | null;
  /** Canonical JSON of the entry's clear facts (viewing: photographs; level: viewing seq, kinds). */
  facts_json: string;
  sealed_json: string;
  digest: string;
  actor: string;
  time: string;
}

/** A subject's post-mortem identification record (`pm.record`), the latest one in full. */
export interface SubjectPmTable {
  subject_id: string;
  pm_json: string;
  codebook_version: string;
  codebook_digest: string;
  seq: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

/**
 * An audited view (issue 12, "Views are evidence too"): one 'dissemination' entry whose
 * details.action is 'view.*' (an original downloaded, an unblurred rendition, a protected
 * identity read), at most one per (actor, item, hour, action).
 */
export interface ViewsTable {
  seq: number;
  actor: string;
  action: string;
  item_id: string | null;
  sha256: string | null;
  /** The UTC hour of the view, 'YYYY-MM-DDTHH'. */
  hour: string;
  time: string;
}

/**
 * Where the ledger last changed what a derived result reads (projected from the ledger like any
 * index row, so `rebuild` restores it and `verify` compares it). One row per mark:
 * - `analysis_inputs`: the seq of the last entry that wrote an analysis, an object, an item, a
 *   delivery or a withdrawal (ANALYSIS_INPUT_TABLES): what the near-duplicates and the
 *   indicators are computed from. Their caches are keyed on it, so that an entry that changes
 *   none of that (a decision, a sign-in, an audited view) leaves them current.
 */
export interface MarksTable {
  name: string;
  seq: number;
}

/** The mark the near-duplicate and indicator caches are keyed on (MarksTable). */
export const ANALYSIS_INPUTS_MARK = 'analysis_inputs';

/**
 * The tables the near-duplicates (analyses, objects' withdrawals, items per object) and the
 * indicators (analyses, items' names, folders and deliveries, objects' media types) read: an
 * entry that writes any of them moves the `analysis_inputs` mark. Deliveries are read by neither
 * today; they are kept here so that a check reading them later is not served a stale cache.
 */
export const ANALYSIS_INPUT_TABLES: ReadonlySet<string> = new Set([
  'analyses',
  'objects',
  'items',
  'deliveries',
  'withdrawals',
]);

export interface Database {
  deliveries: DeliveriesTable;
  objects: ObjectsTable;
  items: ItemsTable;
  ledger_entries: LedgerEntriesTable;
  withdrawals: WithdrawalsTable;
  meta: MetaTable;
  analyses: AnalysesTable;
  decisions: DecisionsTable;
  jobs: JobsTable;
  units: UnitsTable;
  numbering_schemes: NumberingSchemesTable;
  subjects: SubjectsTable;
  subject_items: SubjectItemsTable;
  subject_events: SubjectEventsTable;
  sources: SourcesTable;
  source_roles: SourceRolesTable;
  source_reads: SourceReadsTable;
  samples: SamplesTable;
  sample_members: SampleMembersTable;
  exam_assignments: ExamAssignmentsTable;
  exam_submissions: ExamSubmissionsTable;
  exam_adjudications: ExamAdjudicationsTable;
  exam_case_links: ExamCaseLinksTable;
  accounts: AccountsTable;
  account_passwords: AccountPasswordsTable;
  missing_reports: MissingReportsTable;
  missing_report_reads: MissingReportReadsTable;
  missing_link_reviews: MissingLinkReviewsTable;
  missing_subject_events: MissingSubjectEventsTable;
  subject_pm: SubjectPmTable;
  person_keys: PersonKeysTable;
  views: ViewsTable;
  marks: MarksTable;
}

/** An examiner's or adjudicator's Ed25519 key (issue 12): valid from enrol_seq until ended_seq (replaced or revoked). */
export interface PersonKeysTable {
  key_id: string;
  account_id: string;
  /** base64 of the 32-byte public key. */
  public_key: string;
  enrol_seq: number;
  ended_seq: number | null;
  ended_reason: string | null;
}

/** Tables whose every row comes from the ledger, with their primary keys, in dump order. */
export const INDEX_TABLES = {
  ledger_entries: 'seq',
  deliveries: 'id',
  objects: 'sha256',
  items: 'id',
  withdrawals: 'seq',
  analyses: 'sha256',
  decisions: 'seq',
  units: 'id',
  numbering_schemes: 'id',
  subjects: 'id',
  subject_items: 'item_id',
  subject_events: 'id',
  sources: 'codename',
  source_roles: 'actor',
  source_reads: 'seq',
  samples: 'id',
  sample_members: 'id',
  exam_assignments: 'id',
  exam_submissions: 'id',
  exam_adjudications: 'id',
  exam_case_links: 'id',
  accounts: 'id',
  missing_reports: 'id',
  missing_report_reads: 'seq',
  missing_link_reviews: 'seq',
  missing_subject_events: 'seq',
  subject_pm: 'subject_id',
  person_keys: 'key_id',
  views: 'seq',
  marks: 'name',
} as const satisfies Partial<Record<keyof Database, string>>;

export type IndexTable = keyof typeof INDEX_TABLES;
export type Row = Record<string, string | number | null>;

/** One write to an index table, as the ledger's projection (ledger/projection.ts) computes it. */
export type Mutation =
  | { op: 'insert'; table: IndexTable; row: Row }
  | { op: 'insertIfAbsent'; table: IndexTable; row: Row }
  | { op: 'upsert'; table: IndexTable; row: Row }
  | { op: 'delete'; table: IndexTable; key: string | number }
  | { op: 'update'; table: IndexTable; key: string | number; set: Row };
