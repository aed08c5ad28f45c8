import { canonicalBytes, sha256, toHex } from '../../core/index.js';
import { DEFAULT_AGE_BANDS, DEFAULT_SEXES, DEFAULT_VALUES } from './default-scales.js';
import { DEFAULT_CODEBOOKS, deepFreeze } from './default.js';
import { IssueList, isRecord, joinPath, rejectUnknownKeys } from './errors.js';
import {
  AGE_BANDS,
  FINDING_VALUES,
  SEXES,
  type Codebook,
  type CodebookTerm,
  type FindingDefinition,
} from './types.js';
import { readTranslations } from './translations.js';

/** Finding and region codes: form keys and dotted paths, so lowercase identifiers only. */
const CODE_RE = /^[a-z][a-z0-9_]{0,63}$/;
interface CodeRule {
  test(code: string): boolean;
  hint: string;
}
const FREE_CODE: CodeRule = {
  test: (code) => CODE_RE.test(code),
  hint: 'expected a code: a-z, 0-9 and _, starting with a letter, at most 64 characters',
};
const VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Control characters (a definition is one paragraph on one line) and lone surrogates. */
const UNPRINTABLE_RE = /[\p{Cc}\p{Cs}]/u;
const TOP_KEYS = [
  'version',
  'title',
  'instructions',
  'values',
  'sexes',
  'ageBands',
  'regions',
  'findings',
  'translations',
];

/**
 * Validates a custom codebook (untrusted input: it arrives as JSON from a project's settings)
 * and returns it as a frozen plain object. `values`, `sexes` and `ageBands` may be left out
 * (the default definitions are used); when given, they must list exactly the fixed codes in
 * their fixed order, since the statistics depend on them. Every problem is reported at once:
 * ExaminationError 'CODEBOOK_INVALID' with `details.path` (the first) and `details.errors`.
 *
 * @example
 *   defineCodebook({ version: 'x-v1', title: 'X', instructions: '…', regions: [],
 *     findings: [{ code: 'burns', label: 'Burns', definition: '…', regional: false }] })
 */
export function defineCodebook(config: unknown): Codebook {
  const issues = new IssueList();
  if (!isRecord(config)) {
    issues.add('(root)', 'expected a codebook object');
    issues.throwIfAny('CODEBOOK_INVALID', 'invalid codebook');
  }
  const c = config as Record<string, unknown>;
  rejectUnknownKeys(c, TOP_KEYS, '', issues);
  const version = readVersion(c.version, issues);
  const read: Codebook = {
    version,
    title: readText(c.title, 'title', issues),
    instructions: readText(c.instructions, 'instructions', issues),
    values: readFixedScale(c.values, 'values', FINDING_VALUES, DEFAULT_VALUES, issues),
    sexes: readFixedScale(c.sexes, 'sexes', SEXES, DEFAULT_SEXES, issues),
    ageBands: readFixedScale(c.ageBands, 'ageBands', AGE_BANDS, DEFAULT_AGE_BANDS, issues),
    regions: readTerms(c.regions, 'regions', false, issues),
    findings: readTerms(c.findings, 'findings', true, issues) as FindingDefinition[],
  };
  const translations = readTranslations(c.translations, read, issues);
  // Left out when absent, so a codebook without translations keeps its digest.
  const codebook: Codebook = translations === undefined ? read : { ...read, translations };
  if (codebook.findings.length === 0 && Array.isArray(c.findings)) {
    issues.add('findings', 'a codebook needs at least one finding');
  }
  if (codebook.regions.length === 0 && codebook.findings.some((f) => f.regional)) {
    issues.add('regions', 'some findings take regions, so the region list cannot be empty');
  }
  issues.throwIfAny('CODEBOOK_INVALID', 'invalid codebook');
  // One version string, one meaning: a built-in codebook's version (custody-forensic-v1, -v2)
  // cannot be reused for other content.
  const builtIn = DEFAULT_CODEBOOKS.find((b) => b.version === version);
  if (builtIn !== undefined && codebookDigest(codebook) !== codebookDigest(builtIn)) {
    issues.add('version', `'${version}' is a built-in codebook's version; choose another`);
    issues.throwIfAny('CODEBOOK_INVALID', 'invalid codebook');
  }
  return deepFreeze(codebook);
}

/**
 * SHA-256 (lowercase hex) of the codebook's canonical JSON (RFC 8785): the digest that a
 * report and a stats record cite next to the version.
 *
 * @example
 *   codebookDigest(DEFAULT_CODEBOOK) // pinned in default.test.ts
 */
export function codebookDigest(codebook: Codebook): string {
  return toHex(sha256(canonicalBytes(codebook)));
}

function readVersion(value: unknown, issues: IssueList): string {
  if (typeof value === 'string' && VERSION_RE.test(value)) return value;
  issues.add(
    'version',
    "expected a version such as 'custody-forensic-v1' (letters, digits, '.', '_', '-'; 1 to 64)",
  );
  return '';
}

function readText(value: unknown, path: string, issues: IssueList): string {
  if (typeof value !== 'string' || value.trim() === '') {
    issues.add(path, 'expected a non-empty string');
    return '';
  }
  if (UNPRINTABLE_RE.test(value))
    issues.add(path, 'control characters are not allowed (one paragraph, one line)');
  return value;
}

function readFixedScale<C extends string>(
  value: unknown,
  path: string,
  codes: readonly C[],
  fallback: readonly CodebookTerm<C>[],
  issues: IssueList,
): CodebookTerm<C>[] {
  if (value === undefined) return fallback.map((t) => ({ ...t }));
  const terms = readTerms(value, path, false, issues, {
    test: (code) => codes.includes(code as C),
    hint: `expected one of ${codes.join(', ')}`,
  });
  const given = terms.map((t) => t.code);
  if (Array.isArray(value) && given.join('\n') !== codes.join('\n')) {
    issues.add(
      path,
      `must list exactly ${codes.join(', ')} in this order (got ${given.join(', ')})`,
    );
  }
  return terms as CodebookTerm<C>[];
}

function readTerms(
  value: unknown,
  path: string,
  isFinding: boolean,
  issues: IssueList,
  rule: CodeRule = FREE_CODE,
): (CodebookTerm | FindingDefinition)[] {
  if (!Array.isArray(value)) {
    issues.add(path, 'expected a list');
    return [];
  }
  const seen = new Map<string, number>();
  return value.map((item: unknown, i) => {
    const at = `${path}[${i}]`;
    const term = readTerm(item, at, isFinding, issues, rule);
    const earlier = seen.get(term.code);
    if (earlier !== undefined && term.code !== '') {
      issues.add(`${at}.code`, `duplicate code '${term.code}' (also ${path}[${earlier}])`);
    } else {
      seen.set(term.code, i);
    }
    return term;
  });
}

function readTerm(
  item: unknown,
  at: string,
  isFinding: boolean,
  issues: IssueList,
  rule: CodeRule,
): CodebookTerm | FindingDefinition {
  if (!isRecord(item)) {
    issues.add(at, 'expected an object with code, label and definition');
    return { code: '', label: '', definition: '' };
  }
  const keys = isFinding
    ? ['code', 'label', 'definition', 'regional']
    : ['code', 'label', 'definition'];
  rejectUnknownKeys(item, keys, at, issues);
  let code = '';
  if (typeof item.code === 'string' && rule.test(item.code)) code = item.code;
  else issues.add(joinPath(at, 'code'), rule.hint);
  const term = {
    code,
    label: readText(item.label, joinPath(at, 'label'), issues),
    definition: readText(item.definition, joinPath(at, 'definition'), issues),
  };
  if (!isFinding) return term;
  if (typeof item.regional !== 'boolean')
    issues.add(joinPath(at, 'regional'), 'expected true or false');
  return { ...term, regional: item.regional === true };
}
