/**
 * Every error code Custody raises on purpose, in one union, and the class of each.
 *
 * Each module keeps its own string-literal union next to its error class (the source of truth,
 * STYLE.md "Errors carry codes"); this file only assembles them. The class says what kind of
 * refusal a code is, so that the outer layers need no list of codes of their own: `cli/` maps a
 * class to an exit code (src/cli/exit-codes.ts), `http/` to a status (src/http/error-status.ts).
 * Services never speak either.
 *
 * `ERROR_CLASS` is a `Record<ErrorCode, ErrorClass>`: a code added to a module's union without a
 * class here fails `tsc`. src/error-codes.test.ts also checks that every code thrown in src/ is in
 * the union. This file imports types only: it adds no runtime dependency between modules.
 *
 * The class of a code that existed before this table was chosen to keep its exit code (the CLI
 * contract): `usage` exactly for the codes that exited 2, and no code is `internal` (exit 70 is
 * for crashes, errors that are not a CustodyError). Some codes that only a caller's fault can
 * raise (MERKLE_BAD_ARGUMENT, ZIP_BAD_ARGUMENT, NEAR_DUP_BAD_PLAN, ...) are therefore `finding`.
 */
import { CustodyError, type CoreErrorCode, type ActorErrorCode } from './core/index.js';
import type { ConfigErrorCode } from './config/index.js';
import type { StatsErrorCode } from './stats/index.js';
import type { ExamErrorCode, SealErrorCode } from './examination/blind/index.js';
import type { ExaminationErrorCode } from './examination/codebook/index.js';
import type { PlanErrorCode } from './examination/sampling/plan.service.js';
import type { SamplingErrorCode } from './examination/sampling/index.js';
import type { LedgerErrorCode } from './ledger/index.js';
import type { CheckpointFileErrorCode } from './ledger/checkpoint-files.adapter.js';
import type { UsageErrorCode, AgreementErrorCode } from './cli/index.js';
import type { ZipErrorCode } from './ingest/zip-reader.adapter.js';
import type { SourceErrorCode as IntakeSourceErrorCode } from './ingest/source-reader.adapter.js';
import type { IngestErrorCode } from './ingest/ingest.service.js';
import type { ManifestErrorCode } from './ingest/index.js';
import type { StoreErrorCode } from './store/index.js';
import type { DemoErrorCode } from './demo/index.js';
import type { DbErrorCode } from './db/index.js';
import type { ReportErrorCode } from './reports/report/index.js';
import type { ExportErrorCode } from './reports/export/index.js';
import type { ChartErrorCode } from './reports/charts/index.js';
import type { UnitErrorCode } from './catalogue/units/index.js';
import type { SourceErrorCode as CatalogueSourceErrorCode } from './catalogue/sources/sources.service.js';
import type { SourceCryptoErrorCode } from './catalogue/sources/index.js';
import type { CatalogueErrorCode } from './catalogue/numbering/index.js';
import type { SubjectErrorCode } from './catalogue/subjects/subjects.service.js';
import type { MetadataErrorCode } from './analysis/metadata/index.js';
import type { C2paErrorCode } from './analysis/c2pa/index.js';
import type { IndicatorErrorCode } from './analysis/indicators/index.js';
import type { ImageErrorCode } from './analysis/image/image-decode.adapter.js';
import type { PdqErrorCode } from './analysis/pdq/index.js';
import type { NearDuplicateErrorCode } from './analysis/near-duplicates/index.js';
import type { ArchiveErrorCode } from './archive/index.js';
import type { AccountErrorCode } from './accounts/index.js';
import type { HttpErrorCode } from './http/index.js';
import type { IdentificationErrorCode } from './identification/index.js';
import type { LinkageErrorCode } from './identification/linkage/index.js';

/** Every code a CustodyError may carry. */
export type ErrorCode =
  | ConfigErrorCode
  | CoreErrorCode
  | ActorErrorCode
  | StatsErrorCode
  | ExamErrorCode
  | SealErrorCode
  | ExaminationErrorCode
  | PlanErrorCode
  | SamplingErrorCode
  | LedgerErrorCode
  | CheckpointFileErrorCode
  | UsageErrorCode
  | AgreementErrorCode
  | ZipErrorCode
  | IntakeSourceErrorCode
  | IngestErrorCode
  | ManifestErrorCode
  | StoreErrorCode
  | DemoErrorCode
  | DbErrorCode
  | ReportErrorCode
  | ExportErrorCode
  | ChartErrorCode
  | UnitErrorCode
  | CatalogueSourceErrorCode
  | SourceCryptoErrorCode
  | CatalogueErrorCode
  | SubjectErrorCode
  | MetadataErrorCode
  | C2paErrorCode
  | IndicatorErrorCode
  | ImageErrorCode
  | PdqErrorCode
  | NearDuplicateErrorCode
  | ArchiveErrorCode
  | AccountErrorCode
  | HttpErrorCode
  | IdentificationErrorCode
  | LinkageErrorCode;

/**
 * What kind of refusal an error is.
 * - `usage`: the request was asked wrongly (a missing option, a path that is no archive).
 * - `not_found`: what it names does not exist.
 * - `forbidden`: it exists, and this actor may not do this to it (blindness, a wrong key).
 * - `conflict`: the archive's state does not allow it now (already done, a step missing first).
 * - `finding`: the data is wrong: tampering, damage, or input that does not validate.
 * - `unavailable`: a resource failed (database, disk space, a helper program); nothing is wrong with the request.
 * - `internal`: a crash (not a CustodyError). No code has this class today.
 */
export type ErrorClass = 'usage' | 'not_found' | 'forbidden' | 'conflict' | 'finding' | 'unavailable' | 'internal';

export const ERROR_CLASSES: readonly ErrorClass[] = ['usage', 'not_found', 'forbidden', 'conflict', 'finding', 'unavailable', 'internal'];

/** The class of every code. Complete by type: a code without a class fails `tsc`. */
export const ERROR_CLASS: Readonly<Record<ErrorCode, ErrorClass>> = {
  // config, core
  CONFIG_INVALID: 'usage',
  CANONICAL_UNSUPPORTED: 'finding',
  CANONICAL_INVALID: 'finding',
  CANONICAL_NOT_CANONICAL: 'finding',
  MERKLE_BAD_ARGUMENT: 'finding',
  NOTE_MALFORMED: 'finding',
  NOTE_NO_VALID_SIGNATURE: 'finding',
  CHECKPOINT_MALFORMED: 'finding',
  KEY_MALFORMED: 'finding',
  HEX_INVALID: 'finding',
  CSV_INVALID: 'finding',
  ACTOR_INVALID: 'finding',
  // stats
  STATS_INVALID_INPUT: 'finding',
  STATS_NO_CONVERGENCE: 'finding',
  STATS_OUT_OF_RANGE: 'usage',
  // examination
  EXAMINATION_CASE_NOT_FOUND: 'not_found',
  EXAMINATION_ASSIGN_INVALID: 'finding',
  EXAMINATION_NOT_ASSIGNED: 'forbidden',
  EXAMINATION_ALREADY_SUBMITTED: 'conflict',
  EXAMINATION_BATCH_INVALID: 'finding',
  EXAMINATION_SEALED: 'forbidden',
  BLIND_REFUSED: 'forbidden',
  PERSON_KEY_INVALID: 'finding',
  PERSON_KEY_ROLE_REFUSED: 'forbidden',
  PERSON_KEY_NOT_FOUND: 'not_found',
  EXAMINATION_SIGNATURE_REQUIRED: 'forbidden',
  EXAMINATION_SIGNATURE_INVALID: 'forbidden',
  ASSIGNMENT_ROLE_REFUSED: 'forbidden',
  EXAMINATION_REVEAL_WITHHELD: 'forbidden',
  EXAMINATION_CLOSE_REFUSED: 'conflict',
  EXAMINATION_CASE_UNFINISHED: 'conflict',
  EXAMINATION_NOTHING_TO_ADJUDICATE: 'conflict',
  EXAMINATION_ALREADY_ADJUDICATED: 'conflict',
  EXAMINATION_ADJUDICATOR_IS_EXAMINER: 'forbidden',
  EXAMINATION_REVEAL_MISMATCH: 'finding',
  EXAMINATION_CODEBOOK_MISMATCH: 'finding',
  SEAL_KEY_MISSING: 'conflict',
  SEAL_BROKEN: 'finding',
  CODEBOOK_INVALID: 'finding',
  FORM_INVALID: 'finding',
  COMMITMENT_RANDOM_INVALID: 'finding',
  ADJUDICATION_INCOMPLETE: 'finding',
  ADJUDICATION_UNNEEDED: 'finding',
  ADJUDICATION_REASON_MISSING: 'finding',
  ADJUDICATION_INVALID: 'finding',
  // sampling
  SAMPLE_EXISTS: 'conflict',
  SAMPLE_NOT_FOUND: 'not_found',
  SAMPLE_PLAN_INVALID: 'finding',
  SAMPLE_STEP_DONE: 'conflict',
  SAMPLE_NOT_SEEDED: 'conflict',
  SAMPLE_FRAME_UNPUBLISHED: 'conflict',
  SAMPLE_FRAME_INVALID: 'finding',
  SAMPLE_SEED_INVALID: 'finding',
  SAMPLE_SIZE_INVALID: 'finding',
  SAMPLE_SIZE_EXCEEDS_FRAME: 'finding',
  SAMPLE_STRATA_INVALID: 'finding',
  SAMPLE_ALLOCATION_INVALID: 'finding',
  // ledger
  LEDGER_ENTRY_MALFORMED: 'finding',
  LEDGER_SEQ_MISMATCH: 'finding',
  LEDGER_LOCKED: 'conflict',
  LEDGER_TORN_TAIL: 'finding',
  LEDGER_WRITE_FAILED: 'unavailable',
  LEDGER_NO_CHECKPOINT: 'conflict',
  LEDGER_PROOF_INVALID: 'finding',
  LEDGER_BAD_RANGE: 'not_found',
  LEDGER_DB_AHEAD: 'finding',
  LEDGER_CHANGED_UNDER_WRITER: 'conflict',
  LEDGER_CHANGED_UNDER_READER: 'conflict',
  LEDGER_LEAVES_MISMATCH: 'finding',
  LEDGER_TAIL_UNAUTHENTICATED: 'finding',
  LEDGER_CHECKPOINT_INVALID: 'finding',
  LEDGER_CHECKPOINT_MISMATCH: 'finding',
  LEDGER_TRUNCATED: 'finding',
  LEDGER_ROLLED_BACK: 'finding',
  LEDGER_NO_UNAUTHENTICATED_TAIL: 'conflict',
  LEDGER_NOT_REGULAR: 'finding',
  CHECKPOINT_NOT_REGULAR: 'finding',
  CHECKPOINT_UNREADABLE: 'finding',
  // cli
  USAGE: 'usage',
  AGREEMENT_CSV_INVALID: 'finding',
  // ingest
  ZIP_UNREADABLE: 'finding',
  ZIP_CORRUPT: 'finding',
  ZIP_TRUNCATED: 'finding',
  ZIP_UNSUPPORTED: 'finding',
  ZIP_TOO_MANY_ENTRIES: 'finding',
  ZIP_MEMBER_CORRUPT: 'finding',
  ZIP_MEMBER_SKIPPED: 'finding',
  ZIP_MEMBER_ABORTED: 'finding',
  ZIP_CLOSED: 'finding',
  ZIP_BAD_ARGUMENT: 'finding',
  SOURCE_VANISHED: 'finding',
  SOURCE_UNREADABLE: 'finding',
  SOURCE_NOT_REGULAR: 'finding',
  SOURCE_REPLACED: 'finding',
  INGEST_ARCHIVE_FILE: 'finding',
  INGEST_PSEUDO_FILESYSTEM: 'finding',
  INGEST_FILE_REPLACED: 'finding',
  INGEST_NO_SUCH_DELIVERY: 'not_found',
  INGEST_BAD_REQUEST: 'usage',
  INGEST_ARCHIVE_PATH: 'finding',
  INGEST_DELIVERY_CONTAINS_ARCHIVE: 'finding',
  MANIFEST_INVALID: 'finding',
  // store
  STORE_DIGEST_MISMATCH: 'finding',
  STORE_OBJECT_MISSING: 'finding',
  STORE_EXTRA_OBJECT: 'finding',
  STORE_UNREADABLE: 'finding',
  STORE_OBJECT_NOT_REGULAR: 'finding',
  STORE_OUT_OF_SPACE: 'unavailable',
  STORE_WRITE_FAILED: 'unavailable',
  STORE_BAD_NAME: 'finding',
  // demo
  DEMO_BAD_OPTION: 'finding',
  DEMO_BAD_PLAN: 'finding',
  // db
  DB_UNAVAILABLE: 'unavailable',
  DB_OUT_OF_SPACE: 'unavailable',
  DB_MIGRATION_FAILED: 'unavailable',
  DB_CONFIG_MISSING: 'usage',
  INDEX_MISSING: 'unavailable',
  INDEX_CORRUPT: 'unavailable',
  // reports
  REPORT_NO_CHECKPOINT: 'not_found',
  REPORT_UNKNOWN_EXHIBIT: 'not_found',
  REPORT_EXHIBIT_DAMAGED: 'finding',
  REPORT_PDF_FAILED: 'unavailable',
  REPORT_WRITE_FAILED: 'unavailable',
  REPORT_BAG_INVALID: 'finding',
  REPORT_BAG_MISMATCH: 'finding',
  EXPORT_SELECT_INVALID: 'usage',
  EXPORT_OPTIONS_INVALID: 'usage',
  EXPORT_OUT_EXISTS: 'usage',
  EXPORT_OUT_INSIDE_ARCHIVE: 'usage',
  EXPORT_NOT_SIGNED: 'usage',
  EXPORT_NOT_FOUND: 'not_found',
  EXPORT_CHECKPOINT_INVALID: 'finding',
  EXPORT_NOT_ANALYSED: 'conflict',
  EXPORT_OBJECT_UNREADABLE: 'finding',
  EXPORT_PUBLISH_FAILED: 'unavailable',
  CHART_INVALID_INPUT: 'finding',
  CHART_RENDER_FAILED: 'finding',
  CHART_EXTERNAL_RESOURCE: 'finding',
  // catalogue
  UNIT_IMPORT_REJECTED: 'finding',
  UNIT_INVALID: 'finding',
  UNIT_NOT_FOUND: 'not_found',
  UNIT_AMBIGUOUS: 'conflict',
  UNIT_DUPLICATE_NAME: 'conflict',
  UNIT_RETIRED: 'conflict',
  UNIT_REASON_REQUIRED: 'finding',
  SOURCE_EXISTS: 'conflict',
  SOURCE_NOT_FOUND: 'not_found',
  SOURCE_FORBIDDEN: 'forbidden',
  SOURCE_INVALID: 'finding',
  SOURCE_NOT_INITIALISED: 'conflict',
  SOURCE_NOT_REGISTERED: 'not_found',
  SOURCE_KEY_WRONG: 'forbidden',
  SOURCE_KEY_REQUIRED: 'usage',
  ACCOUNT_EXISTS: 'conflict',
  ACCOUNT_NOT_FOUND: 'not_found',
  ACCOUNT_INVALID: 'usage',
  ACCOUNT_ROLE_UNKNOWN: 'usage',
  ACCOUNT_DISABLED: 'conflict',
  ACCOUNT_PASSWORD_WEAK: 'usage',
  ACCOUNT_KEY_REQUIRED: 'usage',
  MISSING_REPORT_INVALID: 'finding',
  MISSING_REPORT_IMPORT_REJECTED: 'finding',
  MISSING_REPORT_NOT_FOUND: 'not_found',
  MISSING_REPORT_ERASED: 'not_found',
  MISSING_REPORT_KEY_REQUIRED: 'usage',
  MISSING_REPORT_KEK_LOCKED: 'usage',
  MISSING_REPORT_KEK_MISSING: 'unavailable',
  MISSING_REPORT_KEY_MISSING: 'unavailable',
  MISSING_REPORT_KEY_INVALID: 'finding',
  MISSING_REPORT_FORBIDDEN: 'forbidden',
  MISSING_LINK_UNKNOWN_REPORT: 'not_found',
  MISSING_LINK_INVALID: 'usage',
  MISSING_SUBJECT_NOT_FOUND: 'not_found',
  MISSING_SUBJECT_LINK_INVALID: 'finding',
  MISSING_SUBJECT_LINK_NOT_ACCEPTED: 'conflict',
  MISSING_LEVEL_NEEDS_RECOGNITION: 'conflict',
  MISSING_LEVEL_NEEDS_CORROBORATION: 'finding',
  MISSING_VIEWING_NO_CONSENT: 'forbidden',
  MISSING_VIEWING_WRONG_LIAISON: 'forbidden',
  MISSING_VIEWING_INVALID: 'finding',
  PM_INVALID: 'finding',
  PM_SUBJECT_NOT_FOUND: 'not_found',
  ACCOUNT_FORBIDDEN: 'forbidden',
  // identification/linkage
  LINKAGE_INVALID_INPUT: 'finding',
  NUMBER_SCHEME_INVALID: 'finding',
  NUMBER_MALFORMED: 'finding',
  NUMBER_MIXED_DIGITS: 'finding',
  NUMBER_MIXED_SEPARATORS: 'finding',
  NUMBER_OUT_OF_RANGE: 'finding',
  NUMBER_UNKNOWN_REGISTRY_VALUE: 'finding',
  NUMBER_REGISTRY_MISSING: 'finding',
  NUMBER_NO_SCHEME_MATCHES: 'finding',
  NUMBER_AMBIGUOUS: 'finding',
  SUBJECT_NOT_FOUND: 'not_found',
  SUBJECT_INVALID: 'finding',
  SUBJECT_NUMBER_TAKEN: 'conflict',
  SUBJECT_ITEM_TAKEN: 'conflict',
  SUBJECT_REASON_REQUIRED: 'finding',
  SUBJECT_IMPORT_REJECTED: 'finding',
  SUBJECT_UNIT_CONFLICT: 'conflict',
  SUBJECT_SUGGESTION_UNKNOWN: 'not_found',
  SCHEME_EXISTS: 'conflict',
  SCHEME_NOT_FOUND: 'not_found',
  // analysis
  METADATA_EXIFTOOL_FAILED: 'finding',
  METADATA_EXIFTOOL_TIMEOUT: 'unavailable',
  C2PA_READER_UNAVAILABLE: 'unavailable',
  INDICATORS_BAD_NOW: 'finding',
  INDICATORS_BAD_THRESHOLD: 'finding',
  IMAGE_PIXEL_LIMIT: 'finding',
  IMAGE_UNDECODABLE: 'finding',
  PDQ_BAD_DIMENSIONS: 'finding',
  PDQ_BAD_LUMA: 'finding',
  PDQ_BAD_HASH: 'finding',
  PDQ_UNDECODABLE: 'finding',
  NEAR_DUP_BAD_HASH: 'finding',
  NEAR_DUP_BAD_THRESHOLD: 'finding',
  NEAR_DUP_BAD_ID: 'finding',
  NEAR_DUP_DUPLICATE_ID: 'finding',
  NEAR_DUP_BAD_PLAN: 'finding',
  // archive
  ARCHIVE_EXISTS: 'usage',
  ARCHIVE_NOT_FOUND: 'usage',
  ARCHIVE_INVALID: 'finding',
  ARCHIVE_TREE_SIZE_INVALID: 'usage',
  ARCHIVE_NOT_SIGNED: 'finding',
  ARCHIVE_SERVED: 'conflict',
  KEY_PASSPHRASE_REQUIRED: 'usage',
  KEY_PASSPHRASE_WRONG: 'forbidden',
  KEY_UNREADABLE: 'finding',
  KEY_FILE_INVALID: 'finding',
  KEY_FILE_TAMPERED: 'finding',
  KEY_NOT_ENCRYPTED: 'finding',
  KEY_MISMATCH: 'finding',
  KEY_VERIFIER_FILE_MISMATCH: 'finding',
  KEY_RECORD_MISSING: 'finding',
  NOT_FOUND: 'not_found',
  AMBIGUOUS: 'conflict',
  ALREADY_WITHDRAWN: 'conflict',
  ITEM_WITHDRAWN: 'not_found',
  WITHDRAW_CONTAINER_UNPROVEN: 'finding',
  PURGE_WITHDRAWAL_UNPROVEN: 'finding',
  PURGE_INDEX_MISMATCH: 'finding',
  PURGE_CHECKPOINT_INVALID: 'finding',
  PURGE_CONTAINER_NOT_WITHDRAWN: 'finding',
  // http (the server's own refusals; src/http/error-status.ts gives some their own status)
  HTTP_BAD_REQUEST: 'usage',
  HTTP_NOT_FOUND: 'not_found',
  HTTP_UNAUTHENTICATED: 'forbidden',
  HTTP_FORBIDDEN: 'forbidden',
  HTTP_PAYLOAD_TOO_LARGE: 'usage',
  HTTP_UNSUPPORTED_MEDIA_TYPE: 'usage',
  HTTP_CSRF: 'forbidden',
  HTTP_RATE_LIMITED: 'unavailable',
  HTTP_SIGN_IN_FAILED: 'forbidden',
  HTTP_INTERNAL: 'internal',
  HTTP_RANGE_NOT_SATISFIABLE: 'usage',
  HTTP_VERIFICATION_RUNNING: 'conflict',
  HTTP_PREPARED_UNKNOWN: 'not_found',
  HTTP_JOB_RUNNING: 'conflict',
  HTTP_JOB_NOT_READY: 'conflict',
};

/** True when `code` is one of Custody's codes. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CLASS, code);
}

/**
 * The class of a thrown value: its code's class for a CustodyError (`finding` for a code outside
 * the table, which only a bug can make, as the CLI has always treated it), `internal` for anything else.
 *
 * @example
 *   errorClassOf(new LedgerError('LEDGER_LOCKED', '…')) // 'conflict'
 *   errorClassOf(new TypeError('x is undefined'))       // 'internal'
 */
export function errorClassOf(e: unknown): ErrorClass {
  if (!(e instanceof CustodyError)) return 'internal';
  const code = (e as CustodyError).code;
  return isErrorCode(code) ? ERROR_CLASS[code] : 'finding';
}
