import { ExportError } from './errors.js';
import { hint } from '../../core/index.js';

/**
 * The --select grammar (documented in the README and the command's usage):
 *
 *   query := term ('+' term)*          a union of terms
 *   term  := 'all'
 *          | 'items:' id (',' id)*      items by id
 *          | 'delivery:' id            every item of one delivery
 *          | 'subjects:' id (',' id)*  the items linked to these subjects
 *          | 'sample:' id-or-name      a sample's items (its items, or its subjects' items)
 *          | 'source:' codename        every item of every delivery from that source (any text but '+')
 *
 * Untrusted input (a person's command line): parsed strictly, nothing is guessed.
 */
export type SelectionTerm =
  | { kind: 'all' }
  | { kind: 'items'; ids: string[] }
  | { kind: 'delivery'; id: string }
  | { kind: 'subjects'; ids: string[] }
  | { kind: 'sample'; id: string }
  | { kind: 'source'; codename: string };

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const MULTI = new Set(['items', 'subjects']);
const SINGLE = new Set(['delivery', 'sample', 'source']);

/**
 * Parses a --select query into its terms, in order, duplicates kept (a union does not mind).
 * Ids are upper-cased (ULIDs are case-insensitive, Crockford base 32); codenames and sample names
 * are kept as given.
 *
 * @example
 *   parseSelection('items:01ab,01cd+source:CEDAR')
 *   // [{ kind: 'items', ids: ['01AB', '01CD'] }, { kind: 'source', codename: 'CEDAR' }]
 */
export function parseSelection(query: string): SelectionTerm[] {
  if (query.trim() === '') throw invalid('the selection is empty');
  return query.split('+').map((raw) => parseTerm(raw.trim()));
}

function parseTerm(term: string): SelectionTerm {
  if (term === 'all') return { kind: 'all' };
  const colon = term.indexOf(':');
  if (colon < 0)
    throw invalid(`"${term}" is not a term (all, items:, delivery:, subjects:, sample:, source:)`);
  const kind = term.slice(0, colon);
  const rest = term.slice(colon + 1);
  if (!MULTI.has(kind) && !SINGLE.has(kind)) {
    throw invalid(
      `unknown selection "${kind}:" (all, items:, delivery:, subjects:, sample:, source:)`,
    );
  }
  if (kind === 'source') {
    // Ingest takes any codename; only '+' (the union) and control characters cannot be selected.
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    if (rest.trim() === '' || /[\x00-\x1f\x7f]/.test(rest))
      throw invalid(`source: "${rest}" is not a codename`);
    return { kind, codename: rest.trim() };
  }
  const values = rest.split(',').map((v) => v.trim());
  if (SINGLE.has(kind) && values.length !== 1)
    throw invalid(`${kind}: takes one value, got "${rest}"`);
  for (const v of values) {
    if (!ID_RE.test(v)) throw invalid(`${kind}: "${v}" is not an id (letters, digits, - and _)`);
  }
  const ids = values.map((v) => v.toUpperCase());
  const first = ids[0] ?? '';
  switch (kind) {
    case 'items':
      return { kind, ids };
    case 'subjects':
      return { kind, ids };
    case 'delivery':
      return { kind, id: first };
    default:
      return { kind: 'sample', id: values[0] ?? '' }; // a sample id or its name, as written
  }
}

function invalid(message: string): ExportError {
  return new ExportError('EXPORT_SELECT_INVALID', message, { details: hint({ field: 'select' }) });
}
