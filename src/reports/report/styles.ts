// The report's stylesheet: A4 pages, table headers repeated on every page, rows never split, and
// fonts named (never fetched): Noto Sans for Latin, Noto Naskh Arabic / Noto Sans Arabic for
// Arabic, DejaVu Sans wherever Noto is not installed. scripts/install-system-deps.sh installs them.

export const FONT_STACK =
  '"Noto Sans", "Noto Naskh Arabic", "Noto Sans Arabic", "DejaVu Sans", sans-serif';
const ARABIC_STACK = '"Noto Naskh Arabic", "Noto Sans Arabic", "DejaVu Sans", sans-serif';
const MONO_STACK = '"DejaVu Sans Mono", "Noto Sans Mono", monospace';

export const REPORT_CSS = `
@page { size: A4; margin: 16mm 14mm 18mm 14mm; }
html { font-family: ${FONT_STACK}; font-size: 9.5pt; line-height: 1.4; color: #111; background: white; }
body { margin: 0; }
[lang="ar"] { font-family: ${ARABIC_STACK}; }
[dir] { unicode-bidi: isolate; }
h1 { font-size: 20pt; margin: 0 0 2pt; }
h2 { font-size: 13.5pt; margin: 16pt 0 6pt; padding-bottom: 2pt; border-bottom: 1pt solid #1f4e79; color: #1f4e79; break-after: avoid; }
h3 { font-size: 11pt; margin: 10pt 0 4pt; break-after: avoid; }
p, li { orphans: 2; widows: 2; }
.subtitle { font-size: 11pt; margin: 0 0 4pt; }
.generated { color: #444; margin: 0 0 8pt; }
nav ol { columns: 2; margin: 4pt 0 8pt; }
.warning { border-left: 3pt solid #a33; padding: 2pt 0 2pt 6pt; }
.note { color: #444; font-style: italic; }
.content-warning { border: 2pt solid #a33; padding: 12pt 14pt; margin: 12pt 0; font-size: 12pt; }
@media print { .content-warning { break-before: page; break-after: page; margin-top: 40mm; } }
.mono, code, pre { font-family: ${MONO_STACK}; font-size: 7.5pt; }
.mono { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; padding: 4pt 6pt; break-inside: avoid; }
table { width: 100%; border-collapse: collapse; margin: 4pt 0 10pt; }
caption { text-align: left; font-weight: bold; padding: 2pt 0; caption-side: top; }
thead { display: table-header-group; }
tfoot { display: table-footer-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th { text-align: left; border-bottom: 1pt solid #333; padding: 2pt 4pt; font-size: 8.5pt; }
td { border-bottom: 0.5pt solid #ccc; padding: 2pt 4pt; vertical-align: top; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
sup.fn { font-size: 6.5pt; line-height: 0; margin-left: 0.1em; }
sup.fn a { color: #1f4e79; text-decoration: none; }
figure { margin: 6pt 0 10pt; break-inside: avoid; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 8.5pt; color: #333; }
img.exhibit { max-width: 256px; border: 0.5pt solid #999; }
ol.footnotes { font-size: 8pt; padding-left: 22pt; }
ol.footnotes li { break-inside: avoid; }
ol.footnotes code { overflow-wrap: anywhere; }
`;
