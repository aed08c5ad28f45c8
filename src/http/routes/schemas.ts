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
