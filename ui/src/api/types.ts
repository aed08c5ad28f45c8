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
