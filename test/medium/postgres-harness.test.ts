// Proves the database test harness itself: the SQLite half gets a temp-dir file,
// the PostgreSQL half a fresh database on the run's throwaway cluster.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

describeDatabases('test harness', (db) => {
  let url: string | null = null;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dir = '';

  beforeAll(async () => {
    ({ url, cleanup } = await db.makeUrl());
    dir = await makeTempDir(`harness-${db.kind}`);
  });

  afterAll(() => cleanup());

  it('round-trips a row through a table', async () => {
    switch (db.kind) {
      case 'sqlite': {
        expect(url).toBeNull();
        const file = new Database(join(dir, 'custody.sqlite'));
        try {
          file.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL)');
          file.prepare('INSERT INTO item (sha256) VALUES (?)').run('ab'.repeat(32));
          const row = file.prepare('SELECT id, sha256 FROM item').get();
          expect(row).toEqual({ id: 1, sha256: 'ab'.repeat(32) });
          file.exec('DROP TABLE item');
        } finally {
          file.close();
        }
        return;
      }
      case 'postgres': {
        expect(url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/custody_t_/);
        const client = new pg.Client({ connectionString: url ?? undefined });
        await client.connect();
        try {
          await client.query('CREATE TABLE item (id SERIAL PRIMARY KEY, sha256 TEXT NOT NULL)');
          await client.query('INSERT INTO item (sha256) VALUES ($1)', ['ab'.repeat(32)]);
          const { rows } = await client.query('SELECT id, sha256 FROM item');
          expect(rows).toEqual([{ id: 1, sha256: 'ab'.repeat(32) }]);
          await client.query('DROP TABLE item');
        } finally {
          await client.end();
        }
        return;
      }
    }
  });

  if (db.kind === 'postgres') {
    it('gives each caller its own database, and drop removes it', async () => {
      const other = await db.makeUrl();
      expect(other.url).not.toBe(url);
      const client = new pg.Client({ connectionString: other.url ?? undefined });
      await client.connect();
      const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
      await client.end();
      const name = rows[0]?.db ?? '';
      await other.cleanup();

      const check = new pg.Client({ connectionString: url ?? undefined });
      await check.connect();
      const left = await check.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      await check.end();
      expect(left.rowCount).toBe(0);
    });
  }
});
