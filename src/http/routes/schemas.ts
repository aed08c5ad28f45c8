import { Type } from 'typebox';

/**
 * Ids in paths and queries are checked by pattern before any handler runs: a ULID (items,
 * subjects, units, deliveries, accounts) or a SHA-256. Path traversal ('../'), SQL metacharacters
 * and anything longer simply do not match (400 HTTP_BAD_REQUEST).
 */
export const ULID_PATTERN = '^[0-9A-Za-z]{26}$';
export const SHA256_PATTERN = '^[0-9a-fA-F]{64}$';

export const Ulid = (description: string) =>
  Type.String({ pattern: ULID_PATTERN, minLength: 26, maxLength: 26, description });

export const IdParams = (what: string) =>
  Type.Object({ id: Ulid(`the ${what}'s id (a ULID)`) }, { additionalProperties: false });

export const Limit = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: fallback, description: `at most ${max}` });

export const Offset = Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 });

/** A response of this shape passes through whole (fields a newer service adds are kept). */
export const Open = (props: Parameters<typeof Type.Object>[0]) =>
  Type.Object(props, { additionalProperties: true });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

/** The fields of a server job's status (GET …/jobs/:id), whatever its kind. */
export const JobFields = {
  id: Type.String(),
  kind: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  started_by: Type.String(),
  started: Type.String(),
  finished: Nullable(Type.String()),
  stage: Nullable(Type.String({ description: 'what the job is doing now (null once ended)' })),
  done: Type.Integer(),
  total: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  error_code: Nullable(Type.String()),
};

/** What an export job leaves: its dissemination entry and the bag it wrote. */
export const ExportResult = Type.Object({
  seq: Type.Integer({ description: "the export's dissemination entry, naming the account" }),
  tree_size: Type.Integer(),
  root: Type.String(),
  items: Type.Integer(),
  redacted: Type.Boolean(),
  tagmanifest_sha256: Type.String(),
  bytes: Type.Integer(),
});
