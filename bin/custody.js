#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/cli to dist/cli by `npm run build`.
import { runCli } from '../dist/src/cli/main.js';

// A reader that stops early (`custody log | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

process.exitCode = await runCli(process.argv.slice(2));
