// What each kind of ledger entry carries in `details`: one discriminated union (`EntryDetails`),
// shared by the writers (through `EntryDraft` and `draft`) and the projection (through
// `detailsOf` in entry-parse.ts), so that tsc fails when a writer and a reader disagree on a
// field's name or type. The types describe the JSON a writer puts on the ledger; they change
// nothing in its bytes (canonical JSON, RFC 8785, of the same keys and values).
//
// Entries READ from the ledger are untrusted input (anyone with disk access may edit the file):
// they are never cast to these types, only checked field by field (entry-parse.ts).
import type { JsonValue } from '../core/index.js';
import type { EntryType } from './entry.js';

/** A JSON object whose members are not typed further here (EXIF fields, sealed ciphertext, …). */
export type JsonObject = { [k: string]: JsonValue };

// ---------------------------------------------------------------------------------------------
// Archive, intake, analysis
// ---------------------------------------------------------------------------------------------

export type CreationDetails = {
  archive: string;
  origin: string;
  verifier_key: string;
  format_version: number;
};

export type IngestionStartDetails = {
  delivery: string;
  /** True when the run adds to an open or earlier delivery (no new `deliveries` row). */
  continued: boolean;
  mode: string;
  source: string;
  received_by: string | null;
  medium: string | null;
  note: string | null;
  roots: string[];
  manifest: { sha256: string } | null;
  zip_expansion: { allowed: boolean; max_ratio: number; ratio_applies_above_bytes: number; max_bytes: number };
};

/** One received item (items: [its id], objects: [its SHA-256]). */
export type IngestionDetails = {
  delivery: string;
  parent: string | null;
  member_index: number | null;
  path: string;
  path_raw_hex: string | null;
  path_encoding: string;
  relative_path: string;
  name: string;
  size: number;
  mtime: string | null;
  media_type: string;
  flags: string[];
  // A symbolic link's target; a ZIP member's DOS time, CRC-32 and method.
  link_target?: string;
  link_target_raw_hex?: string | null;
  zip_dos_time?: string;
  zip_crc32?: number;
  zip_method?: number;
};
/** What intake adds to an item's details beyond the common fields. */
export type IngestionExtra = Pick<IngestionDetails, 'link_target' | 'link_target_raw_hex' | 'zip_dos_time' | 'zip_crc32' | 'zip_method'>;

export type IngestionEndDetails = {
  delivery: string;
  mode: string;
  summary: JsonValue;
  problems: JsonValue;
  problems_not_listed: number;
  manifest_check: JsonValue;
};

export type FixityCheckDetails = {
  result: 'pass' | 'fail';
  tree_size: number;
  root: string;
  objects_hashed: number;
  bytes_hashed: number;
  findings: JsonValue;
};

export type WithdrawalDetails = {
  reason: string;
  authority: string;
  /** On a container's own withdrawal: the withdrawn bytes it holds, and why it goes too. */
  contains?: string;
  why?: string;
};

export type DeletionDetails = {
  withdrawal_seq: number;
  bytes_were_present: boolean;
  previews: { path: string; sha256: string | null }[];
};

/** One image analysis (analysis/image); the queryable columns are in the index, the rest here. */
export type MetadataExtractionDetails = {
  analyzer: string;
  media_type: string;
  exif: JsonObject;
  jpeg: JsonObject | null;
  dimensions: { width: number; height: number } | null;
  pdq: { hash: string; quality: number; dihedral: JsonObject } | null;
  crops: { region: string; hash: string }[];
  /** Since custody-image/3. */
  align_grey?: { size: number; data: string };
  thumbnail: { offset: number; length: number; pdq: string | null } | null;
  c2pa: { state: string; codes: string[]; active_manifest: JsonObject | null };
  pixel_limit: number;
  codes: string[];
  warnings: string[];
};

export type DecisionDetails = {
  /** 'objects', or `cluster:<id>`. */
  subject: string;
  decision: string;
  note: string | null;
};

export type QuarantineDetails = {
  action: 'ledger tail set aside';
  from: number;
  to: number;
  entries: number;
  leaf_hashes: string[];
  file: string;
  sha256: string;
  reason: string;
};

// ---------------------------------------------------------------------------------------------
// Dissemination: exports, downloads, audited views
// ---------------------------------------------------------------------------------------------

/** An export bag (no `action`): its selection, checkpoint and tag-manifest digest. */
export type ExportDetails = {
  selection: string;
  tree_size: number;
  root: string;
  tagmanifest_sha256: string;
  items: number;
  redacted: boolean;
  full_ledger: boolean;
  since_tree_size: number | null;
  substituted: { item: string; preview_sha256: string }[];
  withheld: { kind: string; item_id: string; sha256: string; reason: string }[];
  withheld_entries: { seq: number; reason: string }[];
};

export type DownloadDetails = {
  action: 'export.download' | 'report.download' | 'missing.export.download';
  job: string;
  [k: string]: number | string;
};

/** An audited view: at most one per (account, item, action, hour). */
export type ViewDetails = {
  action: `view.${string}`;
  /** UTC hour, YYYY-MM-DDTHH. */
  hour: string;
  size?: number;
};

/** A report's identification file, exported as a bag for the authorities (`custody missing export`). */
export type IdentificationExportDetails = Omit<ExportDetails, 'since_tree_size'> & {
  action: 'missing.export';
  report: string;
  /** 'redacted' by default, or 'released' (then `contact_release_seq` names the `missing.read` entry). */
  contacts: string;
  contact_release_seq: number | null;
  /** How many ledger entries the bag carries, each with its inclusion proof. */
  entries: number;
};

export type DisseminationDetails = ExportDetails | IdentificationExportDetails | DownloadDetails | ViewDetails;

// ---------------------------------------------------------------------------------------------
// Cataloguing: `details.action` says what changed
// ---------------------------------------------------------------------------------------------

export type UnitFields = {
  code?: number | string | null;
  name_en?: string;
  name_ar?: string | null;
  aliases?: string[];
  parent_id?: string | null;
};

export type UnitRegisterDetails = { action: 'unit.register'; unit: UnitFields & { id: string; name_en: string } };
export type UnitUpdateDetails = { action: 'unit.update'; reason: string; unit: UnitFields & { id: string } };
export type UnitRetireDetails = { action: 'unit.retire'; reason: string; unit: { id: string } };

/** A subject's catalogue fields, as recorded (absent: unchanged; null: cleared). */
export type SubjectFields = {
  number_raw?: string | null;
  scheme_id?: string | null;
  number_normalised?: string | null;
  unit_id?: string | null;
  sex?: string | null;
  age_band?: string | null;
  date_of_death?: string | null;
  date_of_photography?: string | null;
  notes?: string | null;
  fields?: JsonObject;
};
export type SubjectRecord = SubjectFields & { id: string };

export type SchemeDefineDetails = { action: 'scheme.define'; scheme: { id: string; config: JsonValue } };
export type SubjectCreateDetails = { action: 'subject.create'; reason: string; subject: SubjectRecord; items: string[] };
export type SubjectUpdateDetails = {
  action: 'subject.update';
  reason: string;
  subject: SubjectRecord;
  /** The unit before the change, when the change moves the subject. */
  previous_unit_id?: string | null;
};
export type SubjectLinkDetails = { action: 'subject.link'; reason: string; subject: { id: string }; items: string[] };
export type SubjectUnlinkDetails = { action: 'subject.unlink'; reason: string; subject: { id: string }; items: string[] };
export type SubjectMergeDetails = { action: 'subject.merge'; reason: string; subject: { id: string }; merged: string[]; items: string[] };
export type SubjectSplitDetails = { action: 'subject.split'; reason: string; subject: { id: string }; new_subject: SubjectRecord; items: string[] };

/** `identity`: the identity sealed under the sources key (ciphertext), or null. */
export type SourceRegisterDetails = { action: 'source.register'; codename: string; identity: JsonValue };
export type SourceIdentityDetails = { action: 'source.identity'; codename: string; identity: JsonValue };
export type SourceGrantDetails = { action: 'source.grant'; grantee: string; role: string };
export type SourceRevokeDetails = { action: 'source.revoke'; grantee: string; role: string };
export type SourceReadDetails = { action: 'source.read'; codename: string; reason: string };

/** `name`: the account's name sealed under its name key (ciphertext). */
export type AccountAddDetails = { action: 'account.add'; account: string; role: string; org: string | null; name: JsonValue };
export type AccountPasswdDetails = { action: 'account.passwd'; account: string };
export type AccountRoleDetails = { action: 'account.role'; account: string; role: string; previous: string; reason: string };
export type AccountDisableDetails = { action: 'account.disable'; account: string; reason: string };
export type AccountSignInDetails = { action: 'account.sign-in'; account: string };
export type AccountSignInFailuresDetails = { action: 'account.sign-in-failures'; account: string; hour: string; count: number };
export type AccountKeyEnrolDetails = {
  action: 'account.key.enrol';
  account: string;
  key_id: string;
  public_key: string;
  algorithm: string;
  fingerprint: string;
  replaces: string | null;
  signature: string;
};
export type AccountKeyRevokeDetails = { action: 'account.key.revoke'; account: string; key_id: string; reason: string };

/** A codebook named by version and digest. */
export type CodebookRef = { version: string; digest: string };

export type MissingReportDetails = { action: 'missing.report'; report: string; org: string; sealed: JsonObject; digest: string; codebook: CodebookRef };
/**
 * Why a report was erased, from a closed list (README, "Identification of the missing"): the
 * category is all the entry says, in clear. No free text: a reason typed about a family would
 * outlive the erasure it records (the ledger is never rewritten).
 */
export type MissingEraseCategory = 'family-request' | 'consent-withdrawn' | 'duplicate' | 'error' | 'legal-order' | 'other';
/** An erasure: its category; entries written before categories existed carry a free-text `reason` in clear, and readers still accept them. */
export type MissingEraseDetails = { action: 'missing.erase'; report: string; digest: string } & ({ category: MissingEraseCategory } | { reason: string });
/**
 * An audited read of a report's contact. Its reason is sealed under the report's own data key
 * (`sealed`, `digest`: erasing the report erases it); entries written before carry it in clear (`reason`).
 */
export type MissingReadDetails = { action: 'missing.read'; report: string } & (SealedNote | { reason: string });
/**
 * A report↔report review. Its reason is sealed under both reports' keys (`sealed`, `digest`);
 * entries written before that carry it in clear (`reason`), and readers still accept them.
 */
export type MissingLinkReviewDetails = { action: 'missing.link-review'; reports: [string, string]; decision: 'same' | 'different' } & (
SealedNote | { reason: string });
/** The sealed note (under the report's key) of a report↔subject entry. */
type SealedNote = { sealed: JsonObject; digest: string };
export type MissingSubjectReviewDetails = SealedNote & { action: 'missing.subject-review'; report: string; subject: string; decision: 'accept' | 'reject' };
export type MissingSubjectLevelDetails = SealedNote & {
  action: 'missing.subject-level';
  report: string;
  subject: string;
  level: 'recognised' | 'confirmed';
  viewing: number | null;
  corroboration: ('number-record' | 'dna' | 'document')[];
};
export type ViewingPhotograph = { item: string; blurred_first: boolean; outcome: 'recognised' | 'not-recognised' | 'unsure' };
export type MissingViewingDetails = SealedNote & {
  action: 'missing.viewing';
  report: string;
  subject: string;
  report_digest: string;
  photographs: ViewingPhotograph[];
};
export type PmRecordDetails = { action: 'pm.record'; subject: string; reason: string; codebook: CodebookRef; pm: JsonObject };

export type IdentificationDetails =
  | MissingReportDetails
  | MissingEraseDetails
  | MissingReadDetails
  | MissingLinkReviewDetails
  | MissingSubjectReviewDetails
  | MissingSubjectLevelDetails
  | MissingViewingDetails
  | PmRecordDetails;

export type AccountDetails =
  | AccountAddDetails
  | AccountPasswdDetails
  | AccountRoleDetails
  | AccountDisableDetails
  | AccountSignInDetails
  | AccountSignInFailuresDetails
  | AccountKeyEnrolDetails
  | AccountKeyRevokeDetails;

export type UnitDetails = UnitRegisterDetails | UnitUpdateDetails | UnitRetireDetails;
export type SubjectDetails =
  | SchemeDefineDetails
  | SubjectCreateDetails
  | SubjectUpdateDetails
  | SubjectLinkDetails
  | SubjectUnlinkDetails
  | SubjectMergeDetails
  | SubjectSplitDetails;
export type SourceDetails = SourceRegisterDetails | SourceIdentityDetails | SourceGrantDetails | SourceRevokeDetails | SourceReadDetails;

export type CataloguingDetails = UnitDetails | SubjectDetails | SourceDetails | AccountDetails | IdentificationDetails;

// ---------------------------------------------------------------------------------------------
// Examination: sampling plans, assignments, sealed submissions, reveals, adjudication
// ---------------------------------------------------------------------------------------------

export type SamplePlan = {
  id: string;
  name: string;
  unit: string;
  method: string;
  stratify: string | null;
  size: number;
  population: number | null;
  codebook: { version: string; digest: string; definition: JsonValue };
};
export type SampleFrameDetails = {
  action: 'sample.frame';
  sample: SamplePlan;
  frame_digest: string;
  frame_size: number;
  merged: JsonValue;
  /** The frame's unit ids (unstratified), or its strata. */
  frame?: string[];
  strata?: { name: string; units: string[]; frame_digest: string }[];
};
export type SampleSeedDetails = {
  action: 'sample.seed';
  sample: string;
  seed: string;
  seed_source: 'random' | 'given' | 'beacon';
  beacon?: { name: string; round: number; value: string };
  checkpoint?: JsonValue;
};
export type SampleManifestDetails = {
  action: 'sample.manifest';
  sample: string;
  method: string;
  frame_digest: string;
  seed: string;
  members: string[];
  manifest_digest: string;
  strata?: { name: string; seed: string; frame_digest: string; frame_size: number; n: number; members: string[] }[];
};
/**
 * A plan's assignment. Version 1 (no `version`) names each case by its subject or item id beside
 * its code. Version 2 never names the id before the close: each case carries its code and its id
 * sealed under the plan's case-id key (examination/blind/plan-key.ts), in code order; every
 * later entry of the plan names the case by its code.
 */
export type ExaminationAssignDetails = ExaminationAssignV1Details | ExaminationAssignV2Details;
export type ExaminationAssignV1Details = {
  action: 'examination.assign';
  sample: string;
  per_case: number;
  /** Since issue 12: the plan's wrapped answer key. */
  plan_key?: JsonObject;
  cases: { case: string; code: string; examiners: string[] }[];
};
export type ExaminationAssignV2Details = {
  action: 'examination.assign';
  version: 2;
  sample: string;
  per_case: number;
  plan_key: JsonObject;
  cases: { code: string; sealed_case: string; examiners: string[] }[];
};
/**
 * Publishes the plan's case-code key; for a version-2 assignment also the case-id key that opens
 * its sealed ids, and the links it opens to (`verify` opens every sealed id and checks both).
 */
export type ExaminationCloseDetails = {
  action: 'examination.close';
  sample: string;
  case_code_key: string;
  case_id_key?: string;
  cases?: { code: string; case: string }[];
};
export type ExaminationSubmitDetails = {
  action: 'examination.submit';
  sample: string;
  case: string;
  examiner: string;
  commitment: string;
  sealed: string;
  signature?: JsonObject;
  examined_with?: JsonObject;
};
/** `answer`: the examiner's form answers (an object; the projection checks it). */
export type RevealedAnswer = { examiner: string; commitment: string; answer: JsonValue; salt: string };
export type ExaminationRevealDetails = { action: 'examination.reveal'; sample: string; case: string; answers: RevealedAnswer[]; reason: string };
export type ExaminationAdjudicateDetails = {
  action: 'examination.adjudicate';
  sample: string;
  case: string;
  decisions: JsonValue;
  /** The adjudicated answer (an object; the projection checks it). */
  final: JsonValue;
  signature?: JsonObject;
};

export type ExaminationDetails =
  | SampleFrameDetails
  | SampleSeedDetails
  | SampleManifestDetails
  | ExaminationAssignDetails
  | ExaminationCloseDetails
  | ExaminationSubmitDetails
  | ExaminationRevealDetails
  | ExaminationAdjudicateDetails;

// ---------------------------------------------------------------------------------------------
// The union, and the typed draft
// ---------------------------------------------------------------------------------------------

/** The details of each entry type. Adding an entry type to ENTRY_TYPES without one here fails tsc. */
export interface DetailsByType {
  creation: CreationDetails;
  'ingestion start': IngestionStartDetails;
  ingestion: IngestionDetails;
  'ingestion end': IngestionEndDetails;
  'fixity check': FixityCheckDetails;
  deletion: DeletionDetails;
  withdrawal: WithdrawalDetails;
  'metadata extraction': MetadataExtractionDetails;
  decision: DecisionDetails;
  cataloguing: CataloguingDetails;
  examination: ExaminationDetails;
  dissemination: DisseminationDetails;
  quarantine: QuarantineDetails;
}
// Every entry type has its details, and nothing else does.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const EVERY_TYPE_HAS_DETAILS: Exact<keyof DetailsByType, EntryType> = true;
void EVERY_TYPE_HAS_DETAILS;

export type DetailsOf<T extends EntryType> = DetailsByType[T];
export type EntryDetails = DetailsByType[EntryType];

/** The `action` values of a kind that has them ('cataloguing', 'examination'). */
export type ActionOf<T extends 'cataloguing' | 'examination'> = DetailsOf<T>['action'];
/** The details of one action. */
export type ActionDetails<T extends 'cataloguing' | 'examination', A extends ActionOf<T>> = Extract<DetailsOf<T>, { action: A }>;

/** A draft of one entry type. */
export type DraftOf<T extends EntryType> = { actor: string; type: T; items: string[]; objects: string[]; details: DetailsOf<T> };
/** What a caller hands to the ledger (the ledger assigns seq and time), typed by entry type. */
export type EntryDraft = { [T in EntryType]: DraftOf<T> }[EntryType];

/**
 * A draft of one entry, its details checked against its type.
 *
 * @example draft('decision', { subject: 'objects', decision: 'different', note: null }, { actor, objects })
 */
export function draft<T extends EntryType>(
  type: T,
  details: DetailsOf<T>,
  at: { actor: string; items?: string[]; objects?: string[] },
): DraftOf<T> {
  return { actor: at.actor, type, items: at.items ?? [], objects: at.objects ?? [], details };
}
