import { CoreError } from './errors.js';

/**
 * Canonical JSON for everything Custody hashes or signs: RFC 8785 (JCS), restricted to the
 * subset the ledger allows so that canonicalisation never depends on number formatting.
 *
 * Allowed: null, booleans, integers with |n| <= 2^53 - 1, strings, arrays, and plain objects
 * whose keys are ASCII. Everything else is refused with `CANONICAL_UNSUPPORTED`, naming the path.
 *
 * Two choices to know about:
 * - `-0` is serialised as `0` (RFC 8785 §3.2.2.3 does the same), so `canonicalize(-0) === '0'`.
 * - Lone surrogates in strings are escaped (`"\ud800"`) exactly as ES2019 well-formed
 *   `JSON.stringify` does, rather than rejected as I-JSON (RFC 7493 §2.1) would. The escape keeps
 *   the UTF-8 output valid and round-trips losslessly, which matters for hostile file names.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** Nesting deeper than this is refused; ledger records are shallow and recursion must stay bounded. */
const MAX_DEPTH = 256;
const ASCII_RE = /^\p{ASCII}*$/u;
const IDENT_RE = /^[A-Za-z_$][\w$]*$/;

/**
 * Serialises `value` per RFC 8785: object members sorted by the UTF-16 code units of their keys
 * (§3.2.3), strings as ECMAScript `JSON.stringify` writes them (§3.2.2.2), no whitespace (§3.2.1).
 * Throws `CANONICAL_UNSUPPORTED` (with `details.path`) for values outside the ledger's subset.
 *
 * @example
 *   canonicalize({ b: [1, 'é'], a: null }) // '{"a":null,"b":[1,"é"]}'
 *   canonicalize({ details: { size: 1.5 } }) // throws CANONICAL_UNSUPPORTED at `details.size`
 */
export function canonicalize(value: unknown): string {
  return serialize(value, '', 0, new Set());
}

/**
 * The UTF-8 bytes of {@link canonicalize}: what gets hashed and signed (RFC 8785 §3.2.4).
 *
 * @example
 *   canonicalBytes({ a: 'é' }).toString('hex') // '7b2261223a22c3a9227d'
 */
export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(canonicalize(value), 'utf8');
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses bytes that claim to be canonical JSON, and insists they are (RFC 8785 §3).
 * Untrusted input: ledger files and exports arrive from outside and are validated here.
 * Throws `CANONICAL_INVALID` for malformed UTF-8, malformed JSON or values outside the subset
 * (floats, unsafe integers, non-ASCII keys), and `CANONICAL_NOT_CANONICAL` when the bytes are
 * valid but are not the canonical spelling (whitespace, key order, `1.0`, escapes such as `\u0041`,
 * duplicate keys — `JSON.parse` keeps the last one, so re-serialising never gives the input back).
 *
 * @example
 *   parseCanonical(Buffer.from('{"a":1}'))   // { a: 1 }
 *   parseCanonical(Buffer.from('{ "a":1}'))  // throws CANONICAL_NOT_CANONICAL
 */
export function parseCanonical(bytes: Uint8Array): JsonValue {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch (cause) {
    throw new CoreError('CANONICAL_INVALID', 'canonical JSON is not valid UTF-8', { cause });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new CoreError('CANONICAL_INVALID', 'canonical JSON does not parse', { cause });
  }
  let again: Buffer;
  try {
    again = canonicalBytes(parsed);
  } catch (cause) {
    if (!(cause instanceof CoreError)) throw cause;
    throw new CoreError('CANONICAL_INVALID', cause.message, { cause, details: cause.details });
  }
  const original = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!again.equals(original)) {
    throw new CoreError('CANONICAL_NOT_CANONICAL', 'JSON is valid but not in RFC 8785 form');
  }
  return parsed as JsonValue;
}

function serialize(value: unknown, path: string, depth: number, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      // ES2019+ JSON.stringify is exactly RFC 8785 §3.2.2.2 (and escapes lone surrogates).
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return serializeNumber(value, path);
    case 'object':
      if (value === null) return 'null';
      return serializeContainer(value, path, depth, ancestors);
    case 'undefined':
    case 'bigint':
    case 'function':
    case 'symbol':
      return unsupported(path, `${typeof value} is not JSON`);
  }
}

function serializeNumber(n: number, path: string): string {
  if (!Number.isSafeInteger(n)) {
    return unsupported(path, `${n} is not an integer with |n| <= 2^53-1`);
  }
  return String(n); // String(-0) === '0', as RFC 8785 §3.2.2.3 requires.
}

function serializeContainer(
  value: object,
  path: string,
  depth: number,
  ancestors: Set<object>,
): string {
  if (depth >= MAX_DEPTH) return unsupported(path, `nesting deeper than ${MAX_DEPTH}`);
  if (ancestors.has(value)) return unsupported(path, 'cyclic structure');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return serializeArray(value, path, depth, ancestors);
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      return unsupported(path, `${kind} is not a plain object`);
    }
    return serializeObject(value as Record<string, unknown>, path, depth, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function serializeArray(
  items: readonly unknown[],
  path: string,
  depth: number,
  ancestors: Set<object>,
): string {
  const parts: string[] = [];
  // Index loop rather than map(): holes in sparse arrays must surface as `undefined`.
  for (let i = 0; i < items.length; i++) {
    parts.push(serialize(items[i], `${path}[${i}]`, depth + 1, ancestors));
  }
  return `[${parts.join(',')}]`;
}

function serializeObject(
  obj: Record<string, unknown>,
  path: string,
  depth: number,
  ancestors: Set<object>,
): string {
  if (Object.getOwnPropertySymbols(obj).length > 0) {
    return unsupported(path, 'symbol keys are not JSON');
  }
  // Default sort compares UTF-16 code units: RFC 8785 §3.2.3 (and keys are ASCII anyway).
  const keys = Object.keys(obj).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const childPath = joinPath(path, key);
    if (!ASCII_RE.test(key)) return unsupported(childPath, 'object keys must be ASCII');
    parts.push(`${JSON.stringify(key)}:${serialize(obj[key], childPath, depth + 1, ancestors)}`);
  }
  return `{${parts.join(',')}}`;
}

function joinPath(path: string, key: string): string {
  if (IDENT_RE.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function unsupported(path: string, reason: string): never {
  const where = path === '' ? '(root)' : path;
  throw new CoreError('CANONICAL_UNSUPPORTED', `${where}: ${reason}`, { details: { path: where } });
}
