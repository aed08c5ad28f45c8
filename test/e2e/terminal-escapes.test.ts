// Issue 9, finding 12c: terminal escape sequences in file names were printed raw. A name holding
// ESC [31m (or ESC [2K, CR, a newline) recoloured, erased or forged the lines a person reads.
// Human output now escapes every control character; --json is unchanged (JSON escapes them).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { custodyInExpect } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('control characters in names are escaped in human output (issue 9, 12c)', () => {
  it('ESC [31m and a forged line in file names, through ingest, items and show', async () => {
    const dir = await makeTempDir('custody-escapes');
    const env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    const src = join(dir, 'card');
    await mkdir(src);
    const red = 'IMG_0001\u001b[31m.jpg';
    const forged = 'IMG_0002.jpg\n  files seen 0, problems 0\u001b[2K\r.jpg';
    await writeFile(join(src, red), ''); // empty: ingest names it in a problem line
    await writeFile(join(src, forged), 'bytes');
    await custodyInExpect(0, ['init'], env);

    const ingest = await custodyInExpect(1, ['ingest', src, '--source', 'HERON', '--new-source'], env);
    expect(ingest.stdout).not.toMatch(RAW_CONTROL);
    expect(ingest.stdout).toContain('IMG_0001\\x1B[31m.jpg');
    expect(ingest.stdout).toContain('INGEST_EMPTY_FILE');

    const items = await custodyInExpect(0, ['items'], env);
    expect(items.stdout).not.toMatch(RAW_CONTROL);
    expect(items.stdout).toContain('  IMG_0001\\x1B[31m.jpg');
    expect(items.stdout).toContain('IMG_0002.jpg\\x0A  files seen 0, problems 0\\x1B[2K\\x0D.jpg');
    // Two item lines, no forged one (after the line that says the listing reads the live index).
    expect(items.stdout.trim().split('\n').filter((l) => !l.startsWith('('))).toHaveLength(2);

    const rows = JSON.parse((await custodyInExpect(0, ['items', '--json'], env)).stdout) as { id: string; relative_path: string }[];
    // --json: the exact names, escaped by JSON itself.
    expect(rows.map((r) => r.relative_path).sort()).toEqual([red, forged].sort());
    for (const row of rows) {
      const show = await custodyInExpect(0, ['show', row.id], env);
      expect(show.stdout).not.toMatch(RAW_CONTROL);
      expect(show.stdout).toMatch(/IMG_000[12]/);
      expect(show.stdout).toContain('\\x1B[');
    }
  });
});
