// A BagSource over an in-memory map of files, for unit tests of the pure validator and verifier.
import { createHash } from 'node:crypto';
import type { BagEntry, BagSource } from '../../src/verify/bagit/source.js';

export function memoryBag(files: Record<string, string | Uint8Array>): BagSource {
  const bytes = new Map(Object.entries(files).map(([p, c]) => [p, typeof c === 'string' ? Buffer.from(c) : Buffer.from(c)]));
  const dirs = new Set<string>();
  for (const p of bytes.keys()) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const entries: BagEntry[] = [
    ...[...dirs].map((path) => ({ path, size: 0, kind: 'dir' as const })),
    ...[...bytes].map(([path, b]) => ({ path, size: b.length, kind: 'file' as const })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  return {
    location: 'memory',
    list: () => Promise.resolve(entries),
    read: (path) => Promise.resolve(bytes.get(path)),
    digest: (path, algorithms) => {
      const b = bytes.get(path);
      if (b === undefined) return Promise.resolve(undefined);
      return Promise.resolve(new Map(algorithms.map((a) => [a, createHash(a).update(b).digest('hex')])));
    },
    close: () => Promise.resolve(),
  };
}

/** sha256 hex of a string, for writing manifests by hand. */
export function sha256Hex(s: string | Uint8Array): string {
  return createHash('sha256').update(s).digest('hex');
}
