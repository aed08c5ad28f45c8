#!/usr/bin/env node
// Thin launcher: `npm run build` compiles src to dist/src and bundles the CLI into dist/cli
// (scripts/bundle-cli.mjs), which loads in under half the CPU of the separate files.
import { runCli } from '../dist/cli/custody.js';

// A reader that stops early (`custody log | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

process.exitCode = await runCli(process.argv.slice(2));
