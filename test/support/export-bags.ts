// Checking a `custody export` bag the way an outsider would: standard tools (sha256sum, openssl)
// run inside the bag, and the RFC 9162 proofs recomputed with the project's compiled core/merkle.
import type { ProofFile } from '../../src/verify/export/layout.js';
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { loadCore, sha256Hex } from './archive-fixtures.js';

export interface ItemRow {
  item_id: string;
  bag_path: string | null;
  sha256: string;
  size: number;
  delivery_id: string;
  source_codename: string;
  ingestion_seq: number;
  withheld: string | null;
}


export interface WithheldJson {
  item_id: string;
  reason: string;
  substitute: string | null;
  kind: string;
  sha256: string;
  preview_sha256?: string;
}

/** Every file of a directory: relative path → bytes, sorted. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      const p = join(e.parentPath, e.name);
      out.set(relative(dir, p), await readFile(p));
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function readJson<T>(bag: string, path: string): Promise<T> {
  return JSON.parse(await readFile(join(bag, path), 'utf8')) as T;
}

/**
 * Runs the checks of LAYOUT.md with standard tools and returns the items table. Fails the test
 * on the first thing that does not hold.
 */
export async function checkBag(bag: string): Promise<ItemRow[]> {
  const files = await readTree(bag);
  // 1–2. BagIt: both manifests with sha256sum, exactly the payload listed, Payload-Oxum.
  execFileSync('sha256sum', ['--strict', '--quiet', '-c', 'manifest-sha256.txt'], { cwd: bag });
  execFileSync('sha256sum', ['--strict', '--quiet', '-c', 'tagmanifest-sha256.txt'], { cwd: bag });
  const manifest = (files.get('manifest-sha256.txt') ?? Buffer.alloc(0)).toString('utf8');
  const listed = manifest
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(66));
  const payload = [...files.keys()].filter((p) => p.startsWith('data/'));
  expect(listed).toEqual(payload);
  const tagListed = (files.get('tagmanifest-sha256.txt') ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(66));
  expect(tagListed).toEqual(
    [...files.keys()].filter((p) => !p.startsWith('data/') && p !== 'tagmanifest-sha256.txt'),
  );
  const info = (files.get('bag-info.txt') ?? Buffer.alloc(0)).toString('utf8');
  const field = (k: string): string => new RegExp(`^${k}: (.*)$`, 'm').exec(info)?.[1] ?? '';
  const bytes = payload.reduce((a, p) => a + (files.get(p)?.length ?? 0), 0);
  expect(field('Payload-Oxum')).toBe(`${bytes}.${payload.length}`);
  expect(files.get('bagit.txt')?.toString()).toBe(
    'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n',
  );
  // 3. The checkpoint signature, with openssl, and its size and root against bag-info.
  execFileSync(
    'openssl',
    [
      'pkeyutl',
      '-verify',
      '-pubin',
      '-inkey',
      'custody/verifier-key.pem',
      '-rawin',
      '-in',
      'custody/checkpoint.body',
      '-sigfile',
      'custody/checkpoint.sig',
    ],
    { cwd: bag },
  );
  const [, size = '', rootB64 = ''] = (files.get('custody/checkpoint.body') ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\n');
  const root = Buffer.from(rootB64, 'base64');
  expect(field('Custody-Tree-Size')).toBe(size);
  expect(field('Custody-Root')).toBe(root.toString('hex'));
  expect(field('External-Identifier')).toBe(`${size}/${root.toString('hex')}`);
  // 4–5. Every proof against the checkpoint root; every file against its ingestion entry.
  const { merkle } = await loadCore();
  const items = await readJson<ItemRow[]>(bag, 'data/tables/items.json');
  const substituted = new Map(
    (await readJson<WithheldJson[]>(bag, 'custody/withheld.json'))
      .filter((w) => w.kind === 'substituted')
      .map((w) => [w.item_id, w]),
  );
  for (const row of items) {
    const proof = await readJson<ProofFile>(bag, `custody/proofs/${row.item_id}.json`);
    const entryBytes = files.get(`custody/${proof.entry}`) ?? Buffer.alloc(0);
    const leaf = merkle.hashLeaf(entryBytes);
    expect(leaf.toString('hex')).toBe(proof.leaf_hash);
    expect(proof.tree_size).toBe(Number(size));
    expect(
      merkle.verifyInclusion(
        proof.seq,
        proof.tree_size,
        leaf,
        proof.proof.map((h) => Buffer.from(h, 'hex')),
        root,
      ),
      row.item_id,
    ).toBe(true);
    const entry = JSON.parse(entryBytes.toString('utf8')) as {
      type: string;
      items: string[];
      objects: string[];
    };
    expect(entry).toMatchObject({ type: 'ingestion', items: [row.item_id], objects: [row.sha256] });
    const held = files.get(row.bag_path ?? '') ?? Buffer.alloc(0);
    const sub = substituted.get(row.item_id);
    if (sub === undefined) expect(sha256Hex(held)).toBe(row.sha256);
    else expect(sha256Hex(held)).toBe(sub.preview_sha256);
  }
  return items;
}
