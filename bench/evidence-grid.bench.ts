// The evidence grid over 50,000 items (issue 13, "Performance"), in Debian's Chromium with
// --disable-gpu, against the real server (`custody serve`'s buildServer with the built UI, in its
// own process) over the server load bench's enlarged archive, signed in as its investigator:
//  (a) first screen: from the navigation to /evidence until every preview <img> of the cells in
//      view is loaded and decoded (complete, naturalWidth > 0, img.decode() resolved); target < 1.0 s;
//  (b) scrolling at 3,000 px/s, driven by requestAnimationFrame for GRID_SCROLL_SECONDS (10 s):
//      frame times p50/p95/p99/max and dropped frames; target p95 ≤ 20 ms. Twice: from the top,
//      and from item 40,000 (deep offsets of /api/items).
// Previews: the enlarged items are index rows without bytes in the store (see server-load.bench.ts),
// so each of their objects gets the 256 px previews of one of GRID_PHOTOS demo photographs
// (src/demo's planCollection + renderPhoto with the demo's seed, drawn at 1600 px to save minutes),
// made by the server's own ensurePreviews and hard-linked into derived/previews/ under the object's
// digest: the route reads, sends and the browser decodes a real blurred WebP for every item.
// GRID_TRACE=prefix writes a Chromium performance trace of the scroll from the top (prefix.<ui>.json)
// and sums the renderer main thread's CPU time in it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { link, mkdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensurePreviews, previewPaths } from '../src/analysis/image/preview-cache.adapter.js';
import { planCollection, renderPhoto } from '../src/demo/index.js';
import {
  ensureLoadArchive,
  LOAD_ACCOUNT,
  LOAD_ARCHIVE,
  LOAD_WORK,
  startLoadServer,
} from './server-load.bench.js';

const CHROMIUM = '/usr/bin/chromium';

/** 256 px previews for every enlarged object that has none: hard links to the demo photographs'. */
async function ensureGridPreviews(count: number): Promise<string> {
  const db = new Database(join(LOAD_ARCHIVE, 'index.sqlite'), { readonly: true });
  const shas = (db.prepare(`select sha256 from items where id like 'ITEM%' order by seq`).all() as { sha256: string }[]).map((r) => r.sha256);
  db.close();
  const missing = shas.filter((s) => !existsSync(previewPaths(LOAD_ARCHIVE, s, 256).blurred));
  if (missing.length === 0) return `previews: present for all ${shas.length} enlarged objects`;
  const t0 = Date.now();
  const templates = join(LOAD_WORK, 'grid-photos');
  const plan = planCollection({ count, seed: 'custody-demo-1', duplicateRate: 0 });
  const made = [];
  for (const [i, p] of plan.entries()) {
    const scale = 1600 / Math.max(p.width, p.height);
    const small = { ...p, width: Math.round(p.width * scale), height: Math.round(p.height * scale) };
    const key = String(i).padStart(64, '0');
    made.push(await ensurePreviews(templates, () => renderPhoto(small), key, 256, p.exif.orientation));
  }
  for (const [i, sha] of missing.entries()) {
    const from = made[i % made.length]!;
    const to = previewPaths(LOAD_ARCHIVE, sha, 256);
    await mkdir(dirname(to.plain), { recursive: true });
    for (const [a, b] of [[from.plain, to.plain], [from.blurred, to.blurred]] as const)
      if (!existsSync(b)) await link(a, b);
  }
  return `previews: ${count} demo photographs' 256 px previews made and linked for ${missing.length} objects in ${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

async function signIn(browser: Browser, base: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(base);
  await page.getByLabel('Name').fill(LOAD_ACCOUNT.name);
  await page.getByLabel('Password').fill(LOAD_ACCOUNT.password);
  await page.locator('form button[type=submit]').click();
  await page.getByTestId('account-role').waitFor();
  return page;
}

/**
 * In the page: resolves with performance.now() (ms since the navigation started) once every cell
 * in the scroller's view has its item and its preview loaded and decoded.
 */
const FIRST_SCREEN = `new Promise((resolve) => {
  async function check() {
    const el = document.querySelector('[data-testid=evidence-scroller]');
    if (el !== null) {
      const box = el.getBoundingClientRect();
      const cells = [...el.querySelectorAll('[data-testid=evidence-cell]')].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom && r.right > box.left && r.left < box.right;
      });
      const imgs = cells.map((c) => c.querySelector('img'));
      if (cells.length > 0 && imgs.every((i) => i !== null && i.complete && i.naturalWidth > 0)) {
        await Promise.all(imgs.map((i) => i.decode()));
        return resolve({ ms: performance.now(), visible: cells.length });
      }
    }
    requestAnimationFrame(check);
  }
  check();
})`;

function scrollScript(seconds: number, speed: number): string {
  return `new Promise((resolve) => {
    const el = document.querySelector('[data-testid=evidence-scroller]');
    const top0 = el.scrollTop;
    const times = []; let last = performance.now(); const start = last; let cells = 0;
    function frame(now) {
      times.push(now - last); last = now;
      el.scrollTop = top0 + ((now - start) / 1000) * ${speed};
      if (times.length % 30 === 0) cells = Math.max(cells, el.querySelectorAll('[data-testid=evidence-cell]').length);
      if (now - start < ${seconds * 1000}) requestAnimationFrame(frame);
      else resolve({ times, cells, scrolled: el.scrollTop - top0,
        imgs: [...el.querySelectorAll('[data-testid=evidence-cell] img')].filter((i) => i.complete && i.naturalWidth > 0).length });
    }
    requestAnimationFrame(frame);
  })`;
}

/**
 * CPU seconds (user + system, from /proc) used so far by the browser's processes by kind
 * (renderer, gpu-process, utility, browser) and by the server: unlike frame times, what the
 * scroll costs does not depend on how busy the other agents keep this machine.
 */
function cpuByKind(browserPid: number, serverPid: number): Map<string, number> {
  const tick = 100; // USER_HZ
  const out = new Map<string, number>();
  const add = (kind: string, pid: number): void => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(kind, (out.get(kind) ?? 0) + (Number(f[11]) + Number(f[12])) / tick);
    } catch {
      // the process ended meanwhile
    }
  };
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const walk = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      let kind = 'other';
      try {
        kind = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${c}/cmdline`, 'utf8'))?.[1] ?? 'other';
      } catch {
        // gone
      }
      add(kind, c);
      walk(c);
    }
  };
  add('browser', browserPid);
  walk(browserPid);
  add('server', serverPid);
  return out;
}

function cpuLine(before: Map<string, number>, after: Map<string, number>, seconds: number): string {
  const parts = [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0.005);
  return `CPU per second of scrolling: ${parts.map(([k, v]) => `${k} ${(v / seconds).toFixed(2)}`).join(', ')} (cores)`;
}

interface TraceEvent {
  ph?: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { functionName?: string; type?: string } };
}

/**
 * From a Chromium trace: the renderer main thread's CPU time (thread time, so that other agents'
 * load does not inflate it) during the scroll, and where it went (self time by event).
 */
function traceLine(file: string): string {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const wall = new Map<string, number>();
  for (const e of events) if (e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`)) wall.set(`${e.pid}:${e.tid}`, (wall.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...wall].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const label = (e: TraceEvent): string =>
    e.name === 'FunctionCall' || e.name === 'EventDispatch' ? `${e.name} ${e.args?.data?.functionName ?? e.args?.data?.type ?? ''}` : e.name;
  const stack: TraceEvent[] = [];
  let top = 0;
  let frames = 0;
  for (const e of mine) {
    while (stack.length > 0 && stack[stack.length - 1]!.ts + (stack[stack.length - 1]!.dur ?? 0) <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent === undefined) top += e.tdur ?? 0;
    else self.set(label(parent), (self.get(label(parent)) ?? 0) - (e.tdur ?? 0));
    self.set(label(e), (self.get(label(e)) ?? 0) + (e.tdur ?? 0));
    stack.push(e);
    if (e.name === 'FireAnimationFrame') frames++;
  }
  const most = [...self].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k.trim()} ${(v / 1000).toFixed(0)}`);
  return `renderer main thread during the scroll (trace ${file}): ${(top / 1000).toFixed(0)} ms CPU over ${frames} frames (${(top / 1000 / Math.max(1, frames)).toFixed(2)} ms a frame); self time (ms): ${most.join(', ')} ("FunctionCall E" is React's scheduler: renders and effects)`;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

function frameLine(label: string, r: { times: number[]; cells: number; scrolled: number; imgs: number }, requests: number): string {
  const t = r.times.slice(1).sort((a, b) => a - b); // the first is the wait for the first frame
  const interval = 1000 / 60;
  const dropped = r.times.slice(1).reduce((n, d) => n + Math.max(0, Math.round(d / interval) - 1), 0);
  return `${label}: ${t.length} frames, p50 ${pct(t, 0.5).toFixed(1)} ms, p95 ${pct(t, 0.95).toFixed(1)} ms, p99 ${pct(t, 0.99).toFixed(1)} ms, max ${(t.at(-1) ?? NaN).toFixed(1)} ms; dropped frames ${dropped} (of 60 Hz); ${Math.round(r.scrolled)} px scrolled; at most ${r.cells} cells in the DOM; ${requests} requests (/api/items and previews); ${r.imgs} previews decoded in view at the end (target p95 ≤ 20 ms)`;
}

/**
 * The peer of the same run: the same scroll over an empty scroller of the grid's height (no
 * React, no images, no server), i.e. the frame times this machine, under its current load, allows.
 */
async function floorScroll(browser: Browser, browserPid: number, seconds: number): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.setContent(
    `<div data-testid="evidence-scroller" style="height:700px;overflow:auto"><div style="height:2000000px"></div></div>`,
  );
  const cpu0 = cpuByKind(browserPid, 0);
  const r = await page.evaluate<{ times: number[]; cells: number; scrolled: number; imgs: number }>(scrollScript(seconds, 3000));
  const cpu1 = cpuByKind(browserPid, 0);
  await context.close();
  return [frameLine(`peer: an empty scroller, 3,000 px/s for ${seconds} s`, r, 0), `  ${cpuLine(cpu0, cpu1, seconds)}`];
}

/** The list route alone, as the grid calls it (24 items): median of 20 at offset 0 and deep. */
async function listRoute(base: string, n: number): Promise<string> {
  const r = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(LOAD_ACCOUNT),
  });
  const cookie = /custody_session=[^;]+/.exec(r.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const parts: string[] = [];
  for (const offset of [0, 40_000, n - 24]) {
    const ms: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/api/items?limit=24&offset=${offset}`, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/api/items offset ${offset}: ${res.status}`);
      if (i > 0) ms.push(performance.now() - t);
    }
    parts.push(`offset ${offset} ${pct(ms.sort((a, b) => a - b), 0.5).toFixed(1)} ms`);
  }
  return `GET /api/items?limit=24 alone, median of 20: ${parts.join(', ')}`;
}

/** One build of the UI against a fresh server: the first screen `runs` times, then the two scrolls. */
async function measure(browser: Browser, browserPid: number, uiDir: string | undefined, runs: number, seconds: number, n: number): Promise<string[]> {
  const out: string[] = [];
  const { child, base } = await startLoadServer(uiDir);
  try {
    // (a) the first screen, each run in a fresh browser context (no cached bundle or previews).
    const first: number[] = [];
    let visible = 0;
    for (let i = 0; i < runs + 1; i++) {
      const page = await signIn(browser, base);
      await page.goto(`${base}/evidence`);
      const r = await page.evaluate<{ ms: number; visible: number }>(FIRST_SCREEN);
      if (i > 0) first.push(r.ms); // run 0 warms the server (its list cache) and the OS cache
      else out.push(`first screen, fresh server: ${r.ms.toFixed(0)} ms`);
      visible = r.visible;
      await page.context().close();
    }
    const sorted = [...first].sort((a, b) => a - b);
    out.push(
      `first screen (navigation → every preview in view decoded, ${visible} cells in view, 1280×900): median ${pct(sorted, 0.5).toFixed(0)} ms, runs ${first.map((m) => m.toFixed(0)).join(', ')} ms (target < 1,000 ms)`,
    );
    // (b) scrolling from the top, then from item 40,000.
    for (const [label, start] of [['scroll from the top', 0], ['scroll from item 40,000', 40_000]] as const) {
      const page = await signIn(browser, base);
      await page.goto(`${base}/evidence`);
      await page.evaluate(FIRST_SCREEN);
      if (start > 0) {
        await page.evaluate(`(() => { const el = document.querySelector('[data-testid=evidence-scroller]');
          const cols = Number(el.getAttribute('aria-colcount')); el.scrollTop = Math.floor(${start} / cols) * 236; })()`);
        await page.evaluate(FIRST_SCREEN);
      }
      let requests = 0;
      page.on('request', (r) => {
        if (r.url().includes('/api/items')) requests++;
      });
      const trace = process.env.GRID_TRACE === undefined ? undefined : `${process.env.GRID_TRACE}.${basename(dirname(uiDir ?? 'dist/ui'))}-${basename(uiDir ?? 'dist/ui')}.json`;
      if (trace !== undefined && start === 0) await browser.startTracing(page, { path: trace, screenshots: false });
      const cpu0 = cpuByKind(browserPid, child.pid ?? 0);
      const r = await page.evaluate<{ times: number[]; cells: number; scrolled: number; imgs: number }>(scrollScript(seconds, 3000));
      const cpu1 = cpuByKind(browserPid, child.pid ?? 0);
      if (trace !== undefined && start === 0) await browser.stopTracing();
      out.push(frameLine(`${label}, 3,000 px/s for ${seconds} s`, r, requests));
      out.push(`  ${cpuLine(cpu0, cpu1, seconds)}`);
      if (trace !== undefined && start === 0) out.push(`  ${traceLine(trace)}`);
      await page.context().close();
    }
    out.push(...(await floorScroll(browser, browserPid, seconds)));
    out.push(await listRoute(base, n));
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  return out;
}

/**
 * GRID_UI_DIRS=a,b measures other builds of the UI (`vite build --outDir`) in turn, GRID_ROUNDS
 * times (alternating, so that the machine's load falls on each alike); default: dist/ui once.
 */
export async function benchEvidenceGrid(): Promise<string[]> {
  const n = Number(process.env.SERVER_LOAD_ITEMS ?? '50000');
  const runs = Number(process.env.GRID_RUNS ?? '5');
  const seconds = Number(process.env.GRID_SCROLL_SECONDS ?? '10');
  const rounds = Number(process.env.GRID_ROUNDS ?? '1');
  const uiDirs = process.env.GRID_UI_DIRS?.split(',') ?? [undefined];
  if (!existsSync(CHROMIUM)) return [`skipped: no ${CHROMIUM}`];
  if (!existsSync('dist/ui/index.html')) return ['skipped: no dist/ui (npm run build)'];
  const made = await ensureLoadArchive(n);
  const out = [made.line, await ensureGridPreviews(Number(process.env.GRID_PHOTOS ?? '48'))];
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const browserPid = server.process().pid ?? 0;
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    for (let round = 0; round < rounds; round++)
      for (const ui of uiDirs) {
        out.push(`-- UI ${ui ?? 'dist/ui'}${rounds > 1 ? `, round ${round + 1}` : ''} (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores)`);
        for (const line of await measure(browser, browserPid, ui, runs, seconds, n)) out.push(`   ${line}`);
      }
    out.push(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}
