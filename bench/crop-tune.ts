// Tuning aid for crop verification (not part of `npm run bench`): on the analyses a quality bench
// run saved (QUALITY_REUSE), aligns every crop variant with its base, every same-setting negative
// with its scene's group, burst frames with their scene, and a sample of other pairs, and prints
// how the verification scores separate them. node dist/bench/crop-tune.js <corpus dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  alignPair,
  VERIFY_MAX_RESIDUAL,
  VERIFY_MIN_DETAIL,
  type VerifiedCrop,
} from '../src/analysis/similarity/crop-match.js';
import type { QualityFile } from './variants.js';

const root = process.argv[2] ?? 'bench/.corpus/near-duplicate-quality-v3-tune-40';
const files = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as QualityFile[];
const savedName = readdirSync(root).find((f) => f.startsWith('analyses-') && f.endsWith(`-${files.length}.json`)) ?? '';
const saved = JSON.parse(readFileSync(join(root, savedName), 'utf8')) as {
  grey: string;
}[];
const grey = saved.map((o) => Uint8Array.from(Buffer.from(o.grey, 'base64')));
const baseOf = new Map<string, number>();
files.forEach((f, i) => f.kind === 'base' && baseOf.set(f.sceneSeed, i));
const groups: Record<string, [number, number][]> = { crop: [], plain: [], setting: [], burst: [], other: [] };
files.forEach((f, i) => {
  const base = baseOf.get(f.sceneSeed.replace(/\/setting$/, ''));
  if (base === undefined || base === i) return;
  if (f.kind === 'setting') {
    for (let j = 0; j < files.length; j++)
      if (files[j]!.group === files[base]!.group && (j === base || j % 3 === 0)) groups.setting!.push([j, i]);
  } else if (f.kind === 'burst') groups.burst!.push([base, i]);
  else if (f.box !== undefined || f.kind === 'card-cut') groups.crop!.push([base, i]);
  else groups.plain!.push([base, i]);
});
let s = 12345;
const rnd = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
while (groups.other!.length < 1500) {
  const a = Math.floor(rnd() * files.length);
  const b = Math.floor(rnd() * files.length);
  if (files[a]!.sceneSeed.split('/')[0] !== files[b]!.sceneSeed.split('/')[0]) groups.other!.push([a, b]);
}
const t0 = performance.now();
const results: Record<string, { a: number; b: number; v: VerifiedCrop }[]> = {};
let count = 0;
for (const [name, pairs] of Object.entries(groups)) {
  results[name] = pairs.map(([a, b]) => {
    count++;
    return { a, b, v: alignPair(a, b, grey[a]!, grey[b]!, 32)! };
  });
}
if (process.env.TUNE_KINDS === '1') {
  const byKind = new Map<string, VerifiedCrop[]>();
  for (const r of results.crop!.concat(results.plain!)) {
    const kind = files[r.b]!.kind;
    byKind.set(kind, [...(byKind.get(kind) ?? []), r.v]);
  }
  const failing = (vs: VerifiedCrop[]): string => {
    const d = vs.filter((v) => v.native.detail < VERIFY_MIN_DETAIL).length;
    const s = vs.filter((v) => v.native.residual > VERIFY_MAX_RESIDUAL).length;
    return `native detail < ${VERIFY_MIN_DETAIL}: ${d}, native residual > ${VERIFY_MAX_RESIDUAL}: ${s}`;
  };
  for (const [kind, vs] of byKind) console.log(`  ${kind.padEnd(16)} ${failing(vs)}`);
}
console.log(`aligned ${count} pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const q = (xs: number[], p: number): string =>
  xs.length === 0 ? '-' : [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))]!.toFixed(3);
for (const [name, rs] of Object.entries(results)) {
  const line = (label: string, xs: number[]): string =>
    `${label} p1 ${q(xs, 0.01)} p5 ${q(xs, 0.05)} p50 ${q(xs, 0.5)} p95 ${q(xs, 0.95)} p99 ${q(xs, 0.99)}`;
  console.log(`${name} n ${rs.length}`);
  console.log(`  ${line('detail', rs.map((r) => r.v.detail))} | ${line('residual', rs.map((r) => r.v.residual))}`);
  console.log(`  ${line('native detail', rs.map((r) => r.v.native.detail))} | ${line('native residual', rs.map((r) => r.v.native.residual))}`);
}
const rules: [string, (v: VerifiedCrop) => boolean][] = [];
for (const d of [0.8, 0.85, 0.9]) for (const r of [0.3, 0.35, 0.4, 0.5])
  rules.push([`old d≥${d} r≤${r}`, (v) => v.detail >= d && v.residual <= r]);
for (const d of [0.6, 0.7, 0.8]) for (const r of [0.16, 0.18, 0.2, 0.22])
  rules.push([`native d≥${d} r≤${r}`, (v) => v.native.detail >= d && v.native.residual <= r]);
for (const [label, ok] of rules) {
  const rate = (name: string): string => {
    const rs = results[name]!;
    return `${rs.filter((r) => ok(r.v)).length}/${rs.length}`;
  };
  console.log(`${label.padEnd(22)} crop ${rate('crop')} plain ${rate('plain')} | setting ${rate('setting')} burst ${rate('burst')} other ${rate('other')}`);
}
