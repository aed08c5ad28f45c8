import { CatalogueError } from './errors.js';
import { parseCatalogueNumber, type ParsedNumber, type Registries } from './parse.js';
import type { NumberingScheme } from './scheme.js';

/**
 * Tries every scheme; returns the one match. No match throws `NUMBER_NO_SCHEME_MATCHES` with
 * `details.failures` ({schemeId, code, field, reason} per scheme); two or more matches throw
 * `NUMBER_AMBIGUOUS` with `details.matches`. A scheme whose syntax fits but whose registry the
 * caller did not supply is a caller fault: `NUMBER_REGISTRY_MISSING` is rethrown at once, since
 * counting it as a mismatch could hide an ambiguity.
 *
 * @example
 *   parseWithSchemes([card, forensic], 'fr-5678') // { schemeId: 'forensic', normalised: 'FR/5678' }
 */
export function parseWithSchemes(
  schemes: readonly NumberingScheme[],
  raw: string,
  registries?: Registries,
): ParsedNumber {
  const ids = schemes.map((s) => s.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup !== undefined) {
    throw new CatalogueError('NUMBER_SCHEME_INVALID', `scheme ${dup} is listed twice`, {
      details: { schemeId: dup, path: 'id', reason: 'listed twice' },
    });
  }
  const matches: ParsedNumber[] = [];
  const failures: Record<string, unknown>[] = [];
  for (const scheme of schemes) {
    try {
      matches.push(parseCatalogueNumber(scheme, raw, registries));
    } catch (e) {
      if (!(e instanceof CatalogueError) || e.code === 'NUMBER_REGISTRY_MISSING') throw e;
      failures.push({
        schemeId: scheme.id,
        code: e.code,
        field: e.details.field ?? null,
        reason: e.details.reason,
      });
    }
  }
  const [only, ...others] = matches;
  if (only !== undefined && others.length === 0) return only;
  if (only !== undefined) {
    const names = matches.map((m) => m.schemeId);
    throw new CatalogueError('NUMBER_AMBIGUOUS', `matches several schemes: ${names.join(', ')}`, {
      details: { matches: names, reason: 'more than one scheme accepts this number' },
    });
  }
  const summary = failures.map((f) => `${String(f.schemeId)}: ${String(f.reason)}`).join('; ');
  throw new CatalogueError('NUMBER_NO_SCHEME_MATCHES', `no scheme matches (${summary})`, {
    details: { failures, reason: 'no scheme accepts this number' },
  });
}
