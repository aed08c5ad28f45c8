import type { JsonValue } from '../../core/index.js';
import type { IdentificationDetails } from '../../ledger/index.js';
import type { ReportKeys } from './report-seal.js';
import type { MissingReportReadsTable, MissingReportsTable, MissingSubjectEventsTable, SubjectItemsTable, SubjectPmTable, SubjectsTable, UnitsTable } from '../../db/index.js';

/** Where each report's wrapped data key lives (report-keys.adapter.ts): outside ledger and index. */
export interface ReportKeyStore {
  /** Writes each key file durably (its folder included) before returning. */
  writeAll(files: readonly { id: string; text: string }[]): Promise<void>;
  read(id: string): Promise<string | null>;
  /** Overwrites and removes the key file; false when there was none. */
  destroy(id: string): Promise<boolean>;
}

/** What the missing-person services need; the CLI (later the server) builds it per command. */
export interface MissingReportsPorts {
  readonly actor: string;
  newId(): string;
  /**
   * The report KEK (and, in write mode, the old derived key for version 1 key files), opened with
   * the report passphrase (report-kek.service.ts). Rejects MISSING_REPORT_KEK_LOCKED without it.
   */
  reportKeys(): Promise<ReportKeys>;
  readonly keys: ReportKeyStore;
  /**
   * The organisation of the person asking, when the caller knows it from an authenticated
   * account (the team server). A report is then shown only to its reporting organisation and
   * those its consent names. Null: the holder of the archive key at the CLI, who can decrypt
   * everything anyway; consent cannot be enforced against a self-declared actor.
   */
  readonly viewerOrg: string | null;
  /** The details of ledger entry `seq` (read from the ledger, not the index), or null past its end. */
  ledgerDetails(seq: number): Promise<{ [k: string]: JsonValue } | null>;
  listReports(): Promise<MissingReportsTable[]>;
  getReport(id: string): Promise<MissingReportsTable | undefined>;
  listReads(): Promise<MissingReportReadsTable[]>;
  listUnits(): Promise<UnitsTable[]>;
  /** Appends one `cataloguing` entry per details, in one batch; returns their seqs. */
  commit(details: readonly IdentificationDetails[]): Promise<number[]>;
}

/** What recording post-mortem data needs. */
export interface PmPorts {
  getSubject(id: string): Promise<SubjectsTable | undefined>;
  getSubjectPm(id: string): Promise<SubjectPmTable | undefined>;
  commit(details: readonly IdentificationDetails[]): Promise<number[]>;
}

/** What ranking candidate subjects needs, beyond opening the report. */
export interface CandidatePorts extends MissingReportsPorts {
  listSubjects(): Promise<SubjectsTable[]>;
  listSubjectPm(): Promise<SubjectPmTable[]>;
}

/** What reviewing report↔subject links and recording viewings need. */
export interface SubjectLinkPorts extends MissingReportsPorts {
  /**
   * The names the acting person is known by, compared with the liaison a consent names: on the
   * server the account's id and name (authenticated); at the CLI the self-declared actor, which
   * cannot enforce consent (README, "Identification of the missing").
   */
  readonly actorNames: readonly string[];
  getSubject(id: string): Promise<SubjectsTable | undefined>;
  /** The items (photographs) linked to a subject. */
  subjectItems(subjectId: string): Promise<SubjectItemsTable[]>;
  /** A report's report↔subject events, in ledger order. */
  listSubjectEvents(reportId: string): Promise<MissingSubjectEventsTable[]>;
}
