// The routes' schema compilers, shared by every server this process builds.
//
// Fastify compiles each route's request validators (Ajv) and response serializers
// (fast-json-stringify) when a server is built: for ~120 routes that is most of buildServer's
// time. The route schemas are module constants (TypeBox), so a second server in the same process
// would compile the very same objects again. These factories are Fastify's own
// (@fastify/ajv-compiler, @fastify/fast-json-stringify-compiler), kept once per process:
// - validators: one Ajv pool for the process (Ajv caches what it compiled by schema object);
// - serializers: fast-json-stringify's output cached by schema object and options.
// `custody serve` builds one server, so it compiles as before; the tests build hundreds.
// A schema object is never changed after it is compiled (TypeBox schemas are constants), and the
// caches hold compiled code only: nothing of a request or of the archive.
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildSerializer = NonNullable<Factories['buildSerializer']>;

/** One Ajv pool per process: the same external schemas and options give the same Ajv instance. */
const buildValidator = AjvCompiler();

const selectSerializer = SerializerSelector();
/** Compiled serializers by (external schemas and options) and then by the response schema object. */
const serializers = new Map<string, WeakMap<object, (doc: unknown) => string>>();

const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const key = JSON.stringify([externalSchemas, options ?? null]);
  let byObject = serializers.get(key);
  if (byObject === undefined) serializers.set(key, (byObject = new WeakMap()));
  const compile = selectSerializer(externalSchemas, options);
  const cache = byObject;
  return (route) => {
    const schema = route.schema as object;
    let serialize = cache.get(schema);
    if (serialize === undefined) cache.set(schema, (serialize = compile(route)));
    return serialize;
  };
};

export const SHARED_SCHEMA_COMPILERS: Factories = { buildValidator, buildSerializer };
