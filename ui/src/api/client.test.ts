import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, CSRF_HEADER } from './client';

type Call = { url: string; init: RequestInit };

/** A client over a fake fetch that records each call and answers `status` with `body`. */
function clientAnswering(status: number, body: unknown) {
  const calls: Call[] = [];
  let ended = 0;
  const api = new ApiClient({
    onUnauthenticated: () => {
      ended++;
    },
    fetch: (input, init) => {
      calls.push({
        url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        init: init ?? {},
      });
      const payload = status === 204 ? null : JSON.stringify(body);
      return Promise.resolve(
        new Response(payload, { status, headers: { 'content-type': 'application/json' } }),
      );
    },
  });
  return { api, calls, ended: () => ended };
}

const header = (c: Call | undefined, name: string): string | undefined =>
  (c?.init.headers as Record<string, string> | undefined)?.[name];

describe('the UI API client', () => {
  it('sends the CSRF token on every state-changing request, and never on a GET', async () => {
    const { api, calls } = clientAnswering(200, { ok: true });
    api.setCsrfToken('tok-123');
    await api.get('/api/status');
    await api.post('/api/things', { a: 1 });
    await api.request('PUT', '/api/things/1', {});
    await api.request('PATCH', '/api/things/1', {});
    await api.delete('/api/session');
    expect(calls.map((c) => [c.init.method, header(c, CSRF_HEADER)])).toEqual([
      ['GET', undefined],
      ['POST', 'tok-123'],
      ['PUT', 'tok-123'],
      ['PATCH', 'tok-123'],
      ['DELETE', 'tok-123'],
    ]);
    expect(calls[1]?.init.body).toBe('{"a":1}');
    expect(header(calls[1], 'content-type')).toBe('application/json');
    expect(calls.every((c) => c.init.credentials === 'same-origin')).toBe(true);
  });

  it('maps {code, message, details} to an ApiError with that code', async () => {
    const { api } = clientAnswering(403, {
      code: 'HTTP_FORBIDDEN',
      message: 'no',
      details: { role: 'examiner' },
    });
    const e = await api.get('/api/audit').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      status: 403,
      code: 'HTTP_FORBIDDEN',
      message: 'no',
      details: { role: 'examiner' },
    });
  });

  it('maps a body that is not an error body to HTTP_UNEXPECTED, and a failed fetch to NETWORK', async () => {
    const { api } = clientAnswering(502, '<html>bad gateway</html>');
    await expect(api.get('/api/status')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_UNEXPECTED',
    });
    const offline = new ApiClient({
      onUnauthenticated: () => undefined,
      fetch: () => Promise.reject(new TypeError('offline')),
    });
    await expect(offline.get('/api/status')).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('a 401 ends the session (forgets the token, tells the app), except a refused sign-in and the probe at start', async () => {
    const body = { code: 'HTTP_UNAUTHENTICATED', message: 'sign in first', details: {} };
    const a = clientAnswering(401, body);
    a.api.setCsrfToken('tok');
    await expect(a.api.get('/api/status')).rejects.toMatchObject({ code: 'HTTP_UNAUTHENTICATED' });
    expect(a.ended()).toBe(1);
    await a.api.post('/api/things').catch(() => undefined);
    expect(header(a.calls[1], CSRF_HEADER)).toBeUndefined();

    const b = clientAnswering(401, { code: 'HTTP_SIGN_IN_FAILED', message: 'wrong', details: {} });
    await expect(b.api.post('/api/session', { name: 'x', password: 'y' })).rejects.toMatchObject({
      code: 'HTTP_SIGN_IN_FAILED',
    });
    await expect(b.api.get('/api/session')).rejects.toMatchObject({ status: 401 });
    expect(b.ended()).toBe(0);
  });

  it('returns undefined for 204 and keeps query parameters', async () => {
    const { api, calls } = clientAnswering(204, null);
    await expect(api.delete('/api/session')).resolves.toBeUndefined();
    await api.get('/api/items', { camera: 'X 100', page: 2, sampled: undefined });
    expect(calls[1]?.url).toBe('/api/items?camera=X+100&page=2');
  });
});
