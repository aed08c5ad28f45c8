import { describe, expect, it } from 'vitest';
import { CustodyError } from '../core/index.js';
import { ERROR_CLASS, ERROR_CLASSES } from '../error-codes.js';
import { HTTP_STATUS_FOR_CLASS, HTTP_STATUS_FOR_CODE, httpStatusFor } from './error-status.js';

describe('HTTP status of an error', () => {
  it('maps each class to its status', () => {
    expect(HTTP_STATUS_FOR_CLASS).toEqual({
      usage: 400,
      not_found: 404,
      forbidden: 403,
      conflict: 409,
      finding: 422,
      unavailable: 503,
      internal: 500,
    });
    expect(Object.keys(HTTP_STATUS_FOR_CLASS).sort()).toEqual([...ERROR_CLASSES].sort());
  });

  it('gives a code the status of its class', () => {
    expect(httpStatusFor(new CustodyError('USAGE', 'x'))).toBe(400);
    expect(httpStatusFor(new CustodyError('SUBJECT_NOT_FOUND', 'x'))).toBe(404);
    expect(httpStatusFor(new CustodyError('EXAMINATION_SEALED', 'x'))).toBe(403);
    expect(httpStatusFor(new CustodyError('LEDGER_LOCKED', 'x'))).toBe(409);
    expect(httpStatusFor(new CustodyError('STORE_DIGEST_MISMATCH', 'x'))).toBe(422);
    expect(httpStatusFor(new CustodyError('DB_UNAVAILABLE', 'x'))).toBe(503);
  });

  it('answers 500 for a crash, and a known status for every code', () => {
    expect(httpStatusFor(new Error('boom'))).toBe(500);
    expect(httpStatusFor(undefined)).toBe(500);
    for (const [code, cls] of Object.entries(ERROR_CLASS)) {
      expect(httpStatusFor(new CustodyError(code, 'x')), code).toBe(HTTP_STATUS_FOR_CODE[code] ?? HTTP_STATUS_FOR_CLASS[cls]);
    }
  });

  it("gives the server's own codes their precise status: 401, 413, 415, 416, 429", () => {
    expect(HTTP_STATUS_FOR_CODE).toEqual({
      HTTP_UNAUTHENTICATED: 401,
      HTTP_SIGN_IN_FAILED: 401,
      HTTP_PAYLOAD_TOO_LARGE: 413,
      HTTP_UNSUPPORTED_MEDIA_TYPE: 415,
      HTTP_RATE_LIMITED: 429,
      HTTP_RANGE_NOT_SATISFIABLE: 416,
    });
    expect(httpStatusFor(new CustodyError('HTTP_UNAUTHENTICATED', 'x'))).toBe(401);
  });
});
