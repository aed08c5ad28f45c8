// Translations inside a codebook (untrusted input, like the rest of a custom codebook): each
// language must translate every term of every list, by the codebook's own codes, and say whether
// it has been reviewed. Validated here so that a form never shows a finding without its text.
import { IssueList, isRecord, joinPath, rejectUnknownKeys } from './errors.js';
import {
  TRANSLATION_STATUSES,
  type Codebook,
  type CodebookTranslation,
  type TranslatedTerm,
  type TranslationStatus,
} from './types.js';

/** A BCP 47 primary language subtag ('ar', 'fr', 'uk'). */
const LANGUAGE_RE = /^[a-z]{2,3}$/;
const UNPRINTABLE_RE = /[\p{Cc}\p{Cs}]/u;
const LISTS = ['values', 'sexes', 'ageBands', 'regions', 'findings'] as const;
type ListName = (typeof LISTS)[number];
const KEYS = ['status', 'title', 'instructions', ...LISTS];

/**
 * Reads `translations` for a codebook whose lists are already read: undefined when absent (the
 * key is then left out, so a codebook without translations keeps its digest).
 */
export function readTranslations(
  value: unknown,
  base: Pick<Codebook, ListName>,
  issues: IssueList,
): Record<string, CodebookTranslation> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    issues.add('translations', 'expected an object of translations by language, e.g. { "ar": {…} }');
    return undefined;
  }
  const out: Record<string, CodebookTranslation> = {};
  for (const [lang, t] of Object.entries(value)) {
    const at = joinPath('translations', lang);
    if (!LANGUAGE_RE.test(lang)) issues.add(at, 'expected a language code such as ar (2 or 3 lowercase letters)');
    out[lang] = readTranslation(t, at, base, issues);
  }
  return out;
}

function readTranslation(
  value: unknown,
  at: string,
  base: Pick<Codebook, ListName>,
  issues: IssueList,
): CodebookTranslation {
  const empty = { values: {}, sexes: {}, ageBands: {}, regions: {}, findings: {} };
  if (!isRecord(value)) {
    issues.add(at, 'expected an object with status, title, instructions and the translated lists');
    return { status: TRANSLATION_STATUSES[0]!, title: '', instructions: '', ...empty };
  }
  rejectUnknownKeys(value, KEYS, at, issues);
  const status = value.status as TranslationStatus;
  if (!TRANSLATION_STATUSES.includes(status))
    issues.add(joinPath(at, 'status'), `expected one of ${TRANSLATION_STATUSES.join(', ')}`);
  const lists = { ...empty } as Record<ListName, Record<string, TranslatedTerm>>;
  for (const list of LISTS)
    lists[list] = readList(value[list], joinPath(at, list), base[list].map((t) => t.code), issues);
  return {
    status,
    title: readText(value.title, joinPath(at, 'title'), issues),
    instructions: readText(value.instructions, joinPath(at, 'instructions'), issues),
    ...lists,
  };
}

/** Exactly the codes of the codebook's list, each with a label and a definition. */
function readList(
  value: unknown,
  at: string,
  codes: readonly string[],
  issues: IssueList,
): Record<string, TranslatedTerm> {
  if (!isRecord(value)) {
    issues.add(at, 'expected an object of translated terms by code');
    return {};
  }
  rejectUnknownKeys(value, codes, at, issues);
  const out: Record<string, TranslatedTerm> = {};
  for (const code of codes) {
    const term = value[code];
    const path = joinPath(at, code);
    if (!isRecord(term)) {
      issues.add(path, 'missing: every term needs its translated label and definition');
      continue;
    }
    rejectUnknownKeys(term, ['label', 'definition'], path, issues);
    out[code] = {
      label: readText(term.label, joinPath(path, 'label'), issues),
      definition: readText(term.definition, joinPath(path, 'definition'), issues),
    };
  }
  return out;
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
