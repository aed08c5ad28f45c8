// Renders a Vega-Lite spec to SVG on the server: vega-lite compiles it to Vega, vega runs it in a
// headless View (renderer 'none', no DOM, no canvas) and serialises the scenegraph with toSVG().
// This is the only file that loads vega or vega-lite (STYLE.md: wrap the heavy libraries once).
//
// Three things make the output the same bytes every time, on every machine:
//  - text widths are always Vega's estimate, never node-canvas measurements (see pinTextWidths);
//  - Vega numbers clip paths and gradients with module-wide counters, so each render resets them
//    and renders run one at a time;
//  - nothing is fetched: the View's loader refuses every URL (CHART_EXTERNAL_RESOURCE).
import type * as vega from 'vega';
import type { Loader, LoggerInterface } from 'vega';
import { ChartError } from './errors.js';
import type { VegaLiteSpec } from './specs.js';

/**
 * The XML declaration for a standalone .svg file. Without one XML already defaults to UTF-8
 * (XML 1.0 §4.3.3), but saying so costs nothing and guards against tools that guess.
 */
export const SVG_XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** vega-scenegraph's text measurer; exported by vega at run time but absent from its typings. */
interface TextMetrics {
  canvas(use: boolean): void;
}

function isTextMetrics(x: unknown): x is TextMetrics {
  return typeof x === 'object' && x !== null && typeof Reflect.get(x, 'canvas') === 'function';
}

/**
 * Vega measures label widths with node-canvas when `import('canvas')` succeeds and estimates them
 * from the font size otherwise. Widths drive layout, so if any package ever pulled `canvas` into
 * node_modules the SVG would change. Pin the estimate once, before the first render.
 */
function pinTextWidths(vega: VegaModule): void {
  const metrics: unknown = Reflect.get(vega, 'textMetrics');
  if (!isTextMetrics(metrics)) {
    throw new ChartError('CHART_RENDER_FAILED', 'vega no longer exports textMetrics');
  }
  metrics.canvas(false);
}

type VegaModule = typeof import('vega');
interface VegaModules {
  vega: VegaModule;
  compile: (typeof import('vega-lite'))['compile'];
}
let vegaModules: Promise<VegaModules> | null = null;

/**
 * vega and vega-lite (some sixty packages), loaded on the first render rather than when this
 * file is imported, so that commands that draw no chart do not pay for them at start-up.
 */
function loadVega(): Promise<VegaModules> {
  vegaModules ??= Promise.all([import('vega'), import('vega-lite')]).then(
    ([vega, { compile }]) => {
      pinTextWidths(vega);
      return { vega, compile };
    },
    (e: unknown) => {
      vegaModules = null;
      throw e;
    },
  );
  return vegaModules;
}

function describe(args: unknown[]): string {
  return args
    .map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : JSON.stringify(a)))
    .join(' ');
}

/**
 * Keeps warnings and errors instead of printing them; the render fails if there are any. Built
 * from closures, not a class: Vega calls these methods with the View as `this`.
 */
function collectingLogger(problems: string[], warn: number): LoggerInterface {
  let level = warn;
  const logger = {
    level(_?: number): number | LoggerInterface {
      if (_ === undefined) return level;
      level = _;
      return logger;
    },
    error(...args: unknown[]) {
      problems.push(`error: ${describe(args)}`);
      return logger;
    },
    warn(...args: unknown[]) {
      problems.push(`warning: ${describe(args)}`);
      return logger;
    },
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

/** A loader that records and refuses every request, so a render can never reach the network. */
function refusingLoader(requested: string[]): Loader {
  const refuse = (uri: string): Promise<never> => {
    requested.push(uri);
    return Promise.reject(
      new ChartError('CHART_EXTERNAL_RESOURCE', `charts do not load resources: ${uri}`),
    );
  };
  return { load: refuse, sanitize: refuse, http: refuse, file: refuse };
}

/** Far beyond any report chart (tens of milliseconds); only a render that never settles hits it. */
const RENDER_TIMEOUT_MS = 30_000;

/** Renders run one at a time, so one that never settled would wedge every later one. */
function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ChartError('CHART_RENDER_FAILED', `no SVG after ${RENDER_TIMEOUT_MS} ms`));
    }, RENDER_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs renders one after another: Vega's SVG id counters are module-wide. */
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(() => withTimeout(task()));
  queue = run.catch(() => undefined);
  return run;
}

async function renderNow(spec: VegaLiteSpec): Promise<string> {
  const { vega, compile } = await loadVega();
  const problems: string[] = [];
  const logger = collectingLogger(problems, vega.Warn);
  const requested: string[] = [];
  let view: vega.View;
  try {
    const compiled = compile(spec, { logger }).spec;
    view = new vega.View(vega.parse(compiled), {
      renderer: 'none',
      loader: refusingLoader(requested),
      logger,
    });
  } catch (cause) {
    throw new ChartError('CHART_RENDER_FAILED', 'the chart spec does not compile', { cause });
  }
  try {
    vega.resetSVGDefIds();
    const svg = await view.toSVG();
    if (requested.length > 0) {
      throw new ChartError('CHART_EXTERNAL_RESOURCE', 'the chart spec asks to load resources', {
        details: { requested },
      });
    }
    if (problems.length > 0) {
      throw new ChartError('CHART_RENDER_FAILED', problems.join('; '), {
        details: { problems },
      });
    }
    return svg;
  } catch (cause) {
    if (cause instanceof ChartError) throw cause;
    throw new ChartError('CHART_RENDER_FAILED', 'the chart could not be rendered', { cause });
  } finally {
    view.finalize();
  }
}

/**
 * Renders a Vega-Lite spec to an `<svg …>` element: text in UTF-8 as given (Arabic names stay as
 * text, in logical order, for the reader's bidi algorithm to lay out), ready to inline in an HTML
 * report. The same spec always gives the same string. Fails with CHART_RENDER_FAILED if
 * Vega-Lite or Vega reports any warning or error, and with CHART_EXTERNAL_RESOURCE if the spec
 * refers to anything outside itself (data URLs, images).
 */
export function renderSvg(spec: VegaLiteSpec): Promise<string> {
  return oneAtATime(() => renderNow(spec));
}

/** `renderSvg` as a standalone .svg file: the UTF-8 XML declaration, a newline, the element. */
export async function renderSvgDocument(spec: VegaLiteSpec): Promise<string> {
  return `${SVG_XML_DECLARATION}\n${await renderSvg(spec)}`;
}
