#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/cli to dist/cli by `npm run build`.
import { runCli } from '../dist/src/cli/main.js';

process.exitCode = await runCli(process.argv.slice(2));
