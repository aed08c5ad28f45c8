// Placeholder inputs that pass a route's schema, so that a request built from a route's method
// and url alone reaches its access check and its handler (the role-matrix test). Each value is
// checked against the schema; a schema this cannot satisfy throws, naming the route, so the
// generator is extended rather than the route skipped.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { RouteDef } from '../../src/http/routes/index.js';

type S = Record<string, unknown>;

const STRING_CANDIDATES = [
  'a',
  '0'.repeat(64),
  '01jzzzzzzzzzzzzzzzzzzzzzzz',
  '01JZZZZZZZZZZZZZZZZZZZZZZZ',
  'placeholder',
  '1',
  '2024-01-01',
  '2024-01-01T00:00:00.000Z',
  'k-000000000000',
  '0'.repeat(16),
];

function stringFor(s: S, i: number): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : null;
  const fits = (v: string): boolean =>
    v.length >= min && v.length <= max && (pattern === null || pattern.test(v));
  for (const c of STRING_CANDIDATES) {
    // distinct values for unique arrays: vary the last character where the pattern allows
    const v = i === 0 ? c : c.slice(0, -1) + String(i % 10);
    if (fits(v)) return v;
    if (fits(c)) return c;
  }
  const padded = 'a'.repeat(Math.max(min, 1));
  if (fits(padded)) return padded;
  throw new Error(`no placeholder for string schema ${JSON.stringify(s)}`);
}

export function placeholder(schema: TSchema, i = 0): unknown {
  const s = schema as unknown as S;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) return placeholder(s.anyOf[0] as TSchema, i);
  if (Array.isArray(s.oneOf)) return placeholder(s.oneOf[0] as TSchema, i);
  switch (s.type) {
    case 'string':
      return stringFor(s, i);
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const n = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: n }, (_, k) => placeholder(s.items as TSchema, k));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, TSchema>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      return Object.fromEntries(required.map((k) => [k, placeholder(props[k]!, i)]));
    }
  }
  throw new Error(`no placeholder for schema ${JSON.stringify(s)}`);
}

/** The url with its `:params` filled, the query and the body, each passing the route's schema. */
export function placeholderRequest(def: RouteDef): {
  url: string;
  body: unknown;
} {
  const params = def.schema.params === undefined ? {} : (placeholder(def.schema.params) as S);
  const query = def.schema.querystring === undefined ? {} : (placeholder(def.schema.querystring) as S);
  const body = def.schema.body === undefined ? undefined : placeholder(def.schema.body);
  for (const [what, schema, value] of [
    ['params', def.schema.params, params],
    ['querystring', def.schema.querystring, query],
    ['body', def.schema.body, body],
  ] as const)
    if (schema !== undefined && !Value.Check(schema, value))
      throw new Error(`${def.method} ${def.url}: the placeholder ${what} does not pass its schema`);
  let url = def.url.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    encodeURIComponent(String(params[name] as string | number | undefined ?? 'x')),
  );
  const qs = new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();
  if (qs !== '') url += `?${qs}`;
  return { url, body };
}
