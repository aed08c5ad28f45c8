// Issue 13: `custody serve` serves the web UI at / (src/http/web-ui.ts) under a strict
// Content-Security-Policy, answers a page's own URL with index.html, never serves a file from
// outside the UI folder, and leaves the API's JSON answers as they were. Through inject(): no
// browser (test/e2e/ui/web-ui.test.ts drives the real page).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseVerifierKey, verifyCheckpoint } from '../../../src/core/index.js';
import { UI_CSP } from '../../../src/http/web-ui.js';
import { servedArchive, signIn, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

const HTML = { accept: 'text/html,application/xhtml+xml' };

describe('the web UI served by the team server', () => {
  let s: ServedArchive;
  let uiDir: string;
  let outside: string;

  beforeAll(async () => {
    const base = await makeTempDir('web-ui-static');
    uiDir = join(base, 'ui');
    outside = join(base, 'secret.txt');
    await mkdir(join(uiDir, 'assets'), { recursive: true });
    await writeFile(
      join(uiDir, 'index.html'),
      '<!doctype html><title>Custody</title><div id="root"></div>',
    );
    await writeFile(join(uiDir, 'assets', 'app.js'), 'console.log(1);');
    await writeFile(join(uiDir, '.env'), 'SECRET=dotfile');
    await writeFile(outside, 'SECRET=outside');
    s = await servedArchive('web-ui-static', [['Ada Examiner', 'examiner']], { server: { uiDir } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('serves / and its assets under the strict CSP (no inline script, nothing from elsewhere)', async () => {
    const page = await s.server.inject({ method: 'GET', url: '/', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="root">');
    const asset = await s.server.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    for (const r of [page, asset]) {
      expect(r.headers['content-security-policy']).toBe(UI_CSP);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
    }
    expect(UI_CSP).toContain("default-src 'none'");
    expect(UI_CSP).toContain("script-src 'self'");
    expect(UI_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it("answers a page's own URL with index.html, and the API with its JSON 404 even when HTML is asked for", async () => {
    const page = await s.server.inject({ method: 'GET', url: '/items?camera=x', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toBe(UI_CSP);
    const api = await s.server.inject({ method: 'GET', url: '/api/no-such-route', headers: HTML });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'HTTP_NOT_FOUND' });
    const json = await s.server.inject({ method: 'GET', url: '/no-such-file.js' });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ code: 'HTTP_NOT_FOUND' });
  });

  it('serves nothing from outside the UI folder, and no dotfile', async () => {
    for (const url of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/.env',
      '/assets/%2e%2e/.env',
    ]) {
      const r = await s.server.inject({ method: 'GET', url });
      expect(r.body, url).not.toContain('SECRET=');
      expect([200, 400, 403, 404], url).toContain(r.statusCode);
      if (r.statusCode === 200) expect(r.body, url).toContain('<div id="root">');
    }
  });

  it('GET /api/status carries the signed checkpoint note, which verifies with the verifier key it gives', async () => {
    const c = await signIn(s.server, 'Ada Examiner');
    const r = await c.request('GET', '/api/status');
    expect(r.statusCode).toBe(200);
    const body = r.json<{
      signed_checkpoint: number | null;
      checkpoint_note: string | null;
      verifier_key: string;
      origin: string;
    }>();
    expect(body.signed_checkpoint).not.toBeNull();
    const cp = verifyCheckpoint(body.checkpoint_note!, parseVerifierKey(body.verifier_key));
    expect(cp).toMatchObject({ origin: body.origin, size: body.signed_checkpoint });
  });
});

describe('a server without a built UI', () => {
  it('tells a browser how to build it, and answers the API as before', async () => {
    const s = await servedArchive('web-ui-none', [], { server: { uiDir: null } });
    try {
      const page = await s.server.inject({ method: 'GET', url: '/', headers: HTML });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('npm run build');
      const api = await s.server.inject({ method: 'GET', url: '/api/status' });
      expect(api.statusCode).toBe(401);
      expect(api.json()).toMatchObject({ code: 'HTTP_UNAUTHENTICATED' });
    } finally {
      await s.close();
    }
  });
});
