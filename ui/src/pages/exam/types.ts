// The server's examination responses these pages read (src/http/routes/{person-keys,
// examination,adjudication}.routes.ts; also at /api/openapi.json).
import type { Json, KeyEnvelope } from '../../crypto/person-key';

export interface MyKey {
  account: string;
  key_id: string;
  fingerprint: string;
  public_key: string;
  enrol_seq: number;
  encrypted_key: KeyEnvelope;
}

export interface QueueView {
  plans: {
    plan: { id: string; name: string; codebook: { version: string; digest: string } };
    finished: boolean;
    cases: {
      case: string;
      mine: 'to_submit' | 'submitted';
      submitted: number;
      assigned: number;
      status: string;
    }[];
  }[];
}

export interface Term {
  code: string;
  label: string;
  definition: string;
}
export interface Codebook {
  version: string;
  title: string;
  instructions: string;
  values: Term[];
  sexes: Term[];
  ageBands: Term[];
  regions: Term[];
  findings: (Term & { regional: boolean })[];
  /** The codebook's own translations (src/examination/codebook/types.ts), covered by its digest. */
  translations?: Record<string, CodebookTranslation>;
}

export type TermList = 'values' | 'sexes' | 'ageBands' | 'regions' | 'findings';
export interface CodebookTranslation {
  status: 'needs-review-by-native-forensic-practitioner' | 'reviewed-by-native-forensic-practitioner';
  title: string;
  instructions: string;
  values: Record<string, { label: string; definition: string }>;
  sexes: Record<string, { label: string; definition: string }>;
  ageBands: Record<string, { label: string; definition: string }>;
  regions: Record<string, { label: string; definition: string }>;
  findings: Record<string, { label: string; definition: string }>;
}

export interface CaseForm {
  plan: { id: string; name: string };
  case: string;
  codebook: { version: string; digest: string; definition: Codebook };
  photos: { n: number; media_type: string; preview: string; original: string }[];
}

/** The form as the page keeps it (and as the server takes it). */
export interface FormState {
  sex: string | null;
  age_band: string | null;
  findings: Record<string, { value: string | null; regions?: string[] }>;
  notes: string;
}

export interface Prepared {
  token: string;
  expires_at: string;
  act: 'submit' | 'adjudicate';
  fields: { [k: string]: Json };
  message: string;
  opening?: { answer: Json; salt: string };
}

export interface AdjudicationQueue {
  cases: { plan: string; plan_name: string; case: string; disagreements: number; status: string }[];
}

export interface AnswersView {
  plan: string;
  case: string;
  status: string;
  examiners: string[];
  answers: { examiner: string; answer: Record<string, unknown> }[] | null;
  disagreements: { field: string; values: { examiner: string; value: string }[] }[] | null;
  final: Record<string, unknown> | null;
  adjudicated: boolean;
  /** How many photographs the case has (absent from servers before it was sent). */
  photos?: number;
  /** The plan's codebook, for the labels of fields and values (absent from servers before it was sent). */
  codebook?: Codebook;
}
