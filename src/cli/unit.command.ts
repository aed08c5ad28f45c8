import { readFile, writeFile } from 'node:fs/promises';
import {
  parseUnitsCsv,
  parseUnitsJson,
  UnitError,
  validateUnit,
  parseUnitCode,
} from '../catalogue/units/index.js';
import {
  editUnit,
  importUnits,
  retireUnit,
  unitsCsv,
  unitsForExport,
  type UnitChanges,
} from '../catalogue/units/units.service.js';
import {
  flag,
  list,
  printJson,
  requireStr,
  str,
  UsageError,
  type Command,
  type Io,
} from './command.js';
import { operationContext, atOption, wantsJson, withArchive } from './context.js';
import { catalogueCounts } from '../catalogue/units/counts.service.js';
import { terminalText as tt } from './terminal-text.js';

export const unitCommand: Command = {
  name: 'unit',
  summary:
    'the unit registry: security branches and similar bodies (names in Arabic and English, aliases, parent)',
  usage:
    'custody unit add --name-en NAME [--name-ar NAME] [--code CODE] [--alias A]… [--parent CODE] [--allow-duplicate-name] | custody unit list [--json] | ' +
    'custody unit edit CODE|ID [--code CODE] [--name-en NAME] [--name-ar NAME] [--alias A]… [--parent CODE|none] [--allow-duplicate-name] --reason TEXT | ' +
    'custody unit retire CODE|ID --reason TEXT | ' +
    'custody unit import FILE.csv|FILE.json [--valid-only] [--allow-duplicate-name] [--json] | custody unit export [--format csv|json] [--out FILE] | ' +
    'custody unit counts [--at TREE-SIZE] [--json]   (subjects by unit, as currently attributed, and by month, with the checkpoint). ' +
    'A CODE is a number (215) or text without spaces ("AFI"); an alias names the unit too.',
  options: {
    'name-en': { type: 'string' },
    'name-ar': { type: 'string' },
    code: { type: 'string' },
    alias: { type: 'string', multiple: true },
    parent: { type: 'string' },
    'valid-only': { type: 'boolean' },
    format: { type: 'string' },
    out: { type: 'string' },
    at: { type: 'string' },
    reason: { type: 'string' },
    'allow-duplicate-name': { type: 'boolean' },
  },
  async run(args, io) {
    const [action, ...rest] = args.positionals;
    switch (action) {
      case 'add': {
        if (rest.length > 0) throw new UsageError(`usage: ${this.usage}`);
        const parsed = validateUnit(
          {
            code: str(args, 'code') ?? '',
            name_en: requireStr(args, 'name-en', this),
            name_ar: str(args, 'name-ar') ?? '',
            aliases: list(args, 'alias').join(';'),
            parent_code: str(args, 'parent') ?? '',
          },
          1,
        );
        if ('errors' in parsed)
          throw new UnitError(
            'UNIT_INVALID',
            parsed.errors.map((e) => `${e.column}: ${e.reason}`).join('; '),
          );
        return report(
          io,
          args.values.json === true,
          await withArchive(args, io, 'write', 'unit add', (a) =>
            importUnits(a, operationContext(a), [{ row: 1, unit: parsed.unit }], [], {
              validOnly: false,
              allowDuplicateName: flag(args, 'allow-duplicate-name'),
            }),
          ),
        );
      }
      case 'import': {
        const file = rest[0];
        if (file === undefined || rest.length > 1)
          throw new UsageError(`name one CSV or JSON file\nusage: ${this.usage}`);
        const text = await readFile(file, 'utf8').catch((e: unknown) => {
          throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
        });
        const parsed = file.toLowerCase().endsWith('.json')
          ? parseUnitsJson(text)
          : parseUnitsCsv(text);
        const validOnly = flag(args, 'valid-only');
        const result = await withArchive(args, io, 'write', 'unit import', (a) =>
          importUnits(a, operationContext(a), parsed.units, parsed.errors, {
            validOnly,
            allowDuplicateName: flag(args, 'allow-duplicate-name'),
          }),
        );
        return report(io, wantsJson(args), result);
      }
      case 'edit':
      case 'retire': {
        const ref = rest[0];
        if (ref === undefined || rest.length > 1)
          throw new UsageError(`name one unit by code, alias or id\nusage: ${this.usage}`);
        const reason = requireStr(args, 'reason', this);
        const id = await withArchive(args, io, 'write', `unit ${action}`, (a) =>
          action === 'retire'
            ? retireUnit(a, operationContext(a), ref, reason)
            : editUnit(a, operationContext(a), ref, unitChanges(args), reason, {
                allowDuplicateName: flag(args, 'allow-duplicate-name'),
              }),
        );
        if (wantsJson(args)) printJson(io, { id });
        else io.stdout(`unit ${id} ${action === 'retire' ? 'retired' : 'changed'}\n`);
        return 0;
      }
      case 'list':
      case 'export': {
        const units = await withArchive(args, io, 'read', 'unit list', (a) => a.index.listUnits());
        const format =
          str(args, 'format') ?? (action === 'list' && !wantsJson(args) ? 'text' : 'json');
        let text: string;
        if (format === 'csv') text = unitsCsv(units);
        else if (format === 'json') text = `${JSON.stringify(unitsForExport(units), null, 2)}\n`;
        else if (format === 'text')
          text = unitsForExport(units)
            .map(
              (u) =>
                `${String(u.code ?? '-').padStart(5)}  ${u.name_en}${u.name_ar === null ? '' : `  ${u.name_ar}`}${u.aliases.length === 0 ? '' : `  aka ${u.aliases.join('; ')}`}${u.parent_code === null ? '' : `  (parent ${u.parent_code})`}${u.retired_seq === null ? '' : `  (retired at entry ${u.retired_seq})`}\n`,
            )
            .join('');
        else throw new UsageError('--format is csv or json');
        const out = str(args, 'out');
        if (out === undefined) io.stdout(text);
        else await writeFile(out, text);
        return 0;
      }
      case 'counts': {
        const c = await withArchive(args, io, 'read', 'unit counts', (a) => catalogueCounts(a), { at: atOption(args) ?? 'signed' }); // replayed, never the live index
        if (wantsJson(args)) printJson(io, c);
        else {
          io.stdout(`${c.subjects} subjects at tree size ${c.checkpoint.tree_size} (root ${c.checkpoint.root})\n`);
          io.stdout(`by unit (${c.attribution ?? 'current attribution'}):\n`);
          for (const u of c.by_unit) io.stdout(`  ${String(u.count).padStart(6)}  ${u.code == null ? '' : `${tt(String(u.code))}  `}${tt(u.name_en ?? u.unit)}${u.name_ar === null ? '' : `  ${tt(u.name_ar)}`}\n`);
          io.stdout('by month (of death, else of photography):\n');
          for (const m of c.by_month) io.stdout(`  ${String(m.count).padStart(6)}  ${m.month}\n`);
        }
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(`unit what? add, edit, retire, list, import, export or counts\nusage: ${this.usage}`);
    }
  },
};

function report(io: Io, json: boolean, r: Awaited<ReturnType<typeof importUnits>>): number {
  if (json) printJson(io, r);
  else {
    for (const e of r.skipped)
      io.stdout(`  ! row ${e.row}, ${tt(String(e.column))}: ${tt(e.reason)} (not imported)\n`);
    io.stdout(`${r.imported} unit(s) registered\n`);
  }
  return r.skipped.length > 0 ? 1 : 0;
}

/** The fields `unit edit` changes: only those given; `--parent none` and `--code ''` clear. */
function unitChanges(args: Parameters<Command['run']>[0]): UnitChanges {
  const out: UnitChanges = {};
  const code = str(args, 'code');
  if (code !== undefined) {
    const c = parseUnitCode(code);
    if (c !== null && typeof c === 'object') throw new UnitError('UNIT_INVALID', `--code: ${c.error}`);
    out.code = c;
  }
  const nameEn = str(args, 'name-en');
  if (nameEn !== undefined) out.name_en = nameEn.normalize('NFC').trim();
  const nameAr = str(args, 'name-ar');
  if (nameAr !== undefined) out.name_ar = nameAr.trim() === '' ? null : nameAr.normalize('NFC').trim();
  if (args.values.alias !== undefined)
    out.aliases = [...new Set(list(args, 'alias').map((a) => a.normalize('NFC').trim()).filter((a) => a !== ''))].sort();
  const parent = str(args, 'parent');
  if (parent !== undefined) out.parent = parent === 'none' || parent === '' ? null : parent;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f]/.test([out.name_en, out.name_ar, ...(out.aliases ?? [])].join('')))
    throw new UnitError('UNIT_INVALID', 'control characters are not allowed in names');
  if (out.name_en === '') throw new UnitError('UNIT_INVALID', 'an English name is required');
  return out;
}
