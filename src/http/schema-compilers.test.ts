import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { SHARED_SCHEMA_COMPILERS } from './schema-compilers.js';

const route = (schema: object) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('the schema compilers shared by the servers of a process', () => {
  it('compile a response schema once: a second server gets the same serializer, which serializes as fast-json-stringify does', () => {
    const schema = Type.Object({ id: Type.String(), n: Type.Integer() });
    const first = SHARED_SCHEMA_COMPILERS.buildSerializer!({}, {})(route(schema));
    const second = SHARED_SCHEMA_COMPILERS.buildSerializer!({}, {})(route(schema));
    expect(second).toBe(first);
    expect(first({ id: 'a', n: 2, extra: 'dropped' })).toBe('{"id":"a","n":2}');
  });

  it('compile another schema object, or the same one under other options, apart', () => {
    const schema = Type.Object({ id: Type.String() });
    const other = Type.Object({ id: Type.String() });
    const build = SHARED_SCHEMA_COMPILERS.buildSerializer!({}, {});
    expect(build(route(other))).not.toBe(build(route(schema)));
    const withOptions = SHARED_SCHEMA_COMPILERS.buildSerializer!({}, { rounding: 'floor' });
    expect(withOptions(route(schema))).not.toBe(build(route(schema)));
  });

  it('validate with one Ajv pool: the same options give the same compiler, whose validators check as before', () => {
    const options = { customOptions: { removeAdditional: false, coerceTypes: 'array' as const, allErrors: false } };
    const a = SHARED_SCHEMA_COMPILERS.buildValidator!({}, options);
    const b = SHARED_SCHEMA_COMPILERS.buildValidator!({}, options);
    expect(b).toBe(a);
    const schema = Type.Object({ n: Type.Integer({ minimum: 1 }) });
    const validate = a({ schema, method: 'GET', url: '/x', httpPart: 'querystring' }) as (d: unknown) => boolean;
    expect(validate({ n: '3' })).toBe(true); // coerced, as Fastify's querystrings are
    expect(validate({ n: 0 })).toBe(false);
  });
});
