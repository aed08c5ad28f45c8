// The collection, authenticity and catalogue sections: what was received, from whom (by codename),
// by which cameras and when, what repeats, what the indicators point at, and who is catalogued.
import {
  deathBins,
  MAX_DEATH_BINS,
  type DeathsByUnitMonthRow,
  type PhotosPerCameraDayRow,
} from '../charts/index.js';
import { table, type CiteContext } from './cite.js';
import { pointer as ptr } from './footnotes.js';
import type { FileLabel, ReportInput, SubjectLabel } from './input.js';
import type { Block, Inline, ReportTemplate, Section } from './model.js';

/** Vega's category10 gives ten cameras distinct colours (charts/specs.ts). */
const MAX_CHART_CAMERAS = 10;

export function collectionSection(
  c: CiteContext,
  input: ReportInput,
  template: ReportTemplate,
): { section: Section; perDay: PhotosPerCameraDayRow[] | null } {
  const deliveries = c.at('deliveries');
  const summary = c.at('authenticity', '--summary');
  const clusters = c.at('clusters');
  const sources = [...new Set(input.deliveries.map((d) => d.source))].sort();
  const blocks: Block[] = [
    {
      kind: 'p',
      parts: [
        'At this checkpoint the archive held ',
        c.value(c.at('items'), '/length', input.itemCount),
        ' items, received in ',
        c.value(deliveries, '/length', input.deliveries.length),
        ' deliveries. Sources are named by codename only; their identities are sealed in the archive and appear nowhere in this report.',
      ],
    },
    {
      kind: 'p',
      parts: ['Sources (codenames): ', { text: sources.join(', ') || 'none', strong: true }, '.'],
    },
    table(
      'Deliveries',
      [
        ['Delivery', 'text'],
        ['Source', 'text'],
        ['Opened', 'text'],
        ['Status', 'text'],
        ['Items', 'number'],
      ],
      input.deliveries.map((d, i) => [
        { text: d.id, mono: true },
        d.source,
        d.opened_at,
        d.closed ? 'complete' : 'interrupted',
        c.value(deliveries, ptr(i, 'items'), d.items),
      ]),
      'No deliveries.',
    ),
    { kind: 'h3', text: 'Cameras' },
    table(
      'Camera bodies (EXIF make, model and body serial) and the dates of their first and last photograph',
      [
        ['Camera', 'text'],
        ['Images', 'number'],
        ['First (DateTimeOriginal)', 'text'],
        ['Last', 'text'],
      ],
      input.authenticity.cameras.map((cam, i) => [
        [cam.make, cam.model, cam.bodySerial === null ? null : `#${cam.bodySerial}`]
          .filter((x) => x !== null)
          .join(' ') || 'unknown camera',
        c.value(summary, ptr('cameras', i, 'images'), cam.images),
        cam.first === null ? 'undated' : c.value(summary, ptr('cameras', i, 'first'), cam.first),
        cam.last === null ? 'undated' : c.value(summary, ptr('cameras', i, 'last'), cam.last),
      ]),
      'No analysed images (run `custody analyze`).',
    ),
  ];
  const rows = input.authenticity.perCameraPerDay;
  const cameras = new Set(rows.map((r) => r.camera)).size;
  let perDay: PhotosPerCameraDayRow[] | null = null;
  if (rows.length > 0 && cameras <= MAX_CHART_CAMERAS) {
    perDay = rows.map((r) => ({ camera: r.camera, day: r.day, images: r.images }));
    blocks.push({
      kind: 'chart',
      chart: 'perDay',
      caption:
        "Photographs per camera per day: each bar spans its day, from that date's tick to the next (the date the camera recorded, without time-zone conversion)",
      note: c.whole(summary, '/perCameraPerDay', rows),
    });
  } else if (rows.length > 0) {
    blocks.push({
      kind: 'p',
      style: 'note',
      parts: [
        `${cameras} cameras are too many to tell apart by colour; the table below lists every day.`,
      ],
    });
  }
  if (template === 'tribunal' || perDay === null) {
    blocks.push(
      table(
        'Photographs per camera per day',
        [
          ['Camera', 'text'],
          ['Day', 'text'],
          ['Images', 'number'],
        ],
        rows.map((r, i) => [
          r.camera,
          r.day,
          c.value(summary, ptr('perCameraPerDay', i, 'images'), r.images),
        ]),
        'No dated photographs.',
      ),
    );
  }
  blocks.push(
    { kind: 'h3', text: 'Duplicates and near-duplicates' },
    table(
      'Objects (identical bytes) received as more than one item',
      [
        ['SHA-256', 'text'],
        ['Items', 'number'],
      ],
      input.duplicates.map((d) => [
        { text: d.sha256, mono: true },
        c.value(c.at('show', d.sha256), '/items/length', d.items),
      ]),
      'Every object was received once.',
    ),
    {
      kind: 'p',
      parts: [
        c.value(clusters, '/length', input.clusters.length),
        ' clusters of near-duplicate images (the same picture re-encoded, resized, rotated, flipped or cropped; PDQ perceptual hashes).',
      ],
    },
    ...greyStepWarning(c, input.greyStep),
    table(
      'Near-duplicate clusters',
      [
        ['Cluster', 'text'],
        ['Objects', 'number'],
        ['Items', 'number'],
        ['Max. distance', 'number'],
      ],
      input.clusters.map((k, i) => [
        { text: `${k.id.slice(0, 16)}…`, mono: true },
        c.value(clusters, ptr(i, 'objects', 'length'), k.objects),
        c.value(clusters, ptr(i, 'items', 'length'), k.items),
        c.value(clusters, ptr(i, 'max_distance'), k.max_distance),
      ]),
      'No near-duplicate clusters.',
    ),
  );
  return { section: { id: 'collection', title: 'Collection', blocks }, perDay };
}

/**
 * When the near-duplicate search's grey-descriptor step did not run (too many objects needed it),
 * a warning that the clusters may lack crops cut unevenly and also turned or flipped, with the
 * counts cited to `custody similar` for one of the objects that needed it.
 */
function greyStepWarning(c: CiteContext, grey: ReportInput['greyStep']): Block[] {
  if (grey.ran) return [];
  const cite = (ptr: string, value: number): Inline =>
    grey.example === null ? String(value) : c.value(c.at('similar', grey.example), ptr, value);
  return [
    {
      kind: 'p',
      style: 'warning',
      parts: [
        { text: 'Not every crop was looked for. ', strong: true },
        'The grey-descriptor step of the near-duplicate search did not run: ',
        cite('/grey_step/objects_needing_it', grey.needing),
        ' analysed images were alone or in a group of at most three, more than the ',
        cite('/grey_step/limit', grey.limit),
        ' it takes. A crop cut unevenly and also turned or flipped, which only that step finds, may be missing from these clusters.',
      ],
    },
  ];
}

export function authenticitySection(
  c: CiteContext,
  input: ReportInput,
  template: ReportTemplate,
): Section {
  const a = input.authenticity;
  const blocks: Block[] = [
    {
      kind: 'p',
      style: 'warning',
      parts: [{ text: 'These are indicators, not verdicts. ', strong: true }, a.disclaimer],
    },
    {
      kind: 'p',
      parts: [
        c.value(c.at('authenticity', '--summary'), '/anomalies/length', a.flagged.length),
        ' images show at least one indicator. Each is judged against the rest of this collection, as of the checkpoint; the appendix defines every indicator and its innocent explanations.',
      ],
    },
  ];
  if (template === 'tribunal') {
    // Each explanation ends with the disclaimer (as `custody authenticity SHA` prints it); the
    // section states it once, above, instead of on every row.
    const bare = (e: string): string =>
      e.endsWith(a.disclaimer) ? e.slice(0, e.length - a.disclaimer.length).trimEnd() : e;
    blocks.push(
      table(
        'Images with indicators',
        [
          ['File (item): subject shown', 'text'],
          ['SHA-256', 'text'],
          ['Indicators', 'number'],
          ['Codes and explanations', 'text'],
        ],
        a.flagged.map((f) => [
          filesParts(f.files ?? f.items.map((item) => ({ item, name: item, subject: null }))),
          { text: `${f.sha256.slice(0, 16)}…`, mono: true },
          c.value(c.at('authenticity', f.sha256), '/indicators/length', f.indicators.length),
          f.indicators.map((i) => `${i.code}: ${bare(i.explanation)}`).join(' '),
        ]),
        'No image shows an indicator.',
      ),
    );
  }
  return { id: 'authenticity', title: 'Authenticity indicators', blocks };
}

type Counts = ReportInput['subjects'];

function unitLabel(r: Counts['by_unit'][number]): string {
  if (r.name_en === null && r.name_ar === null)
    return r.unit === 'unattributed' ? 'no unit recorded' : r.unit;
  return [r.name_en, r.name_ar].filter((x) => x !== null).join(' — ');
}

/** Chart rows: dated months only, each unit under one label (its Arabic name where it has one). */
function deathsRows(counts: Counts): DeathsByUnitMonthRow[] {
  const labels = new Map<string, string>();
  const used = new Set<string>();
  for (const u of counts.by_unit) {
    let l = u.name_ar ?? u.name_en ?? (u.unit === 'unattributed' ? 'no unit recorded' : u.unit);
    if (used.has(l)) l = `${l} (${u.unit})`;
    used.add(l);
    labels.set(u.unit, l);
  }
  return counts.by_unit_month
    .filter((r) => /^\d{4}-\d{2}$/.test(r.month))
    .map((r) => ({
      unit: labels.get(r.unit) ?? r.unit,
      month: r.month,
      count: r.count,
      ...(r.by_photograph === undefined ? {} : { byPhotograph: r.by_photograph }),
    }));
}

export function catalogueSection(
  c: CiteContext,
  input: ReportInput,
): { section: Section; deaths: DeathsByUnitMonthRow[] | null } {
  const s = input.subjects;
  const q = c.at('unit', 'counts');
  const deaths = deathsRows(s);
  const blocks: Block[] = [
    {
      kind: 'p',
      parts: [
        c.value(q, '/subjects', s.subjects),
        ' subjects (people as catalogued; merged records counted once) at this checkpoint.',
      ],
    },
    table(
      'Subjects by unit',
      [
        ['Unit', 'text'],
        ['Subjects', 'number'],
      ],
      s.by_unit.map((r, i) => [unitLabel(r), c.value(q, ptr('by_unit', i, 'count'), r.count)]),
      'No subjects catalogued.',
    ),
    table(
      'Subjects by month (of death, else of photography)',
      [
        ['Month', 'text'],
        ['Subjects', 'number'],
      ],
      s.by_month.map((r, i) => [r.month, c.value(q, ptr('by_month', i, 'count'), r.count)]),
      'No subjects catalogued.',
    ),
  ];
  if (deaths.length > 0) {
    const byPhoto = deaths.reduce((n, r) => n + (r.byPhotograph ?? 0), 0);
    const { bin } = deathBins(deaths.map((r) => r.month));
    blocks.push({
      kind: 'chart',
      chart: 'deaths',
      caption: `Deaths by unit and ${bin} of death${bin === 'month' ? '' : ` (more than ${MAX_DEATH_BINS} months: one column per ${bin})`}. ${
        byPhoto === 0
          ? 'Every subject drawn has a recorded date of death.'
          : `${byPhoto} subject${byPhoto === 1 ? ' has' : 's have'} no recorded date of death and ${byPhoto === 1 ? 'is' : 'are'} counted in the month the photograph was taken (cells marked * and outlined).`
      } Subjects with neither date are not drawn.`,
      note: c.whole(q, '/by_unit_month', s.by_unit_month),
    });
  }
  return {
    section: { id: 'catalogue', title: 'Catalogue', blocks },
    deaths: deaths.length > 0 ? deaths : null,
  };
}

/** A unit (security branch) as runs: Arabic and English names each isolated, then its code. */
function branchParts(u: SubjectLabel['unit']): Inline[] {
  if (u === null) return ['no security branch recorded'];
  const out: Inline[] = [];
  if (u.name_ar !== null && u.name_ar !== '') out.push({ text: u.name_ar, isolate: true }, ' / ');
  out.push({ text: u.name_en, isolate: true });
  if (u.code !== null) out.push(` (${u.code})`);
  return out;
}

/**
 * "subject ‏١٠٠٠/٢٤٨/٥٠٠٠ (1000/248/5000), security branch فرع المداهمة ٢١٥ / Raid Branch (215)":
 * the number as read from the card and as normalised, and the branch, each value a bidi isolate of
 * its own so that an Arabic number never swaps places with the branch name beside it.
 */
export function subjectParts(s: SubjectLabel | null | undefined): Inline[] {
  if (s === null || s === undefined) return ['no subject linked'];
  const out: Inline[] = ['subject '];
  const raw = s.numberRaw === null ? null : s.numberRaw.trim();
  if (raw !== null && raw !== '') {
    out.push({ text: raw, isolate: true });
    if (s.number !== null && s.number !== raw.replace(/[\u200e\u200f\u061c]/g, ''))
      out.push(' (', { text: s.number, isolate: true }, ')');
  } else if (s.number !== null) {
    out.push({ text: s.number, isolate: true });
  } else {
    out.push({ text: s.id, mono: true }, ' (no number)');
  }
  out.push(', security branch ', ...branchParts(s.unit));
  return out;
}

/** "IMG_0007.JPG (I7): subject …; copy.jpg (I31): no subject linked". */
function filesParts(files: readonly FileLabel[]): Inline[] {
  const out: Inline[] = [];
  files.forEach((f, i) => {
    if (i > 0) out.push('; ');
    out.push({ text: f.name, isolate: true }, ' (', { text: f.item, mono: true }, ')');
    if (f.subject !== null) out.push(': ', ...subjectParts(f.subject));
  });
  return out.length === 0 ? ['no item'] : out;
}

/** What an exhibit shows, for its row in the exhibits table and its image caption. */
export function exhibitShows(e: ReportInput['exhibits'][number]): Inline[] {
  return subjectParts(e.subject);
}

const CONTENT_WARNING =
  'Content warning: the next pages show photographs of dead people, some with injuries. ';

/** On the cover when the report carries images: how many, and whether they are blurred. */
export function imagesNotice(input: ReportInput): Block | null {
  const shown = input.exhibits.filter((e) => e.thumbnail !== null).length;
  if (input.images === undefined || input.images === 'none' || shown === 0) return null;
  return input.images === 'unblurred'
    ? {
        kind: 'p',
        style: 'warning',
        parts: [
          { text: 'Images are shown unblurred. ', strong: true },
          `This report embeds ${shown} exhibit thumbnail${shown === 1 ? '' : 's'} as the original photographs show them (custody report --include-images --unblurred-images), after a content warning.`,
        ],
      }
    : {
        kind: 'p',
        style: 'note',
        parts: [
          `This report embeds ${shown} exhibit thumbnail${shown === 1 ? '' : 's'}, blurred and in greyscale (custody report --include-images), after a content warning; the originals are in the archive.`,
        ],
      };
}

/**
 * The exhibits' thumbnails, each captioned with its file, subject, number and branch, behind a
 * content warning that in print stands on a page of its own before the first image.
 */
export function exhibitImageBlocks(input: ReportInput): Block[] {
  const blocks: Block[] = [];
  const shown = input.exhibits.filter((e) => e.thumbnail !== null).length;
  if (shown > 0) {
    const blurred = input.images !== 'unblurred';
    blocks.push({
      kind: 'p',
      style: 'content-warning',
      parts: [
        { text: CONTENT_WARNING, strong: true },
        blurred
          ? `The ${shown} thumbnail${shown === 1 ? ' is' : 's are'} blurred and in greyscale; the originals are in the archive.`
          : `The ${shown} thumbnail${shown === 1 ? ' is' : 's are'} shown unblurred, as the photographs are.`,
      ],
    });
  }
  input.exhibits.forEach((e, i) => {
    if (e.thumbnailWithheld !== undefined) {
      blocks.push({ kind: 'p', style: 'note', parts: [`E${i + 1}: no image shown: ${e.thumbnailWithheld}.`] });
    }
    if (e.thumbnail !== null) {
      blocks.push({
        kind: 'image',
        src: e.thumbnail,
        alt: `Exhibit E${i + 1}, item ${e.item}${input.images === 'unblurred' ? '' : ' (blurred)'}`,
        caption: [
          `E${i + 1}: `,
          { text: e.name, isolate: true },
          ' (',
          { text: e.item, mono: true },
          '), ',
          ...exhibitShows(e),
          input.images === 'unblurred' ? '.' : '. Blurred.',
        ],
      });
    }
  });
  return blocks;
}
