// The server of the load bench, in its own process so that the load generator (autocannon) does
// not share its event loop: opens the archive named by SERVER_LOAD_ARCHIVE, listens on loopback,
// prints {"port": N} and serves until SIGTERM.
import { openArchive } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { buildServer } from '../src/http/server.js';

const archive = process.env.SERVER_LOAD_ARCHIVE ?? '';
const open = await openArchive(loadConfig(process.env, { archive, actor: 'server' }), 'write', 'serve');
// SERVER_LOAD_UI_DIR: another build of the UI (the grid bench compares two builds in one run).
const uiDir = process.env.SERVER_LOAD_UI_DIR;
const server = await buildServer({ archive: open, ...(uiDir === undefined ? {} : { uiDir }) });
await server.listen({ host: '127.0.0.1', port: 0 });
const address = server.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => open.close()).then(() => process.exit(0));
});
