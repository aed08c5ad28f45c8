import { archiveSimilarity } from '../analysis/similarity/archive-similarity.service.js';
import { parseNonNegativeInt, printJson, str, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';

export const clustersCommand: Command = {
  name: 'clusters',
  summary: 'near-duplicate clusters across the whole archive (PDQ, rotations/flips, crops)',
  usage: 'custody clusters [--threshold N] [--at TREE-SIZE] [--json]',
  options: { threshold: { type: 'string' }, at: { type: 'string' } },
  async run(args, io) {
    const t = str(args, 'threshold');
    const threshold = t === undefined ? undefined : parseNonNegativeInt(t, '--threshold');
    const s = await withArchive(args, io, 'read', 'clusters', (archive) =>
      archiveSimilarity(archive, threshold === undefined ? {} : { threshold }),
      { at: atOption(args) },
    );
    const clusters = s.clusters.map((c) => ({
      id: c.id,
      objects: c.objects,
      items: c.items,
      max_distance: c.max_distance,
    }));
    if (wantsJson(args)) printJson(io, clusters);
    else {
      for (const c of clusters)
        io.stdout(
          `cluster ${c.id.slice(0, 16)}…  ${c.objects.length} objects, ${c.items.length} items, max distance ${c.max_distance}\n`,
        );
      io.stdout(
        `${clusters.length} clusters over ${s.objects.length} analysed objects (${s.pairs.length} pairs)\n`,
      );
    }
    return 0;
  },
};
