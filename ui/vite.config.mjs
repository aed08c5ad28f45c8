// The web UI (issue 13): React + Vite, built into dist/ui by `npm run build` and served by
// `custody serve` at / under a strict Content-Security-Policy (src/http/web-ui.ts): no inline
// script or style, fonts bundled in public/fonts, nothing fetched from another origin.
// `npx vite --config ui/vite.config.mjs` serves it for development, proxying /api to a
// `custody serve` on port 8080.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Never inline an asset as a data: URL or a script: every byte is a file of this server.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
