import { describe, expect, it } from 'vitest';
import type { DeathsByUnitMonthRow, PrevalenceRow } from './chart-rows.js';
import { ChartError } from './errors.js';
import { SVG_XML_DECLARATION, renderSvg, renderSvgDocument } from './render.adapter.js';
import {
  deathsByUnitMonthSpec,
  PHOTOGRAPH_DATE_LEGEND,
  photosPerCameraPerDaySpec,
  prevalenceChartSpec,
  type VegaLiteSpec,
} from './specs.js';
import { findAll, hasClasses, parseXml, textContent, type XmlElement } from './xml.fixture.js';

const FINDINGS: PrevalenceRow[] = [
  { finding: 'burns', label: 'Burns', proportion: 0.308, lower: 0.255, upper: 0.366, n: 263 },
  { finding: 'ribs', label: 'Rib fractures', proportion: 0.05, lower: 0.02, upper: 0.11, n: 263 },
  {
    finding: 'starvation',
    label: 'علامات التجويع',
    proportion: 0.9,
    lower: 0.85,
    upper: 0.95,
    n: 100,
  },
];

const ARABIC_UNIT = 'فرع فلسطين 235';
const DEATHS: DeathsByUnitMonthRow[] = [
  { unit: ARABIC_UNIT, month: '2013-01', count: 12 },
  { unit: ARABIC_UNIT, month: '2013-02', count: 0 },
  { unit: 'Branch 215', month: '2013-04', count: 4 },
];

/** A spec whose legend Vega draws with a gradient, i.e. with a counter-numbered id. */
const GRADIENT_SPEC: VegaLiteSpec = {
  width: 100,
  height: 100,
  data: { values: [{ a: 1 }, { a: 5 }] },
  mark: 'rect',
  encoding: { color: { field: 'a', type: 'quantitative' } },
};

function markGroups(svg: XmlElement, mark: string): XmlElement[] {
  return findAll(svg, (e) => e.name === 'g' && hasClasses(e, `mark-${mark}`, 'role-mark'));
}

function itemsOf(groups: XmlElement[], tag: string): XmlElement[] {
  return groups.flatMap((g) => findAll(g, (e) => e.name === tag));
}

function texts(svg: XmlElement): string[] {
  return findAll(svg, (e) => e.name === 'text').map(textContent);
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e instanceof ChartError ? e.code : e;
  }
  return 'resolved';
}

describe('renderSvg: prevalence chart', () => {
  it('is a well-formed <svg> with every finding label as text', async () => {
    const svg = await renderSvg(prevalenceChartSpec(FINDINGS, { title: 'Findings' }));
    expect(svg.startsWith('<svg')).toBe(true);
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attributes['xmlns']).toBe('http://www.w3.org/2000/svg');
    const labels = texts(root);
    for (const f of FINDINGS) {
      expect(svg).toContain(f.label);
      expect(labels).toContain(`${f.label} (n = ${f.n})`);
    }
    expect(labels).toContain('Findings');
    expect(labels).toContain('30.8% (25.5%–36.6%)');
  });

  it('draws one error bar per finding, from the lower to the upper bound', async () => {
    const root = parseXml(await renderSvg(prevalenceChartSpec(FINDINGS)));
    const rules = itemsOf(markGroups(root, 'rule'), 'line');
    expect(rules).toHaveLength(FINDINGS.length);
    // 480 px for 0–100%: each rule is (upper − lower) × 480 long.
    const lengths = rules.map((l) => Number(l.attributes['x2']));
    const expected = FINDINGS.map((f) => (f.upper - f.lower) * 480);
    lengths.forEach((len, i) => expect(len).toBeCloseTo(expected[i]!, 6));
    // End ticks (two per bar) and one point per estimate.
    expect(itemsOf(markGroups(root, 'rect'), 'path')).toHaveLength(2 * FINDINGS.length);
    expect(itemsOf(markGroups(root, 'symbol'), 'path')).toHaveLength(FINDINGS.length);
  });
});

describe('renderSvg: deaths by unit and month', () => {
  it('keeps the Arabic unit name verbatim as text, one cell per row', async () => {
    const svg = await renderSvg(deathsByUnitMonthSpec(DEATHS, { title: 'Deaths' }));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain(ARABIC_UNIT);
    const root = parseXml(svg);
    // The exact code points, in logical order, with no bidi controls added: the reader's bidi
    // algorithm lays the name out right to left.
    expect(texts(root)).toContain(ARABIC_UNIT);
    expect(itemsOf(markGroups(root, 'rect'), 'path')).toHaveLength(DEATHS.length);
    const counts = itemsOf(markGroups(root, 'text'), 'text').map(textContent);
    expect(counts).toEqual(['12', '0', '4']);
    expect(texts(root)).toEqual(expect.arrayContaining(['2013-01', '2013-03', 'Branch 215']));
  });

  it('labels 60 months as 20 quarters, and says in the legend which cells use the photograph date', async () => {
    const rows: DeathsByUnitMonthRow[] = Array.from({ length: 60 }, (_, m) => ({
      unit: ARABIC_UNIT,
      month: `${2011 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`,
      count: 1,
      byPhotograph: m === 59 ? 1 : 0,
    }));
    const root = parseXml(await renderSvg(deathsByUnitMonthSpec(rows)));
    const labels = texts(root).filter((t) => /^\d{4}-Q[1-4]$/.test(t));
    expect(labels).toHaveLength(20);
    expect(labels[0]).toBe('2011-Q1');
    expect(labels.at(-1)).toBe('2015-Q4');
    expect(texts(root).some((t) => /^\d{4}-\d{2}$/.test(t))).toBe(false);
    // 20 filled cells, one outlined for the photograph-date fallback.
    expect(itemsOf(markGroups(root, 'rect'), 'path')).toHaveLength(21);
    expect(texts(root)).toEqual(expect.arrayContaining(['Quarter of death', '3', '3*', PHOTOGRAPH_DATE_LEGEND]));
  });

  it('escapes hostile names and keeps them as text', async () => {
    const unit = '<script>alert(1)</script> & "q"';
    const svg = await renderSvg(deathsByUnitMonthSpec([{ unit, month: '2013-01', count: 1 }]));
    const root = parseXml(svg);
    expect(findAll(root, (e) => e.name === 'script')).toHaveLength(0);
    expect(texts(root)).toContain(unit);
  });
});

describe('renderSvg: photographs per camera per day', () => {
  it('draws one bar segment per camera and day, with every camera in the legend', async () => {
    const rows = [
      { camera: 'Canon EOS 5D #0042', day: '2013-05-02', images: 31 },
      { camera: 'Nikon D90', day: '2013-05-02', images: 3 },
      { camera: 'Canon EOS 5D #0042', day: '2013-05-04', images: 7 },
    ];
    const svg = await renderSvg(photosPerCameraPerDaySpec(rows, { title: 'Per day' }));
    const root = parseXml(svg);
    expect(itemsOf(markGroups(root, 'rect'), 'path')).toHaveLength(rows.length);
    expect(texts(root)).toEqual(
      expect.arrayContaining(['Canon EOS 5D #0042', 'Nikon D90', 'Per day', '2013-05-02']),
    );
    expect(await renderSvg(photosPerCameraPerDaySpec(rows, { title: 'Per day' }))).toBe(svg);
  });
});

describe('renderSvg: determinism', () => {
  it('gives byte-identical SVG for the same spec, whatever was rendered in between', async () => {
    const prevalence = prevalenceChartSpec(FINDINGS);
    const deaths = deathsByUnitMonthSpec(DEATHS);
    const first = await renderSvg(prevalence);
    const other = await renderSvg(deaths);
    expect(await renderSvg(prevalence)).toBe(first);
    expect(await renderSvg(deathsByUnitMonthSpec(DEATHS))).toBe(other);
  });

  it('puts no ids in the report charts, so several can share one HTML page', async () => {
    for (const spec of [prevalenceChartSpec(FINDINGS), deathsByUnitMonthSpec(DEATHS)]) {
      const root = parseXml(await renderSvg(spec));
      expect(findAll(root, (e) => 'id' in e.attributes)).toEqual([]);
    }
  });

  it('numbers gradient ids the same way even when renders overlap', async () => {
    const alone = await renderSvg(GRADIENT_SPEC);
    expect(alone).toContain('id="gradient_0"');
    const together = await Promise.all([
      renderSvg(GRADIENT_SPEC),
      renderSvg(prevalenceChartSpec(FINDINGS)),
      renderSvg(GRADIENT_SPEC),
    ]);
    expect(together[0]).toBe(alone);
    expect(together[2]).toBe(alone);
  });
});

describe('renderSvgDocument', () => {
  it('declares UTF-8 ahead of the same <svg> element', async () => {
    const spec = deathsByUnitMonthSpec(DEATHS);
    const doc = await renderSvgDocument(spec);
    expect(doc).toBe(`${SVG_XML_DECLARATION}\n${await renderSvg(spec)}`);
    expect(doc.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(textContent(parseXml(doc))).toContain(ARABIC_UNIT);
    // Round trip through UTF-8 bytes, as a file would.
    expect(Buffer.from(doc, 'utf8').toString('utf8')).toBe(doc);
  });
});

describe('renderSvg: refusals', () => {
  it('never downloads: a data URL is refused with CHART_EXTERNAL_RESOURCE', async () => {
    const spec: VegaLiteSpec = {
      data: { url: 'https://example.org/deaths.csv' },
      mark: 'bar',
      encoding: { x: { field: 'a', type: 'quantitative' } },
    };
    expect(await rejection(renderSvg(spec))).toBe('CHART_EXTERNAL_RESOURCE');
  });

  it('treats a Vega-Lite warning (a dropped encoding) as CHART_RENDER_FAILED', async () => {
    const spec: VegaLiteSpec = {
      data: { values: [{ a: 1 }] },
      mark: 'bar',
      encoding: { x: { field: 'a', type: 'quantitative' }, shape: { field: 'a', type: 'nominal' } },
    };
    expect(await rejection(renderSvg(spec))).toBe('CHART_RENDER_FAILED');
  });

  it('keeps rendering after a failure', async () => {
    await rejection(renderSvg({ mark: 'bar', data: { url: 'x.csv' } }));
    expect((await renderSvg(prevalenceChartSpec(FINDINGS))).startsWith('<svg')).toBe(true);
  });
});

describe('renderSvg: time', () => {
  it('renders report-sized charts in well under a second each', async () => {
    const findings = Array.from({ length: 40 }, (_, i) => ({
      ...FINDINGS[i % 3]!,
      finding: `f${i}`,
      label: `${FINDINGS[i % 3]!.label} ${i}`,
    }));
    const deaths = Array.from({ length: 30 * 36 }, (_, i) => ({
      unit: i % 30 === 0 ? ARABIC_UNIT : `Branch ${i % 30}`,
      month: `${2011 + Math.floor(i / 30 / 12)}-${String((Math.floor(i / 30) % 12) + 1).padStart(2, '0')}`,
      count: (i * 7) % 23,
    }));
    await renderSvg(prevalenceChartSpec(FINDINGS)); // warm the module
    const t0 = performance.now();
    const a = await renderSvg(prevalenceChartSpec(findings));
    const t1 = performance.now();
    const b = await renderSvg(deathsByUnitMonthSpec(deaths));
    const t2 = performance.now();
    expect(itemsOf(markGroups(parseXml(a), 'rule'), 'line')).toHaveLength(40);
    // 36 months are drawn as 12 quarters (deathBins).
    expect(itemsOf(markGroups(parseXml(b), 'rect'), 'path')).toHaveLength(30 * 12);
    // Generous bounds for a loaded CI machine; typical times are tens of milliseconds.
    expect(t1 - t0).toBeLessThan(2000);
    expect(t2 - t1).toBeLessThan(2000);
  });
});
