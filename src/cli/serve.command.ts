import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { archiveLayout } from '../archive/index.js';
import { removeServedMarker, writeServedMarker } from '../archive/served-marker.adapter.js';
import { SERVICE_CADENCE } from '../ledger/index.js';
import { flag, str, UsageError, type Command } from './command.js';
import { configFrom, withArchive } from './context.js';

const USAGE = 'custody serve [--port 8080] [--host 127.0.0.1] [--secure-cookies] [--exports DIR]';

/**
 * Runs the team server over the archive until SIGINT or SIGTERM. The server is the archive's one
 * writer for its lifetime: it holds the writer lock, signs checkpoints every 10 s or 1,000 entries
 * while serving, and one more when it stops.
 */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the team server (HTTP API; accounts, roles, audited views) over the archive',
  usage: USAGE,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'secure-cookies': { type: 'boolean' },
    exports: { type: 'string' },
  },
  async run(args, io) {
    if (args.positionals.length > 0)
      throw new UsageError(`unexpected ${args.positionals.join(' ')}\nusage: ${USAGE}`);
    const portText = str(args, 'port') ?? '8080';
    if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535)
      throw new UsageError(`--port takes a port number, got "${portText}"`);
    const host = str(args, 'host') ?? '127.0.0.1';
    const config = configFrom(args, io);
    const mode = (await stat(config.archiveDir).catch(() => null))?.mode;
    if (mode !== undefined && (mode & 0o007) !== 0)
      io.stderr(
        `custody: warning: ${config.archiveDir} is open to other users (mode ${(mode & 0o777).toString(8)}): file access bypasses accounts and blindness; give it to the service account, mode 0750\n`,
      );
    return withArchive(
      args,
      io,
      'write',
      'serve',
      async (archive) => {
        const { buildServer } = await import('../http/index.js');
        const server = await buildServer({
          archive,
          secureCookies: flag(args, 'secure-cookies'),
          // The exports area (default ARCHIVE.exports, beside the archive folder).
          ...(str(args, 'exports') === undefined ? {} : { exportsDir: resolve(str(args, 'exports')!) }),
          logger: false,
        });
        // The signal handlers first: a supervisor may stop the server as soon as it says it serves.
        let stop: (signal: NodeJS.Signals) => void = () => undefined;
        const stopped = new Promise<void>((resolve) => {
          stop = (signal) => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            io.stderr(`custody: ${signal}: stopping (signing the checkpoint)\n`);
            resolve();
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
        const address = await server.listen({ port: Number(portText), host });
        // The note that names this server to a CLI write that would otherwise wait for the lock.
        const served = archiveLayout(config.archiveDir).served;
        await writeServedMarker(served, {
          pid: process.pid,
          host,
          port: Number(new URL(address).port),
          started: new Date().toISOString(),
        });
        io.stdout(
          `custody: serving ${config.archiveDir} at ${address} (the web UI: open ${address}/ in a browser; Ctrl-C stops; the API is described at ${address}/api/openapi.json)\n`,
        );
        await stopped;
        try {
          await server.close();
        } finally {
          await removeServedMarker(served);
        }
        io.stdout('custody: stopped; the checkpoint is signed\n');
        return 0;
      },
      { writerCadence: SERVICE_CADENCE },
    );
  },
};
