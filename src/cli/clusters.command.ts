import { CatalogueLabels, itemText } from '../catalogue/labels.service.js';
import { archiveSimilarity } from '../analysis/similarity/archive-similarity.service.js';
import { parseNonNegativeInt, printJson, str, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { greyStepNote } from './grey-step-note.js';

export const clustersCommand: Command = {
  name: 'clusters',
  summary: 'near-duplicate clusters across the whole archive (PDQ, rotations/flips, crops)',
  usage: 'custody clusters [--threshold N] [--at TREE-SIZE] [--json]',
  options: { threshold: { type: 'string' }, at: { type: 'string' } },
  async run(args, io) {
    const t = str(args, 'threshold');
    const threshold = t === undefined ? undefined : parseNonNegativeInt(t, '--threshold');
    const { s, labels } = await withArchive(args, io, 'read', 'clusters', async (archive) => ({
      s: await archiveSimilarity(archive, threshold === undefined ? {} : { threshold }),
      labels: await CatalogueLabels.load(archive),
    }),
      { at: atOption(args) },
    );
    const clusters = s.clusters.map((c) => ({
      id: c.id,
      objects: c.objects,
      items: c.items,
      max_distance: c.max_distance,
      item_labels: c.items.map((i) => labels.item(i)),
    }));
    const note = greyStepNote(s.grey);
    if (note !== null) io.stderr(`custody: note: ${note}\n`);
    if (wantsJson(args)) printJson(io, clusters);
    else {
      if (clusters.length === 0) io.stdout('No near-duplicate clusters: no two analysed images are within the threshold.\n');
      for (const c of clusters) {
        io.stdout(
          `cluster ${c.id.slice(0, 16)}…  ${c.objects.length} objects, ${c.items.length} items, max distance ${c.max_distance}\n`,
        );
        for (const [n, i] of c.items.entries()) io.stdout(`    ${itemText(c.item_labels[n] ?? null, i)}  [${i}]\n`);
      }
      io.stdout(
        `${clusters.length} clusters over ${s.objects.length} analysed objects (${s.pairs.length} pairs)\n`,
      );
    }
    return 0;
  },
};
