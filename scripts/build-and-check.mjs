// npm test's first step: the build and the two type checks, side by side.
//
//   node scripts/build-and-check.mjs
//
// The build emits without type-checking (`tsc --noCheck`: each file is transpiled on its own, as
// isolatedModules already requires), because `npm run check` type-checks the same sources and
// more (tsconfig.json includes the tests). Run side by side, the three take about as long as the
// longest, the server's type check, instead of their sum.
// Each job's output is printed whole when it ends, so that errors do not interleave; the exit
// code is 1 when any job failed, after all have ended.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

// TypeScript 7, the native compiler (the devDependency `typescript-7`), by path: `npx tsc` may be
// either it or TypeScript 6, which stays only because typescript-eslint's type-aware rules need a
// TypeScript below 6.1 (npm run lint). Both check the same sources with no error and emit the same
// JavaScript; 7 takes about a quarter of the CPU (build-and-check: 43.3 -> 11.7 s).
const TSC = 'node node_modules/typescript-7/bin/tsc';

const JOBS = [
  ['build', 'npm run build --silent'],
  ['check (server, tests, scripts)', `${TSC} --noEmit -p tsconfig.json`],
  ['check (ui)', `${TSC} --noEmit -p ui/tsconfig.json`],
];

function run([name, command]) {
  const began = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, ok: false, text: `${error.message}\n` }));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - began) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString('utf8');
      const ok = code === 0;
      process.stdout.write(
        `${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds} s${ok ? '' : `, ${signal ?? `exit ${code}`}`})\n${text}`,
      );
      resolve({ name, ok });
    });
  });
}

const results = await Promise.all(JOBS.map(run));
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
