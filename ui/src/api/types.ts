// The shapes of the server's responses the UI reads (src/http/routes/*.routes.ts, also described
// at /api/openapi.json). Next slices add theirs here.

/** Every refusal of the server: a stable code, a message for people, details for programs. */
export interface ErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** GET/POST /api/session. */
export interface SessionView {
  account: string;
  name: string;
  role: string;
  org: string | null;
  csrf_token: string;
  idle_timeout_s: number;
  /** What the role may do (absent from servers before it was sent); the server checks regardless. */
  permissions?: string[];
}

/** GET /api/status. */
export interface StatusView {
  archive: string;
  origin: string;
  database: string;
  ledger_size: number;
  signed_checkpoint: number | null;
  /** The signed note at signed_checkpoint (absent from servers before the UI). */
  checkpoint_note?: string | null;
  verifier_key: string;
  items: number;
  objects: number;
  deliveries: number;
}

/** One row of GET /api/items. */
export interface ItemRow {
  id: string;
  seq: number;
  delivery: string;
  name: string;
  path: string;
  sha256: string;
  size: number;
  media_type: string;
  received_at: string;
  withdrawn: boolean;
  analysed: boolean;
  make: string | null;
  model: string | null;
  date_time_original: string | null;
  subject: string | null;
  unit: string | null;
}

/** GET /api/items. */
export interface ItemPage {
  items: ItemRow[];
  total: number;
  limit: number;
  offset: number;
  next_cursor: string | null;
}

/** GET /api/units. */
export interface UnitsView {
  units: {
    id: string;
    code: number | string | null;
    name_en: string;
    name_ar: string | null;
    aliases: string[];
    parent_code: number | string | null;
    retired_seq: number | null;
  }[];
}

/** One verification run (POST/GET /api/verifications). */
export interface VerificationRun {
  id: string;
  state: 'running' | 'done' | 'failed';
  started_by: string;
  started: string;
  finished: string | null;
  stage: string | null;
  done: number;
  total: number | null;
  ok: boolean | null;
  tree_size: number | null;
  root: string | null;
  objects_hashed: number | null;
  findings: { code: string; severity: string; subject: string | null; message: string }[];
  findings_total: number;
  recorded_seq: number | null;
  error: string | null;
}

/** A verification recorded in the ledger (a fixity check entry). */
export interface RecordedVerification {
  seq: number;
  time: string;
  actor: string;
  result: string;
  tree_size: number | null;
  root: string | null;
  objects_hashed: number | null;
  findings: number;
}

/** GET /api/verifications. */
export interface VerificationsView {
  current: VerificationRun | null;
  recorded: RecordedVerification[];
}

/** GET /api/jobs. */
export interface JobsView {
  analyze_image: { pending: number; running: number; done: number; skipped: number; failed: number };
}

/** One subject as GET /api/subjects and /api/subjects/:id give it. */
export interface SubjectRow {
  id: string;
  number_raw: string | null;
  scheme_id: string | null;
  number_normalised: string | null;
  /** The parts of the catalogue number, as the numbering scheme names them. */
  fields: Record<string, unknown> | null;
  unit_id: string | null;
  sex: string | null;
  age_band: string | null;
  date_of_death: string | null;
  date_of_photography: string | null;
  notes: string | null;
  status: string;
  merged_into: string | null;
}

/** GET /api/subjects. */
export interface SubjectPage {
  subjects: SubjectRow[];
  total: number;
  limit: number;
  offset: number;
}

/** GET /api/subjects/:id: the subject, its photographs and its ledger entries. */
export interface SubjectDetail extends SubjectRow {
  items: string[];
  history: { seq: number; time: string; actor: string; action: string; reason: string }[];
}

export interface UnitName {
  id: string;
  code: number | string | null;
  name_en: string;
  name_ar: string | null;
}

/** One of GET /api/link-suggestions. */
export interface LinkSuggestion {
  id: string;
  kind: 'link' | 'review-merge';
  subjects: string[];
  items: string[];
  basis:
    | { type: 'cluster'; cluster: string; max_distance: number }
    | { type: 'decision'; seq: number; decision: string };
  item_labels: ({ item: string; file: string; path: string; delivery: string } | null)[];
  subject_labels: { subject: string; number: string | null; unit: UnitName | null }[];
}

/** POST /api/links. */
export interface LinksWritten {
  links: { subject: string; items: string[]; seq: number }[];
}

export interface Interval95 {
  method: string;
  lower: number;
  upper: number;
}

export interface BreakdownRowView {
  key: string;
  label: string | null;
  present: number;
  assessed: number;
  cannot_assess: number;
  proportion: number | null;
  unit?: UnitName | null;
  interval?: Interval95 | null;
}

export interface AgreementView {
  coefficients: {
    name: string;
    value: number | null;
    interval: { method: string; lower: number | null; upper: number | null; resamples: number };
    units: number;
  }[];
}

export interface FindingView {
  code: string;
  label: string;
  present: number;
  absent: number;
  cannot_assess: number;
  assessed: number;
  proportion: number | null;
  wilson: Interval95 | null;
  stratified: {
    estimate: number;
    standard_error: number;
    estimated_count: number;
    interval: Interval95;
    covered_population: number;
    frame_population: number;
    excluded_strata: string[];
  } | null;
  breakdowns: { unit: BreakdownRowView[] };
  agreement: AgreementView | null;
}

/** GET /api/statistics/:plan (as `custody stats --json`). */
export interface StatisticsView {
  checkpoint: { tree_size: number; root: string; signed: boolean };
  sample: {
    id: string;
    name: string;
    unit: 'subjects' | 'items';
    method: 'simple' | 'systematic' | 'stratified';
    stratify: 'unit' | 'month' | null;
    size: number;
    frame_size: number;
  };
  codebook: { version: string; digest: string };
  cases: { sampled: number; final: number; awaiting_submissions: number; awaiting_adjudication: number };
  findings: FindingView[];
}
