// The answers of the identification routes (src/http/routes/identification.routes.ts), as the
// missing-persons pages read them. Family data: never logged, never kept beyond the page.

export type KeyState = 'present' | 'missing' | 'destroyed' | 'left-after-erase';

export interface ReportSummary {
  id: string;
  org: string;
  recorded_at: string;
  recorded_seq: number;
  erased_seq: number | null;
  contact_reads: number;
  key: KeyState;
  name_ar: string | null;
  name_latin: string | null;
  unreadable: string | null;
}

export interface Mark {
  region: string;
  kind: string;
  description: string | null;
}

export interface ReportContact {
  name: string | null;
  relation: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
}

export interface ReportContent {
  reference?: string | null;
  name_ar: string | null;
  name_latin: string | null;
  father_name: string | null;
  grandfather_name: string | null;
  family_name: string | null;
  mother_name: string | null;
  sex: 'male' | 'female' | 'undetermined' | null;
  birth: string | null;
  origin: string | null;
  event: 'arrest' | 'last_seen' | null;
  event_date: string | null;
  event_place: string | null;
  unit: { as_reported: string; id: string | null } | null;
  am: Record<string, unknown>;
  contact: ReportContact | 'sealed' | null;
  consent: { orgs: string[]; photographs: 'yes' | 'no'; liaison: string | null };
}

export interface ReportView {
  id: string;
  org: string;
  recorded_at: string;
  recorded_by: string;
  content: ReportContent;
  contact_read_seq: number | null;
}

export type Outcome = 'agree' | 'close' | 'disagree' | 'missing';
export type Factor = 'unit' | 'date' | 'sex' | 'age' | 'marks';

/** Why a factor came out as it did (src/identification/candidates/rank.ts, FactorCode). */
export type FactorCode =
  | 'unit_not_reported'
  | 'unit_not_in_registry'
  | 'unit_subject_none'
  | 'unit_same'
  | 'unit_part_of'
  | 'unit_other'
  | 'date_not_reported'
  | 'date_subject_none'
  | 'date_not_before'
  | 'date_before'
  | 'sex_not_reported'
  | 'sex_subject_undetermined'
  | 'sex_same'
  | 'sex_differs'
  | 'birth_not_reported'
  | 'age_subject_none'
  | 'age_no_date'
  | 'age_band'
  | 'age_next_band'
  | 'marks_not_reported'
  | 'marks_subject_none'
  | 'marks_matched';

export interface FactorResult {
  factor: Factor;
  outcome: Outcome;
  code: FactorCode;
  params: Record<string, string | number>;
  marks?: { kind: string; region: string }[];
  /** The same in English, as `custody missing candidates` prints it. */
  detail: string;
}

export interface Candidate {
  rank: number;
  subject: string;
  number: string | null;
  /** The sum of the factors' weights, which orders the candidates. */
  score: number;
  /** Each factor with its weight: how much likelier its outcome is for the true subject (a log ratio; missing 0). */
  factors: (FactorResult & { weight: number })[];
  agreed: number;
  close: number;
  disagreed: number;
  missing: number;
}

export interface CandidatesView {
  report: string;
  candidates: Candidate[];
  subjects: number;
  notice: string;
}

/** A report id as the server takes it: 26 letters and digits (the routes' ULID_PATTERN). */
export function isReportId(s: string): boolean {
  return /^[0-9A-Za-z]{26}$/.test(s.trim());
}

export type EvidenceLevel = 'candidate' | 'recognised' | 'confirmed';
export type ViewingOutcome = 'recognised' | 'not-recognised' | 'unsure';
export type ReferenceKind = 'number-record' | 'dna' | 'document';

/** One ledger entry about a report↔subject link, its sealed note opened (GET …/subjects). */
export interface LinkEvent {
  seq: number;
  action: string;
  value: string | null;
  facts: Record<string, unknown>;
  actor: string;
  time: string;
  note: Record<string, unknown>;
}

/** A reviewed report↔subject link (subject-link-state.ts, SubjectLinkState, with its events). */
export interface SubjectLink {
  subject: string;
  status: 'accept' | 'reject';
  level: EvidenceLevel | null;
  decided_seq: number;
  level_seq: number | null;
  viewings: number[];
  recognised_in: number[];
  events: LinkEvent[];
}

export interface SubjectLinksView {
  report: string;
  links: SubjectLink[];
}
