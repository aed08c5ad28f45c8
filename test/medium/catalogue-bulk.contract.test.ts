// Issue 10 on every database: text unit codes and retirement replay into the index and rebuild
// byte for byte; photographs resolve by id, digest and path in bulk (itemsWhereIn,
// subjectsOfItems), with an ambiguous path naming its candidates.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { initArchive, openArchive, type Archive } from '../../src/app.js';
import { operationContext } from '../../src/cli/context.js';
import { resolveItemRefs } from '../../src/catalogue/subjects/item-refs.js';
import { importSubjects } from '../../src/catalogue/subjects/subjects.service.js';
import { editUnit, importUnits, retireUnit } from '../../src/catalogue/units/units.service.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { canonicalize } from '../../src/core/canonical-json.js';
import { INDEX_TABLES, type IndexTable } from '../../src/db/schema.js';
import { IngestService } from '../../src/ingest/ingest.service.js';
import { verifyArchive } from '../../src/integrity/archive-verify.service.js';
import { rebuildIndex } from '../../src/integrity/index-rebuild.service.js';
import { hashFiles } from '../../src/store/hash-files.adapter.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

async function dumpAll(archive: Archive): Promise<string> {
  const out: string[] = [];
  for (const table of Object.keys(INDEX_TABLES) as IndexTable[])
    for (const row of await archive.index.dumpTable(table)) out.push(`${table} ${canonicalize(row)}`);
  return out.join('\n');
}

describeDatabases('catalogue bulk work', (db) => {
  let config: Config;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dir: string;

  beforeEach(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    dir = await makeTempDir('custody-catalogue-bulk');
    config = loadConfig(
      { CUSTODY_ACTOR: 'contract-test', ...(made.url === null ? {} : { DATABASE_URL: made.url }) },
      { archive: join(dir, 'archive') },
    );
    await initArchive(config);
  });
  afterEach(() => cleanup());

  const withWrite = async <T>(fn: (a: Archive) => Promise<T>): Promise<T> => {
    const a = await openArchive(config, 'write', 'test');
    try {
      return await fn(a);
    } finally {
      await a.close();
    }
  };

  it('stores text codes and retirement, and rebuilds them byte for byte', async () => {
    await withWrite(async (a) => {
      await importUnits(a, operationContext(a), [
        { row: 1, unit: { code: 'AFI', name_en: 'Air Force Intelligence', name_ar: 'المخابرات الجوية', aliases: ['جوية'], parent_code: null } },
        { row: 2, unit: { code: 215, name_en: 'Branch 215', name_ar: null, aliases: [], parent_code: 'AFI' } },
      ], [], { validOnly: false });
      await editUnit(a, operationContext(a), '215', { code: 'B215' }, 'renumbered', { allowDuplicateName: false });
      await retireUnit(a, operationContext(a), 'B215', 'closed');
      const units = await a.index.listUnits();
      const afi = units.find((u) => u.code_text === 'AFI');
      expect(afi?.code).toBeNull();
      const b = units.find((u) => u.code_text === 'B215');
      expect([b?.code, b?.parent_id, typeof b?.retired_seq]).toEqual([null, afi?.id, 'number']);
    });
    const before = await withWrite(dumpAll);
    await withWrite((a) => rebuildIndex(a));
    expect(await withWrite(dumpAll)).toBe(before);
    const report = await withWrite((archive) => verifyArchive({ archive, hashFiles }, []));
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('resolves photographs by id, digest and path in bulk, naming the candidates of an ambiguous path', async () => {
    for (const name of ['one', 'two']) {
      const root = join(dir, name);
      await mkdir(join(root, 'cards'), { recursive: true });
      await writeFile(join(root, 'cards', 'same.jpg'), `same path, ${name}`);
      await writeFile(join(root, 'cards', `${name}.jpg`), `only in ${name}`);
      await withWrite((a) => new IngestService(a).run({ paths: [root], source: 'OLIVE', receivedBy: null, medium: null, note: null, manifestPath: null, deliveryId: null }));
    }
    await withWrite(async (a) => {
      const items = await a.index.listItems();
      const same = items.filter((i) => i.relative_path.endsWith('same.jpg'));
      const one = items.find((i) => i.relative_path.endsWith('one.jpg'));
      expect(same).toHaveLength(2);
      const samePath = same[0]?.relative_path ?? '';
      const refs = await resolveItemRefs(a, [samePath, `${same[1]?.delivery_id ?? ''}:${samePath}`, one?.sha256 ?? '', one?.id ?? '', 'nowhere.jpg']);
      const ambiguous = refs.get(samePath);
      expect(ambiguous !== undefined && 'error' in ambiguous ? ambiguous.error : '').toContain(`${same[0]?.delivery_id ?? ''}:${samePath}`);
      expect(ambiguous !== undefined && 'error' in ambiguous ? ambiguous.error : '').toContain(`${same[1]?.delivery_id ?? ''}:${samePath}`);
      expect(refs.get(`${same[1]?.delivery_id ?? ''}:${samePath}`)).toEqual({ items: [same[1]?.id] });
      expect(refs.get(one?.sha256 ?? '')).toEqual({ items: [one?.id] });
      expect(refs.get(one?.id ?? '')).toEqual({ items: [one?.id] });
      expect(refs.get('nowhere.jpg')).toEqual({ error: 'no item at nowhere.jpg' });
      const r = await importSubjects(a, operationContext(a), [{ row: 2, input: {}, items: [one?.relative_path ?? ''] }], [], { validOnly: false, reason: 'sheet' });
      expect((await a.index.subjectsOfItems([one?.id ?? '', same[0]?.id ?? ''])).map((l) => [l.item_id, l.subject_id])).toEqual([[one?.id, r.ids[0]]]);
    });
  });
});
