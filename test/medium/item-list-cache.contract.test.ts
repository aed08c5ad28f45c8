// The server's kept item and subject lists (src/db/list-cache.ts): every filter, order, offset and
// cursor answers exactly as one query per page does, and a write through the index's writer is
// seen by the next page. Written once, run on SQLite and PostgreSQL.
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ArchiveIndexRepository } from '../../src/db/archive-index.repository.js';
import { openDatabase } from '../../src/db/connection.adapter.js';
import type { ItemFilter, ItemPageQuery, ItemSort } from '../../src/db/item-query.repository.js';
import type { Database, Mutation, Row } from '../../src/db/schema.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

const CAMERAS: [string, string][] = [
  ['Canon', 'EOS 5D'],
  ['Nikon', 'D750'],
  ['Nikon', 'D3'],
];

function analysis(sha256: string, seq: number, i: number): Row {
  const [make, model] = CAMERAS[i % CAMERAS.length]!;
  return {
    sha256, seq, analyzer: 'test', make: i % 7 === 0 ? null : make, model: i % 7 === 0 ? null : model,
    body_serial: null, software: null, xmp_creator_tool: null, xmp_history_json: '[]',
    // Dates repeat (ties broken by id) and some are missing (sorted as '').
    date_time_original: i % 5 === 0 ? null : `2024:03:${String(1 + (i % 9)).padStart(2, '0')} 10:00:00`,
    create_date: null, modify_date: null, offset_time_original: null, sub_sec_time_original: null,
    orientation: null, width: null, height: null, exif_present: 1, jpeg_quality: null,
    quant_digest: null, pdq: null, pdq_quality: null, pdq_dihedral_json: 'null', crops_json: '[]',
    thumbnail_pdq: null, gps_latitude: null, gps_longitude: null, c2pa_state: 'absent',
    c2pa_codes_json: '[]', warnings_json: '[]',
  };
}

/** Item `i`: its object, analysis (most), subject and unit (some), sample membership (a few). */
function itemMutations(i: number, seq: number): Mutation[] {
  const id = `01ITEM${String(i).padStart(20, '0')}`;
  const sha256 = (i % 11 === 3 ? 'dup' : `${i}`).padStart(64, '0'); // a few items share an object
  const m: Mutation[] = [
    {
      op: 'insertIfAbsent', table: 'objects',
      row: { sha256, size: 100 + i, media_type: 'image/jpeg', first_seq: seq, withdrawn_seq: i === 4 ? seq : null, purged_seq: null },
    },
    {
      op: 'insert', table: 'items',
      row: {
        id, seq, delivery_id: i % 3 === 0 ? 'DELIVERYA' : 'DELIVERYB', parent_id: null, member_index: null,
        path: `/in/IMG_${i % 13}.jpg`, path_raw_hex: null, path_encoding: 'utf-8',
        relative_path: `IMG_${i % 13}.jpg`, name: `IMG_${i % 13}.jpg`, size: 100 + i, mtime: null,
        media_type: 'image/jpeg', sha256, flags_json: '[]', origin_key: `o${i}`,
        received_at: `2025-01-${String(1 + (i % 4)).padStart(2, '0')}T00:00:00.000Z`, actor: 'test',
      },
    },
  ];
  if (i % 6 !== 5) m.push({ op: 'insertIfAbsent', table: 'analyses', row: analysis(sha256, seq, i) });
  if (i % 2 === 0) {
    const subject = `01SUBJ${String(i).padStart(20, '0')}`;
    m.push(
      {
        op: 'insert', table: 'subjects',
        row: {
          id: subject, number_raw: String(i), scheme_id: null, number_normalised: String(i),
          fields_json: '{}', unit_id: i % 4 === 0 ? 'UNITA' : 'UNITB', sex: null, age_band: null,
          date_of_death: null, date_of_photography: null, notes: null, status: 'active',
          merged_into: null, created_seq: seq, updated_seq: seq,
        },
      },
      { op: 'insert', table: 'subject_items', row: { item_id: id, subject_id: subject, seq } },
    );
  }
  if (i % 5 === 1)
    m.push({ op: 'insert', table: 'sample_members', row: { id: `S1/${i}`, sample_id: 'S1', member_id: id, position: i, stratum: null } });
  return m;
}

describeDatabases('item list kept by the index writer', (dbKind) => {
  let db: Kysely<Database>;
  let kept: ArchiveIndexRepository;
  let queried: ArchiveIndexRepository;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let seq = 0;

  const add = async (from: number, to: number) => {
    const m: Mutation[] = [];
    for (let i = from; i < to; i++) m.push(...itemMutations(i, ++seq));
    await kept.applyEntries(m, seq);
  };

  beforeEach(async () => {
    const made = await dbKind.makeUrl();
    cleanup = made.cleanup;
    db = await openDatabase(
      made.url === null
        ? { kind: 'sqlite', file: join(await makeTempDir('custody-list-cache'), 'index.sqlite') }
        : { kind: 'postgres', url: made.url },
    );
    kept = new ArchiveIndexRepository(db, { soleWriter: true });
    queried = new ArchiveIndexRepository(db); // no cache: one query per page
    seq = 0;
    await add(0, 60);
  });
  afterEach(async () => {
    await db.destroy();
    await cleanup();
  });

  const filters: ItemFilter[] = [
    {},
    { delivery: 'DELIVERYA' },
    { camera: 'nikon' },
    { camera: 'Canon EOS 5D' },
    { takenFrom: '2024:03:03', takenTo: '2024:03:06' },
    { receivedFrom: '2025-01-02', receivedTo: '2025-01-03' },
    { unit: 'UNITA' },
    { sampled: true },
    { sampled: false, camera: 'nikon' },
    { examined: false },
    { objects: ['0'.repeat(63) + '7', 'dup'.padStart(64, '0')] },
  ];
  const sorts: ItemSort[] = ['received', 'taken', 'name', 'id'];

  it('every filter, order, offset and cursor answers as one query per page does', async () => {
    for (const filter of filters)
      for (const sort of sorts)
        for (const order of ['asc', 'desc'] as const) {
          const q: ItemPageQuery = { filter, sort, order, limit: 7 };
          for (const offset of [0, 7, 20, 1000]) {
            const a = await kept.queries.page({ ...q, offset });
            const b = await queried.queries.page({ ...q, offset });
            expect(a, JSON.stringify({ filter, sort, order, offset })).toEqual(b);
          }
          // Cursor paging walks the whole list, the same as the query's keyset does.
          let after: { key: string; id: string } | undefined;
          for (let n = 0; n < 20; n++) {
            const a = await kept.queries.page({ ...q, ...(after === undefined ? {} : { after }) });
            const b = await queried.queries.page({ ...q, ...(after === undefined ? {} : { after }) });
            expect(a, JSON.stringify({ filter, sort, order, after })).toEqual(b);
            const last = a.rows.at(-1);
            if (last === undefined || a.rows.length < 7) break;
            after = { key: last.sort_key, id: last.id };
          }
        }
  });

  // A list is kept from its second request at one generation (the first is the page query):
  // ask twice, and answer with the kept one, after checking that both agree.
  const page = async (q: ItemPageQuery) => {
    const first = await kept.queries.page(q);
    const second = await kept.queries.page(q);
    expect(second).toEqual(first);
    return second;
  };
  const subjects = async (q: { unit?: string; limit: number; offset: number }) => {
    const first = await kept.queries.subjects(q);
    const second = await kept.queries.subjects(q);
    expect(second).toEqual(first);
    expect(second).toEqual(await queried.queries.subjects(q));
    return second;
  };

  it('a write through the index writer is in the next page: items, analyses, withdrawals, subjects', async () => {
    const q: ItemPageQuery = { filter: { camera: 'nikon' }, sort: 'taken', order: 'asc', limit: 500 };
    const before = await page(q);
    expect(await kept.queries.page(q)).toEqual(before); // kept
    await add(60, 75);
    const after = await kept.queries.page(q);
    expect(after).toEqual(await queried.queries.page(q));
    expect(after.total).toBeGreaterThan(before.total);
    expect(await page(q)).toEqual(after);
    // A withdrawal changes a row already shown (withdrawn_seq), not the list: the kept row is read again.
    const shown = after.rows[0]!;
    await kept.applyEntries([{ op: 'update', table: 'objects', key: shown.sha256, set: { withdrawn_seq: ++seq } }], seq);
    const again = await page(q);
    expect(again.rows[0]!.withdrawn_seq).toBe(seq);
    expect(again).toEqual(await queried.queries.page(q));
    // Subjects: the list and its total follow a new subject.
    const s1 = await subjects({ limit: 10, offset: 0 });
    await add(75, 77);
    const s2 = await subjects({ limit: 100, offset: 0 });
    expect(s2.total).toBe(s1.total + 1);
    await subjects({ unit: 'UNITA', limit: 5, offset: 3 });
  });

  it('a cursor that no longer falls on the kept list is answered by the query', async () => {
    const q: ItemPageQuery = { filter: {}, sort: 'name', order: 'asc', limit: 5 };
    const after = { key: 'IMG_3.jpg', id: '01ITEM99999999999999999999' }; // no such item
    expect(await kept.queries.page({ ...q, after })).toEqual(await queried.queries.page({ ...q, after }));
  });
});
