// Reads what `report --bag DIR` needs from an export bag: the signed checkpoint, the export's
// description, the statistics tables and the ids of the exported items. Everything read here is
// untrusted (anyone can edit a bag): the checkpoint is checked against the archive (bag.ts) before
// the report is drawn at it, and every cited cell against the archive's own value.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ReportError } from './errors.js';
import type { ReportBag } from './bag.js';
import { hint } from '../../core/index.js';

export async function readReportBag(dir: string): Promise<ReportBag> {
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir)
    throw new ReportError(
      'REPORT_BAG_INVALID',
      'not a directory (a .zip bag is unzipped first)',
      { details: hint({ field: 'bag', value: dir }) },
    );
  const note = await text(dir, 'custody/checkpoint.txt');
  const tables = join(dir, 'data', 'tables');
  const names = await readdir(tables).catch(() => [] as string[]);
  const statistics = new Map<string, unknown>();
  for (const name of names.filter((n) => /^statistics-[A-Za-z0-9_-]+\.json$/.test(n)).sort()) {
    statistics.set(`data/tables/${name}`, await json(dir, `data/tables/${name}`));
  }
  const items = names.includes('items.json') ? await json(dir, 'data/tables/items.json') : [];
  const ids = Array.isArray(items)
    ? items.flatMap((r: unknown) =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as { item_id?: unknown }).item_id === 'string'
          ? [(r as { item_id: string }).item_id]
          : [],
      )
    : [];
  return { dir, note, statistics, items: new Set(ids) };
}

async function text(dir: string, path: string): Promise<string> {
  try {
    return await readFile(join(dir, path), 'utf8');
  } catch (e) {
    throw new ReportError(
      'REPORT_BAG_INVALID',
      `cannot read ${path}: ${(e as Error).message}`,
      { cause: e, details: hint({ field: 'bag', value: dir }) },
    );
  }
}

async function json(dir: string, path: string): Promise<unknown> {
  const body = await text(dir, path);
  try {
    return JSON.parse(body) as unknown;
  } catch (e) {
    throw new ReportError('REPORT_BAG_INVALID', `${path} is not JSON`, { cause: e, details: hint({ field: 'bag', value: dir }) });
  }
}
