// Near-duplicates through the CLI (issue 14): two crops of one photo, cut unevenly from different
// sides so that neither contains the other, are linked as an 'overlap' through their original,
// with the overlap's box in each within 2 % of the truth; `similar` prints it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { custodyInExpect, sha256Hex } from '../support/archive-fixtures.js';
import { cut as cutBox, scene, within, type Box } from '../support/crop-scenes.js';
import { makeTempDir } from '../support/tmp.js';

interface SimilarJson {
  matches: { sha256: string; kind: string; overlap?: { self: Box; other: Box; transform: string } }[];
}

/** 2 % left, 10 % top, 12 % right, 3 % bottom; and 12 % left, 1 % top, 3 % right, 10 % bottom. */
const A: Box = { left: 0.02, top: 0.1, right: 0.88, bottom: 0.97 };
const B: Box = { left: 0.12, top: 0.01, right: 0.97, bottom: 0.9 };
const SHARED: Box = { left: 0.12, top: 0.1, right: 0.88, bottom: 0.9 };

const cut = (jpeg: Buffer, b: Box): Promise<Buffer> => cutBox(jpeg, b).jpeg({ quality: 85 }).toBuffer();

describe('near-duplicates: two crops that overlap, neither containing the other', () => {
  let dir: string;
  const bytes = new Map<string, Buffer>();
  const run = (code: number, ...args: string[]) => custodyInExpect(code, [...args, '--archive', join(dir, 'archive')]);

  beforeAll(async () => {
    dir = await makeTempDir('near-dup-overlaps');
    await custodyInExpect(0, ['init', '--archive', join(dir, 'archive')]);
    const original = await scene('scene-overlap');
    bytes.set('original.jpg', original);
    bytes.set('a.jpg', await cut(original, A));
    bytes.set('b.jpg', await cut(original, B));
    bytes.set('other.jpg', await scene('scene-elsewhere'));
    const src = join(dir, 'src');
    await mkdir(src, { recursive: true });
    for (const [name, b] of bytes) await writeFile(join(src, name), b);
    await run(0, 'ingest', src, '--source', 'LARK', '--new-source', '--analyze');
  });


  it('links them as an overlap, with the overlap boxed within 2 % in each', async () => {
    const r = await run(0, 'similar', sha256Hex(bytes.get('a.jpg')!), '--json');
    const s = JSON.parse(r.stdout) as SimilarJson;
    const m = s.matches.find((x) => x.sha256 === sha256Hex(bytes.get('b.jpg')!));
    expect(m?.kind).toBe('overlap');
    expect(m?.overlap?.transform).toBe('original');
    const [self, other] = [within(A, SHARED), within(B, SHARED)];
    for (const edge of ['left', 'top', 'right', 'bottom'] as const) {
      expect(Math.abs((m?.overlap?.self[edge] ?? -1) - self[edge]), edge).toBeLessThanOrEqual(0.02);
      expect(Math.abs((m?.overlap?.other[edge] ?? -1) - other[edge]), edge).toBeLessThanOrEqual(0.02);
    }
    expect(s.matches.map((x) => x.sha256)).not.toContain(sha256Hex(bytes.get('other.jpg')!));
    const text = await run(0, 'similar', sha256Hex(bytes.get('b.jpg')!));
    expect(text.stdout).toMatch(/ overlap \(they overlap: here left \d+\.\d %, top \d+\.\d %, .*; there left /);
  });
});
