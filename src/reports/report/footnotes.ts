// Every number in a report carries a footnote saying how to get it again: a Custody command that
// accepts --at (so it answers as of the report's checkpoint) and a JSON pointer into that
// command's --json output. Anyone holding the archive can re-run it; a test does, for every
// footnote of a generated report.
//
// Pointers are RFC 6901 JSON Pointers with one addition: a final token `length` applied to an
// array (where RFC 6901 would have no answer, since array tokens are indices) means the number of
// its elements, as jq's `length` does. `custody items --at 812 --json | /length` is how many items
// there were at tree size 812.

/** A value a footnote can cite: what the command prints, as JSON. */
export type Cited =
  null | boolean | number | string | readonly Cited[] | { readonly [k: string]: Cited };

export interface Footnote {
  /** 1-based, in order of first citation. */
  readonly n: number;
  /** argv, starting with 'custody' (the archive is the reader's: --archive or CUSTODY_ARCHIVE). */
  readonly command: readonly string[];
  readonly pointer: string;
  /** The value printed in the report, which the command must reproduce. */
  readonly value: Cited;
  /** Said beside the query, e.g. that a value is as of the run rather than of the checkpoint. */
  readonly note: string | null;
  /**
   * With `report --bag`: where the same value sits in the bag, `<bag path>#<RFC 6901 pointer>`
   * (what `custody verify-export BAG --explain` and `verify_bag.py --explain` take). Absent when
   * the figure cannot be reproduced from the bag alone.
   */
  readonly bag?: string;
}

/** Numbers footnotes in order of first citation; the same query cited twice gets one number. */
export class FootnoteRegistry {
  readonly #notes: Footnote[] = [];
  readonly #byQuery = new Map<string, Footnote>();

  /** @param bagOf where a query's value sits in the bag (`report --bag`), or null. */
  constructor(
    private readonly bagOf: (command: readonly string[], pointer: string) => string | null = () =>
      null,
  ) {}

  cite(
    command: readonly string[],
    pointer: string,
    value: Cited,
    note: string | null = null,
  ): number {
    const key = JSON.stringify([command, pointer]);
    const seen = this.#byQuery.get(key);
    if (seen !== undefined) {
      if (JSON.stringify(seen.value) !== JSON.stringify(value)) {
        throw new Error(`footnote ${seen.n} cited with two values: ${formatQuery(seen)}`);
      }
      return seen.n;
    }
    const n = this.#notes.length + 1;
    const bag = this.bagOf(command, pointer);
    const footnote: Footnote = {
      n,
      command: [...command],
      pointer,
      value,
      note,
      ...(bag === null ? {} : { bag }),
    };
    this.#notes.push(footnote);
    this.#byQuery.set(key, footnote);
    return n;
  }

  list(): readonly Footnote[] {
    return this.#notes;
  }
}

/** A JSON pointer token, escaped per RFC 6901 §4 (`~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Builds a pointer from tokens: pointer('cameras', 0, 'images') === '/cameras/0/images'. */
export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => `/${pointerToken(t)}`).join('');
}

/**
 * Resolves a pointer (RFC 6901, plus `length` of an array) in a parsed JSON document. Throws
 * when the pointer names nothing, so a footnote that went stale cannot pass as `undefined`.
 *
 * @example
 *   resolvePointer({ a: [{ b: 3 }, {}] }, '/a/0/b')   // 3
 *   resolvePointer({ a: [{ b: 3 }, {}] }, '/a/length') // 2
 */
export function resolvePointer(doc: unknown, ptr: string): unknown {
  if (ptr === '') return doc;
  if (!ptr.startsWith('/')) throw new Error(`a JSON pointer starts with "/": ${ptr}`);
  let here: unknown = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(here)) {
      if (token === 'length') here = here.length;
      else if (/^(0|[1-9][0-9]*)$/.test(token) && Number(token) < here.length)
        here = here[Number(token)];
      else throw new Error(`${ptr}: no element ${token} in an array of ${here.length}`);
    } else if (typeof here === 'object' && here !== null && Object.hasOwn(here, token)) {
      here = (here as Record<string, unknown>)[token];
    } else {
      throw new Error(`${ptr}: nothing at "${token}"`);
    }
  }
  return here;
}

/** A POSIX-shell word: bare when it is safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The footnote as a person types it: `custody items --at 812 --json | /length`. */
export function formatQuery(f: Pick<Footnote, 'command' | 'pointer'>): string {
  return `${f.command.map(shellWord).join(' ')} | ${f.pointer}`;
}

/**
 * The footnote's value read from the bag alone (`report --bag`), as the two verifiers take it
 * (contract §2): Custody's, and the standard-library script shipped at the top of the bag, which
 * checks the bag it sits in. Null when the footnote has no place in the bag.
 *
 * @example
 *   bagQueries({ bag: 'data/tables/statistics-S1.json#/findings/0/present' }, 'case-bag')
 *   // ["custody verify-export case-bag --explain 'data/tables/statistics-S1.json#/findings/0/present'",
 *   //  "python3 case-bag/verify_bag.py --explain 'data/tables/statistics-S1.json#/findings/0/present'"]
 */
export function bagQueries(f: Pick<Footnote, 'bag'>, bagDir: string): [string, string] | null {
  if (f.bag === undefined) return null;
  const dir = bagDir.replace(/\/+$/, '') || '.';
  return [
    `custody verify-export ${shellWord(dir)} --explain ${shellWord(f.bag)}`,
    `python3 ${shellWord(`${dir}/verify_bag.py`)} --explain ${shellWord(f.bag)}`,
  ];
}

/**
 * The bag pointer for a query's pointer: the same RFC 6901 pointer into the bag file, except that
 * our `/length` extension (not RFC 6901) points at the array itself, whose elements are counted.
 */
export function bagPointer(file: string, ptr: string): string {
  return `${file}#${ptr.endsWith('/length') ? ptr.slice(0, -'/length'.length) : ptr}`;
}
