import { CustodyError } from '../../core/index.js';

export type ExaminationErrorCode =
  /** A codebook config is wrong: missing or unknown key, duplicate code, empty definition. */
  | 'CODEBOOK_INVALID'
  /** An examiner's form does not fit the codebook (details.errors lists every problem). */
  | 'FORM_INVALID'
  /** The random source handed to commit() did not return the bytes asked for. */
  | 'COMMITMENT_RANDOM_INVALID'
  /** A disagreement was left without a decision (details.fields names them). */
  | 'ADJUDICATION_INCOMPLETE'
  /** A decision names a field on which the examiners agreed (or that does not exist). */
  | 'ADJUDICATION_UNNEEDED'
  /** A decision has no reason, or only whitespace. */
  | 'ADJUDICATION_REASON_MISSING'
  /**
   * The adjudication cannot be applied: no answers, an examiner named twice, a field decided
   * twice, a value outside the codebook, or decisions that together make an invalid answer.
   */
  | 'ADJUDICATION_INVALID';

/** Raised by examination/ (codebook, forms, commitments, adjudication). */
export class ExaminationError extends CustodyError<ExaminationErrorCode> {}

/** One problem found in untrusted input, at a dotted path such as 'findings.burns.value'. */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

/**
 * Collects every problem before throwing, so a person fixing a form sees all of them at once.
 * `details.path` is the first problem's path, `details.errors` the full list.
 */
export class IssueList {
  readonly issues: Issue[] = [];

  add(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  throwIfAny(code: 'CODEBOOK_INVALID' | 'FORM_INVALID', what: string): void {
    const first = this.issues[0];
    if (first === undefined) return;
    const n = this.issues.length;
    const lines = this.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n');
    throw new ExaminationError(code, `${what}: ${n} error${n === 1 ? '' : 's'}\n${lines}`, {
      details: { path: first.path, errors: [...this.issues] },
    });
  }
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Joins a dotted path the way canonical-json does: `a.b`, or `a["odd key"]` for odd keys. */
export function joinPath(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Reports every own key of `obj` not in `allowed`. */
export function rejectUnknownKeys(
  obj: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
  issues: IssueList,
): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key))
      issues.add(joinPath(path, key), `unknown key (expected ${allowed.join(', ')})`);
  }
}
