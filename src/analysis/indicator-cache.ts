// Which objects raise an indicator, cached in the index (its `meta` table) so that the indicators of
// one object (`show`, `authenticity ID`) need not read the whole collection: each indicator judges
// an image against the rest (its camera model's sizes, its folder's EXIF…), and reading every
// analysis, item and object at 100,000 items takes seconds. The index is rebuilt from the ledger
// and may be edited by anyone with the folder, so the cache is trusted only so far that it can never
// make an indicator appear, or change what one says:
// - keyed by the analyses' ledger size: the ledger size at the last entry that wrote an analysis,
//   an object, an item, a delivery or a withdrawal, which is all the indicators read (the index's
//   `analysis_inputs` mark, projected from the ledger: db/schema.ts, MarksTable; read before the
//   facts, so that a cache can only be older than its key says), by the indicators' version and
//   thresholds, and by the time the indicators were judged at: such an entry, a new version or an
//   earlier time makes it stale, and any other entry (a decision, a sign-in, a view) does not;
//   a later time cannot add an indicator (only TIMESTAMP_OUT_OF_RANGE reads the time, and a date is
//   "in the future" for fewer images as the time advances), so a cache judged earlier still names
//   every object that raises one;
// - it names only the objects that raise an indicator, one line each (`<sha256> CODE,CODE`); for an
//   object it names, the indicators are computed again, whatever the line says: from the images of
//   its camera model alone when every code named reads only those (the model's statistics and its
//   camera body's dates: MODEL_SCOPED_CODES, indicators/model-scope.ts), which gives those codes exactly
//   what the whole collection gives them, and shown only if that raises exactly the codes named;
//   else from the whole collection (a planted or edited line costs that computation, never a
//   false indicator); for an object it does not name, none is shown.
// What a cache cannot prove is that it names every such object, or every code of one: a line
// deleted from a current cache, or a code deleted from a line, hides those indicators from `show`
// until the next entry that moves the key, as an edited index row would. Reports, exports and the summary never read it (they judge every object from the facts).
import * as indicators from './indicators/index.js';
import { INDICATOR_CODES, type IndicatorCode } from './indicators/index.js';

/** The `meta` key the cache is kept under. */
export const INDICATORS_CACHE_KEY = 'indicators_raised';
// /2: keyed by the analyses' ledger size (/1 was keyed by the whole ledger's size, which the same
// number could equal: a /1 cache is never read as /2).
const FORMAT = 'indicators-raised/2';
/** Bumped whenever a check changes what it raises (the thresholds are in the key by value). */
export const INDICATORS_VERSION = 'indicators/1';

export interface IndicatorsKey {
  /** The version, the codes and every threshold, as one string. */
  version: string;
  /** The analyses' ledger size (ArchiveIndexRepository.analysisInputsSize) when the facts were read. */
  analysesSize: number;
}

export function indicatorsKeyOf(analysesSize: number): IndicatorsKey {
  const thresholds = Object.entries(indicators)
    .flatMap(([k, v]) => (typeof v === 'number' ? [`${k}=${v}`] : []))
    .sort();
  return {
    version: [INDICATORS_VERSION, INDICATOR_CODES.join(','), ...thresholds].join(' '),
    analysesSize,
  };
}

/** `now`: the time the indicators were judged at (RFC 3339). `raised`: the codes each object raises. */
export function encodeRaised(
  key: IndicatorsKey,
  now: string,
  raised: ReadonlyMap<string, readonly IndicatorCode[]>,
): string {
  const lines = [`${FORMAT} ${JSON.stringify([key.version, key.analysesSize, now])}`];
  for (const [sha256, codes] of [...raised].sort(([x], [y]) => (x < y ? -1 : 1)))
    if (codes.length > 0) lines.push(`${sha256} ${codes.join(',')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * What the cache says of `sha256` judged at `now`: the codes it raises (the caller computes them
 * again, see above), null when the cache is current and names it not (it raises none), or undefined
 * when the cache is absent, stale, judged later than `now` or malformed. Untrusted text: only the
 * key line and the one line are parsed.
 */
export function decodeRaisedOf(
  text: string | undefined,
  key: IndicatorsKey,
  now: string,
  sha256: string,
): IndicatorCode[] | null | undefined {
  if (text === undefined || !/^[0-9a-f]{64}$/.test(sha256) || !text.endsWith('\n'))
    return undefined;
  const head = text.indexOf('\n');
  if (!text.startsWith(`${FORMAT} `) || head < 0) return undefined;
  let k: unknown;
  try {
    k = JSON.parse(text.slice(FORMAT.length + 1, head));
  } catch {
    return undefined;
  }
  if (!Array.isArray(k) || k.length !== 3 || k[0] !== key.version || k[1] !== key.analysesSize)
    return undefined;
  const judged = typeof k[2] === 'string' ? Date.parse(k[2]) : NaN;
  const asked = Date.parse(now);
  if (!isRfc3339(k[2]) || Number.isNaN(judged) || Number.isNaN(asked) || judged > asked)
    return undefined;
  const at = text.indexOf(`\n${sha256} `, head - 1);
  if (at < 0) return null;
  if (text.indexOf(`\n${sha256} `, at + 1) >= 0) return undefined; // named twice: refused
  const codes = text.slice(at + 66, text.indexOf('\n', at + 1)).split(',');
  if (!codes.every((c): c is IndicatorCode => (INDICATOR_CODES as readonly string[]).includes(c)))
    return undefined;
  return codes;
}

function isRfc3339(v: unknown): v is string {
  return (
    typeof v === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)
  );
}
