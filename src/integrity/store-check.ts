// The object store half of `custody verify`. Every entry under sha256/ is looked at without
// following links or opening it; only regular files are hashed, and the hashing itself opens
// with O_NOFOLLOW | O_NONBLOCK and checks fstat (hash-files.adapter.ts), so a FIFO, a device or
// a link put in an object's place is a finding, never a hang or an object "present" elsewhere.
import { isSha256Hex } from '../core/index.js';
import type { FsObjectStore } from '../store/fs-store.adapter.js';
import type { FileDigest } from '../store/hash-files.adapter.js';
import type { Finding } from './findings.js';
import type { Replay } from './replay.js';

export interface ObjectStats {
  listed: number;
  hashed: number;
  bytes: number;
  referenced: number;
  withdrawn: number;
}

export type HashFiles = (paths: AsyncIterable<string>, onResult: (d: FileDigest) => void) => Promise<void>;

const OTHERS = 0o007; // permission bits for everyone else: evidence is never theirs to read

const KIND: Record<'symlink' | 'special' | 'directory', string> = {
  symlink: 'a symbolic link (even a link to a correct copy is not an object in this store)',
  special: 'a special file (a FIFO, a device or a socket)',
  directory: 'a folder',
};

export async function checkObjects(store: FsObjectStore, hashFiles: HashFiles, replay: Replay): Promise<{ findings: Finding[]; stats: ObjectStats }> {
  const findings: Finding[] = [];
  const present = new Set<string>();
  const unreadable = new Set<string | null>(); // prefixes whose folder could not be read; null: all of sha256/
  const open = { files: 0, folders: 0 };
  const stats: ObjectStats = { listed: 0, hashed: 0, bytes: 0, referenced: replay.referenced.size, withdrawn: replay.withdrawn.size };
  async function* paths(): AsyncGenerator<string> {
    for await (const o of store.list()) {
      if (o.type === 'folder') {
        if ((o.mode & OTHERS) !== 0) open.folders++;
        continue;
      }
      if (o.type === 'unreadable') {
        unreadable.add(o.prefix);
        findings.push(f('STORE_UNREADABLE', `the store folder ${o.path} cannot be read (${o.error}); the objects in it were not checked`, o.path));
        continue;
      }
      stats.listed++;
      if (!isSha256Hex(o.name) || o.prefix !== o.name.slice(0, 2)) {
        findings.push(f('STORE_EXTRA_OBJECT', `a file in the object store is not named by a digest: ${o.prefix}/${o.name}`, o.path));
        continue;
      }
      present.add(o.name);
      if (o.type !== 'file') {
        findings.push(f('STORE_OBJECT_NOT_REGULAR', `object ${o.name} is ${KIND[o.type]}, not a file: it was not read`, o.name));
        continue;
      }
      yield o.path;
    }
  }
  await hashFiles(paths(), (d) => {
    const name = d.path.slice(-64);
    if (d.sha256 === null) {
      // Replaced between the listing and the open: the bounded open refuses it all the same.
      if (d.error === 'NOT_REGULAR' || d.error === 'ELOOP' || d.error === 'EMLINK') {
        findings.push(f('STORE_OBJECT_NOT_REGULAR', `object ${name} is not a regular file (${d.error}): it was not read`, name));
      } else {
        findings.push(f('STORE_UNREADABLE', `object ${name} cannot be read (${d.error ?? '?'})`, name));
      }
      return;
    }
    if (d.mode !== null && (d.mode & OTHERS) !== 0) open.files++;
    stats.hashed++;
    stats.bytes += d.size;
    if (d.sha256 !== name) findings.push(f('STORE_DIGEST_MISMATCH', `object ${name} re-hashes to ${d.sha256}: its bytes were changed`, name));
  });
  for (const sha of [...replay.referenced].sort()) {
    if (present.has(sha)) continue;
    if (unreadable.has(null) || unreadable.has(sha.slice(0, 2))) continue; // reported with its folder
    if (replay.withdrawn.has(sha)) {
      findings.push(f('STORE_OBJECT_WITHDRAWN', `object ${sha} is absent, as withdrawal entry ${replay.withdrawn.get(sha)} allows`, sha, 'info'));
    } else {
      findings.push(f('STORE_OBJECT_MISSING', `object ${sha} is named in the ledger but missing from the store, and no withdrawal covers it`, sha));
    }
  }
  for (const sha of [...present].sort()) {
    if (!replay.referenced.has(sha) && replay.complete) {
      findings.push(f('STORE_EXTRA_OBJECT', `object ${sha} is in the store but no ledger entry names it`, sha));
    } else if (replay.purged.has(sha)) {
      findings.push(f('STORE_PURGED_OBJECT_PRESENT', `object ${sha} is still present although deletion entry ${replay.purged.get(sha)} records its purge`, sha, 'warning'));
    }
  }
  if (open.files + open.folders > 0) {
    // Archives made before objects were 0440 and folders 0750: still intact, but readable by anyone.
    findings.push(
      f('STORE_MODE_WORLD_READABLE', `${open.files} object(s) and ${open.folders} store folder(s) are open to every user of this machine (made by an older Custody?): chmod -R o-rwx the objects folder`, 'objects', 'warning'),
    );
  }
  return { findings, stats };
}

function f(code: Finding['code'], message: string, subject: string | null, severity: Finding['severity'] = 'error'): Finding {
  return { code, severity, message, subject };
}
