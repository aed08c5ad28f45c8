import { CatalogueLabels, itemText } from '../catalogue/labels.service.js';
import {
  archiveSimilarity,
  greyStepOf,
} from '../analysis/similarity/archive-similarity.service.js';
import { overlapSeenFrom } from '../analysis/similarity/similarity.service.js';
import { ArchiveError } from '../archive/index.js';
import { resolveObject } from '../archive/withdrawal.service.js';
import { parseNonNegativeInt, printJson, str, UsageError, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { objectGreyStepNote } from './grey-step-note.js';

export const similarCommand: Command = {
  name: 'similar',
  summary:
    'objects that look like this one: same image re-encoded, resized, rotated, flipped or cropped',
  usage: 'custody similar <item-id|sha256> [--threshold N] [--at TREE-SIZE] [--json]',
  options: { threshold: { type: 'string' }, at: { type: 'string' } },
  async run(args, io) {
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1)
      throw new UsageError(`name one item or object\nusage: ${this.usage}`);
    const t = str(args, 'threshold');
    const out = await withArchive(args, io, 'read', 'similar', async (archive) => {
      const sha256 = await resolveObject(archive, target);
      const s = await archiveSimilarity(
        archive,
        t === undefined ? {} : { threshold: parseNonNegativeInt(t, '--threshold') },
      );
      if (!s.objects.some((o) => o.sha256 === sha256))
        throw new ArchiveError(
          'NOT_FOUND',
          `object ${sha256} has no perceptual hash (not an analysed image)`,
        );
      const matches = s.pairs
        .filter((p) => p.a === sha256 || p.b === sha256)
        .map((p) => ({
          sha256: p.a === sha256 ? p.b : p.a,
          distance: p.distance,
          kind: p.kind,
          // A verified crop: which is the likely original and the box of it the other shows.
          ...(p.crop === undefined ? {} : { crop: p.crop }),
          // Two views that overlap, neither containing the other: the overlap's box in this
          // object and in the other, and how the other was turned relative to this one.
          ...(p.overlap === undefined ? {} : { overlap: overlapSeenFrom(p.overlap, p.a === sha256) }),
        }))
        .sort((x, y) => x.distance - y.distance || (x.sha256 < y.sha256 ? -1 : 1));
      const labels = await CatalogueLabels.load(archive);
      return {
        sha256,
        cluster: s.clusterOf.get(sha256) ?? null,
        // Whether the grey-descriptor step ran, and whether this object is one that needed it
        // (alone or in a group of at most three): if it did not run, such an object may lack a
        // match with a crop of it cut unevenly and also turned or flipped.
        grey_step: greyStepOf(s.grey, sha256),
        item_labels: labels.object(sha256),
        matches: matches.map((m) => ({
          ...m,
          items: labels.object(m.sha256).map((l) => l.item),
          item_labels: labels.object(m.sha256),
        })),
      };
    }, { at: atOption(args) });
    const note = objectGreyStepNote(out.grey_step);
    if (note !== null) io.stderr(`custody: note: ${note}\n`);
    if (wantsJson(args)) printJson(io, out);
    else {
      if (out.matches.length === 0) io.stdout('No similar objects within the threshold.\n');
      for (const m of out.matches)
        io.stdout(
          `${m.sha256}  distance ${String(m.distance).padStart(3)}  ${m.kind}${cropText(out.sha256, m)}  ${m.item_labels.map((l) => `${itemText(l, l.item)} [${l.item}]`).join('; ')}\n`,
        );
      io.stdout(
        `${out.matches.length} similar objects${out.cluster === null ? '' : ` (cluster ${out.cluster})`}\n`,
      );
    }
    return 0;
  },
};

type Box = { left: number; top: number; right: number; bottom: number };

/** ' (crop of this: left 2.0 %, top 0.0 % … cut)' for a verified crop, else ''. */
function cropText(
  self: string,
  m: { sha256: string; crop?: { original: string; box: Box }; overlap?: { self: Box; other: Box } },
): string {
  const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;
  const span = (b: Box): string =>
    `left ${pct(b.left)}, top ${pct(b.top)}, right ${pct(b.right)}, bottom ${pct(b.bottom)}`;
  if (m.overlap !== undefined)
    return ` (they overlap: here ${span(m.overlap.self)}; there ${span(m.overlap.other)})`;
  if (m.crop === undefined) return '';
  const b = m.crop.box;
  const cut = `cut left ${pct(b.left)}, top ${pct(b.top)}, right ${pct(1 - b.right)}, bottom ${pct(1 - b.bottom)}`;
  return m.crop.original === self ? ` (a crop of this image: ${cut})` : ` (this image is a crop of it: ${cut})`;
}
