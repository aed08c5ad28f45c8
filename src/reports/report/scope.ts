// `report --bag`: what a reader holding only the bag can reproduce. The figures of a sampling plan
// the bag carries (data/tables/statistics-<id>.json) and the checkpoint are footnoted with their
// place in the bag; the sections built from the whole collection (cameras, clusters, authenticity
// judged against every image, the catalogue, the archive's own verification) cannot come from a
// selection, and each says so at its top, in the same words, rather than being silently restricted.
import type { StatisticsReport } from '../../examination/statistics/index.js';
import type { ReportBag } from './bag.js';
import type { Block, Section } from './model.js';

/** The mark on a section whose figures need the archive. */
export const NEEDS_THE_ARCHIVE = 'Needs the archive: not reproducible from the bag.';

export function needsTheArchive(
  section: Section,
  bagDir: string,
  items?: readonly string[],
): Section {
  const why =
    items === undefined
      ? ` The figures in this section are computed over the whole collection at the checkpoint, not over the selection exported in the bag ${bagDir}; their footnotes are commands on the archive.`
      : ` Exhibit(s) ${items.join(', ')} are not exported in the bag ${bagDir}; their footnotes are commands on the archive. The others' inclusion proofs are also in the bag (custody/proofs/).`;
  const mark: Block = {
    kind: 'p',
    style: 'warning',
    parts: [{ text: NEEDS_THE_ARCHIVE, strong: true }, why],
  };
  return { ...section, blocks: [mark, ...section.blocks] };
}

/** The methodology and findings sections with --bag: which plans the bag lets a reader reproduce. */
export function bagScope(
  section: Section,
  bag: ReportBag | null,
  statistics: readonly StatisticsReport[],
  fileOf: (s: StatisticsReport) => string | null,
): Section {
  if (bag === null || statistics.length === 0) return section;
  const blocks: Block[] = statistics.map((s) => {
    const file = fileOf(s);
    return file === null
      ? {
          kind: 'p',
          style: 'warning',
          parts: [
            { text: NEEDS_THE_ARCHIVE, strong: true },
            ` The bag ${bag.dir} carries no statistics of sample “${s.sample.name}” (none of its cases is exported), so its figures are footnoted with commands on the archive only.`,
          ],
        }
      : {
          kind: 'p',
          style: 'note',
          parts: [
            `Reproducible from the bag: each figure of sample “${s.sample.name}” is also footnoted with its cell of `,
            { text: file, mono: true },
            ` in the bag ${bag.dir}, which the bag's own verifiers re-derive from its ledger.`,
          ],
        };
  });
  return { ...section, blocks: [...blocks, ...section.blocks] };
}
