import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The web UI's pages run under this policy: scripts, styles, fonts and images from this server
 * only, no inline script or style, no eval, no frames, and fetches to this server only. The UI
 * (ui/, built into dist/ui by `npm run build`) is written to comply; the browser test checks that
 * no page reports a violation and that nothing is fetched from elsewhere.
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const UI_HEADERS = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** dist/ui next to the package.json of this checkout (src/http in tests, dist/src/http built). */
export function defaultUiDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'ui');
    dir = dirname(dir);
  }
  return null;
}

/** Answers a GET the routes did not: the UI's index.html for its own paths; false for the rest. */
export type UiFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * Serves the built UI at / (its files, read-only, under {@link UI_CSP}); any other GET that asks
 * for HTML and is not under /api/ gets index.html, so that a page's own URL can be reloaded.
 */
export async function registerWebUi(
  app: FastifyInstance,
  uiDir: string | null,
): Promise<UiFallback> {
  const indexPath = uiDir === null ? null : join(uiDir, 'index.html');
  const index = indexPath !== null && existsSync(indexPath) ? readFileSync(indexPath) : null;
  if (uiDir !== null && index !== null) {
    await app.register(async (child) => {
      child.addHook('onSend', async (_request, reply, payload) => {
        void reply.headers(UI_HEADERS);
        return payload;
      });
      await child.register(fastifyStatic, {
        root: uiDir,
        prefix: '/',
        wildcard: false,
        index: false,
        decorateReply: false,
        dotfiles: 'deny',
        schemaHide: true,
      });
    });
  }
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const wantsPage = request.method === 'GET' && !path.startsWith('/api/') && path !== '/api';
    if (!wantsPage || !(request.headers.accept ?? '').includes('text/html')) return false;
    if (index === null) {
      void reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send(
          'The web UI is not built here: run `npm run build` in the Custody folder, then start `custody serve` again.\n',
        );
      return true;
    }
    void reply
      .status(200)
      .headers(UI_HEADERS)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(index);
    return true;
  };
}
