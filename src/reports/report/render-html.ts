// The report model as one self-contained HTML document: no scripts, no external resources (fonts
// are named, charts are inline SVG, thumbnails are data: URIs). Pure and deterministic: the same
// model and chart SVGs give the same bytes. Every string from the model is escaped (html.ts).
import { bagQueries, formatQuery, type Footnote } from './footnotes.js';
import { bidiText, escapeHtml } from './html.js';
import type { Block, Cell, ChartName, Inline, ReportModel, Table } from './model.js';
import { NEEDS_THE_ARCHIVE } from './scope.js';
import { REPORT_CSS } from './styles.js';

/** Charts drawn by charts/render.adapter from the model's rows; null where the model has none. */
export type ChartSvgs = Readonly<Record<ChartName, string | null>>;

/** Marks the one element whose content differs between two runs at the same checkpoint. */
export const GENERATED_MARKER = 'data-volatile="generated"';

export function renderReportHtml(model: ReportModel, charts: ChartSvgs): string {
  const toc = model.sections
    .map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`)
    .join('');
  const sections = model.sections
    .map(
      (s, i) =>
        `<section id="${escapeHtml(s.id)}">\n<h2>${i + 1}. ${escapeHtml(s.title)}</h2>\n${s.blocks.map((b) => block(b, charts)).join('\n')}\n</section>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="${escapeHtml(model.generated.codeVersion)}">
<title>${escapeHtml(`${model.title}: ${model.subtitle}`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(model.title)}</h1>
<p class="subtitle">${bidiText(model.subtitle)}</p>
<p class="generated" ${GENERATED_MARKER}>Generated ${escapeHtml(model.generated.at)} by ${escapeHtml(model.generated.codeVersion)} (template ${escapeHtml(model.template)}).</p>
<nav><ol>${toc}<li><a href="#notes">Notes: reproducing every figure</a></li></ol></nav>
</header>
${sections}
${notesSection(model)}
</body>
</html>
`;
}

function sup(n: number): string {
  return `<sup class="fn"><a href="#fn-${n}">${n}</a></sup>`;
}

function inline(x: Inline): string {
  if (typeof x === 'string') return bidiText(x);
  let body = bidiText(x.text);
  if (x.mono === true) body = `<span class="mono">${body}</span>`;
  if (x.strong === true) body = `<strong>${body}</strong>`;
  if (x.isolate === true) body = `<bdi>${body}</bdi>`;
  if (x.note === undefined) return body;
  if (x.text === '') return sup(x.note);
  const format = x.format === undefined ? '' : ` data-format="${x.format}"`;
  return `<span class="cited" data-fn="${x.note}"${format}>${body}</span>${sup(x.note)}`;
}

function cell(c: Cell): string {
  return typeof c === 'string' || !Array.isArray(c)
    ? inline(c as Inline)
    : (c as readonly Inline[]).map(inline).join('');
}

function tableHtml(t: Table): string {
  if (t.rows.length === 0)
    return `<p class="note">${escapeHtml(t.caption)}: ${escapeHtml(t.empty)}</p>`;
  const cls = (i: number): string => (t.numeric[i] === true ? ' class="num"' : '');
  const head = t.head.map((h, i) => `<th scope="col"${cls(i)}>${escapeHtml(h)}</th>`).join('');
  const rows = t.rows
    .map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${cell(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table>\n<caption>${bidiText(t.caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
}

function block(b: Block, charts: ChartSvgs): string {
  switch (b.kind) {
    case 'p': {
      if (b.style === 'content-warning')
        return `<div class="content-warning" role="note"><p>${b.parts.map(inline).join('')}</p></div>`;
      const cls = b.style === undefined ? '' : ` class="${b.style}"`;
      const volatile = b.volatile === undefined ? '' : ` data-volatile="${b.volatile}"`;
      return `<p${cls}${volatile}>${b.parts.map(inline).join('')}</p>`;
    }
    case 'list':
      return `<ul>${b.items.map((item) => `<li>${item.map(inline).join('')}</li>`).join('')}</ul>`;
    case 'pre':
      return `<pre>${escapeHtml(b.text)}</pre>`;
    case 'h3':
      return `<h3>${bidiText(b.text)}</h3>`;
    case 'table':
      return tableHtml(b);
    case 'chart': {
      const svg = charts[b.chart];
      // The SVG comes from our own Vega renderer (text escaped there); anything else is refused.
      if (svg === null || !svg.startsWith('<svg') || /<script|<foreignObject/i.test(svg)) {
        return `<p class="note">Chart not drawn: ${escapeHtml(b.caption)}${sup(b.note)}</p>`;
      }
      return `<figure role="group">\n${svg}\n<figcaption>${bidiText(b.caption)}${sup(b.note)}</figcaption>\n</figure>`;
    }
    case 'image': {
      if (!/^data:image\/(webp|jpeg|png);base64,[A-Za-z0-9+/=]+$/.test(b.src))
        return `<p class="note">Image omitted: ${escapeHtml(b.alt)}</p>`;
      return `<figure><img class="exhibit" src="${b.src}" alt="${escapeHtml(b.alt)}">\n<figcaption>${b.caption.map(inline).join('')}</figcaption></figure>`;
    }
  }
}

function footnoteHtml(f: Footnote, bagDir: string | undefined): string {
  const note = f.note === null ? '' : ` <span class="note">(${escapeHtml(f.note)})</span>`;
  const bag = bagDir === undefined ? null : bagQueries(f, bagDir);
  const fromBag =
    bag === null
      ? ''
      : `<br>From the bag: <code>${escapeHtml(bag[0])}</code>${f.pointer.endsWith('/length') ? ' (the number of its elements)' : ''}`;
  return `<li id="fn-${f.n}"><code>${escapeHtml(formatQuery(f))}</code>${note}${fromBag}</li>`;
}

function bagIntro(bagDir: string | undefined): string {
  if (bagDir === undefined) return '';
  const [custody, python] = bagQueries({ bag: '<bag file>#<pointer>' }, bagDir) ?? ['', ''];
  return `\n<p>With only the bag <code>${escapeHtml(bagDir)}</code>: a note that says “From the bag” names the file and JSON pointer (RFC 6901) of the same value in the bag, in a command that prints it, re-derives it from the bag's ledger and says whether the two agree. Without Custody, the Python script at the top of the bag (standard library only) takes the same pointer: <code>${escapeHtml(custody)}</code> and <code>${escapeHtml(python)}</code> do the same check. A note without “From the bag” needs the archive (see the sections marked “${escapeHtml(NEEDS_THE_ARCHIVE)}”), unless it says that no archive is needed (an interval computed from two counts the bag holds).</p>`;
}

function notesSection(model: ReportModel): string {
  return `<section id="notes">
<h2>Notes: reproducing every figure</h2>
<p>Each note is a command and a JSON pointer (RFC 6901). Run the command against the archive (with <code>--archive DIR</code> or <code>CUSTODY_ARCHIVE</code> set) and read the value at the pointer in its output; a final <code>/length</code> on an array is its number of elements (jq: <code>length</code>). Commands with <code>--at ${model.checkpointSize}</code> answer as of checkpoint ${model.checkpointSize} whatever was added since.</p>${bagIntro(model.bagDir)}
<ol class="footnotes">
${model.footnotes.map((f) => footnoteHtml(f, model.bagDir)).join('\n')}
</ol>
</section>`;
}
