import { readFile } from 'node:fs/promises';
import { defineScheme } from '../catalogue/subjects/subjects.service.js';
import { printJson, UsageError, type Command } from './command.js';
import { operationContext, wantsJson, withArchive } from './context.js';

export const schemeCommand: Command = {
  name: 'scheme',
  summary:
    'numbering schemes: how the numbers on bodies and cards are written (see src/catalogue/numbering/README.md)',
  usage: 'custody scheme add FILE.json | custody scheme list [--json]',
  options: {},
  async run(args, io) {
    const [action, file, ...rest] = args.positionals;
    if (action === 'add' && file !== undefined && rest.length === 0) {
      const text = await readFile(file, 'utf8').catch((e: unknown) => {
        throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
      });
      let config: unknown;
      try {
        config = JSON.parse(text);
      } catch (e) {
        throw new UsageError(`${file} is not JSON: ${(e as Error).message}`);
      }
      const id = await withArchive(args, io, 'write', 'scheme add', (a) => defineScheme(a, operationContext(a), config));
      if (wantsJson(args)) printJson(io, { id });
      else io.stdout(`scheme ${id} declared\n`);
      return 0;
    }
    if (action === 'list' && file === undefined) {
      const schemes = await withArchive(args, io, 'read', 'scheme list', (a) =>
        a.index.listSchemes(),
      );
      const out = schemes.map((s) => ({
        id: s.id,
        seq: s.seq,
        config: JSON.parse(s.config_json) as unknown,
      }));
      if (wantsJson(args)) printJson(io, out);
      else for (const s of out) io.stdout(`${s.id}  ${JSON.stringify(s.config)}\n`);
      return 0;
    }
    throw new UsageError(`usage: ${this.usage}`);
  },
};
