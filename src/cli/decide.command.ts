import { archiveSimilarity } from '../analysis/similarity/archive-similarity.service.js';
import { ArchiveError } from '../archive/index.js';
import { resolveObject } from '../archive/withdrawal.service.js';
import { flag, printJson, str, UsageError, type Command } from './command.js';
import { wantsJson, withArchive } from './context.js';

const DECISIONS = ['same-image', 'same-subject', 'different'] as const;

export const decideCommand: Command = {
  name: 'decide',
  summary:
    "record an examiner's decision on a pair or a cluster: same image, same subject, or different",
  usage:
    'custody decide (<item|sha256> <item|sha256>… | --cluster ID) (--same-image | --same-subject | --different) [--note TEXT] [--json]',
  options: {
    cluster: { type: 'string' },
    'same-image': { type: 'boolean' },
    'same-subject': { type: 'boolean' },
    different: { type: 'boolean' },
    note: { type: 'string' },
  },
  async run(args, io) {
    const chosen = DECISIONS.filter((d) => flag(args, d));
    if (chosen.length !== 1)
      throw new UsageError(
        `say exactly one of --same-image, --same-subject, --different\nusage: ${this.usage}`,
      );
    const decision = chosen[0] ?? 'different';
    const clusterId = str(args, 'cluster');
    if ((clusterId === undefined) === args.positionals.length < 2) {
      if (clusterId === undefined)
        throw new UsageError(
          `name two or more items or objects, or --cluster ID\nusage: ${this.usage}`,
        );
      throw new UsageError(`name either objects or --cluster, not both\nusage: ${this.usage}`);
    }
    const out = await withArchive(args, io, 'write', 'decide', async (archive) => {
      let objects: string[];
      if (clusterId !== undefined) {
        const cluster = (await archiveSimilarity(archive)).clusters.find((c) => c.id === clusterId);
        if (cluster === undefined)
          throw new ArchiveError(
            'NOT_FOUND',
            `no cluster ${clusterId} (cluster ids change when their members do: run \`custody clusters\`)`,
          );
        objects = cluster.objects;
      } else {
        objects = [
          ...new Set(await Promise.all(args.positionals.map((t) => resolveObject(archive, t)))),
        ].sort();
        for (const o of objects)
          if ((await archive.index.getObject(o)) === undefined)
            throw new ArchiveError('NOT_FOUND', `no object ${o}`);
        if (objects.length < 2) throw new UsageError('a decision needs two different objects');
      }
      // "Same subject" (several photographs of one body) comes only from such decisions, never from PDQ.
      const [e] = await archive.commit([
        {
          actor: archive.config.actor,
          type: 'decision',
          items: [],
          objects,
          details: {
            subject: clusterId === undefined ? 'objects' : `cluster:${clusterId}`,
            decision,
            note: str(args, 'note') ?? null,
          },
        },
      ]);
      return { seq: e?.entry.seq ?? -1, decision, objects };
    });
    if (wantsJson(args)) printJson(io, out);
    else
      io.stdout(`decision entry ${out.seq}: ${out.decision} for ${out.objects.length} objects\n`);
    return 0;
  },
};
