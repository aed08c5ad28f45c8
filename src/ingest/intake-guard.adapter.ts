// What intake refuses to read, decided on identities (dev, ino) and file systems, never on names:
// anything that belongs to the archive (its key, index, ledger, objects), and anything on a
// kernel pseudo file system (/proc/self/environ looks like an empty regular file, yet reading it
// yields the process's environment, passphrases included).
import { existsSync, type BigIntStats } from 'node:fs';
import { lstat, readdir, readFile, realpath, statfs } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** A file's identity, as lstat and fstat give it: equal identities are the same file. */
export interface Identity {
  dev: bigint;
  ino: bigint;
}

export type RefusalCode = 'INGEST_ARCHIVE_FILE' | 'INGEST_PSEUDO_FILESYSTEM' | 'INGEST_FILE_REPLACED';
export interface Refusal {
  code: RefusalCode;
  message: string;
}

/**
 * statfs(2) f_type magic numbers (linux/magic.h) of file systems whose "files" are kernel state.
 * devtmpfs reports TMPFS_MAGIC, so it is recognised by name in /proc/self/mountinfo instead.
 */
const PSEUDO_MAGIC: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x0027e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0xcafe4a11, 'bpf'],
  [0x62656570, 'configfs'],
  [0xde5e81e4, 'efivarfs'],
  [0x6165676c, 'pstore'],
  [0x65735543, 'fusectl'],
  [0x42494e4d, 'binfmt_misc'],
  [0xf97cff8c, 'selinuxfs'],
  [0x19800202, 'mqueue'],
]);
const PSEUDO_NAMES = new Set([...PSEUDO_MAGIC.values(), 'devtmpfs']);

/** Folders of the archive that hold evidence or derived files: many entries, no secrets. */
const BULK_FOLDERS = new Set(['objects', 'derived']);

export const identityKey = (i: Identity): string => `${i.dev}:${i.ino}`;

export class IntakeGuard {
  /** dev → the name of the pseudo file system on it, or null for an ordinary one. */
  private readonly filesystems = new Map<bigint, string | null>();
  private mountinfo: Map<string, string> | null = null;
  private storeIdentities: Promise<Set<string>> | null = null;

  private constructor(
    readonly archiveDir: string,
    private readonly archiveDev: bigint,
    /** Every file and folder of the archive except the contents of objects/ and derived/. */
    private readonly archiveIdentities: Set<string>,
  ) {}

  /** Lists the archive's own files (key, index, ledger, checkpoints) by identity. */
  static async forArchive(archiveDir: string): Promise<IntakeGuard> {
    const dir = await realpath(archiveDir);
    const own = new Set<string>();
    const root = await lstat(dir, { bigint: true });
    own.add(identityKey(root));
    await collect(dir, own, (name, depth) => depth > 0 || !BULK_FOLDERS.has(name));
    return new IntakeGuard(dir, root.dev, own);
  }

  /**
   * Whether intake may read this entry. `probe` names it (for statfs on a device not seen
   * before); the entry is lstat'd again after, so a swap in between is caught. A probe that is
   * an open descriptor (/proc/self/fd/N) names the file itself and needs no second look.
   */
  async check(st: BigIntStats, probe: string | Buffer, probeIsDescriptor = false): Promise<Refusal | null> {
    const key = identityKey(st);
    if (this.archiveIdentities.has(key) || (await this.isStoreObject(st))) {
      return {
        code: 'INGEST_ARCHIVE_FILE',
        message: "this is one of the archive's own files (the same file, by device and inode): not read",
      };
    }
    let fs = this.filesystems.get(st.dev);
    if (fs === undefined) {
      const found = await this.filesystemOf(st, probe, probeIsDescriptor);
      if (typeof found === 'object' && found !== null) return found;
      fs = found;
      this.filesystems.set(st.dev, fs);
    }
    if (fs !== null) {
      return {
        code: 'INGEST_PSEUDO_FILESYSTEM',
        message: `on a ${fs} file system (kernel state, not a file anyone delivered): not read`,
      };
    }
    return null;
  }

  /** Store objects are many: listed only when a delivery holds a hard-linked file on the archive's device. */
  private async isStoreObject(st: BigIntStats): Promise<boolean> {
    if (!st.isFile() || st.nlink < 2n || st.dev !== this.archiveDev) return false;
    this.storeIdentities ??= (async () => {
      const all = new Set<string>();
      for (const name of BULK_FOLDERS) await collect(join(this.archiveDir, name), all, () => true);
      return all;
    })();
    return (await this.storeIdentities).has(identityKey(st));
  }

  private async filesystemOf(
    st: BigIntStats,
    probe: string | Buffer,
    probeIsDescriptor: boolean,
  ): Promise<string | null | Refusal> {
    const byMount = await this.mountType(st.dev);
    if (byMount !== undefined) return PSEUDO_NAMES.has(byMount) ? byMount : null;
    // Not in mountinfo (btrfs subvolumes have their own anonymous devices): ask statfs.
    if (st.isSymbolicLink()) return null; // a link is never followed, so never read through
    const type = Number((await statfs(probe)).type);
    if (probeIsDescriptor) return PSEUDO_MAGIC.get(type) ?? null;
    const again = await lstat(probe, { bigint: true }).catch(() => null);
    if (again === null || again.dev !== st.dev || again.ino !== st.ino) {
      return { code: 'INGEST_FILE_REPLACED', message: 'replaced by another file while it was examined: not read' };
    }
    return PSEUDO_MAGIC.get(type) ?? null;
  }

  /** The file system type of the mount with this device number, from /proc/self/mountinfo. */
  private async mountType(dev: bigint): Promise<string | undefined> {
    const key = `${devMajor(dev)}:${devMinor(dev)}`;
    if (this.mountinfo === null || !this.mountinfo.has(key)) this.mountinfo = await readMountinfo();
    return this.mountinfo.get(key);
  }
}

/** Linux dev_t encoding (glibc gnu_dev_major / gnu_dev_minor). */
function devMajor(dev: bigint): bigint {
  return ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
}
function devMinor(dev: bigint): bigint {
  return (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
}

/** "maj:min" → file system type. Format: proc(5), /proc/[pid]/mountinfo. */
async function readMountinfo(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return out; // not Linux: statfs alone decides
  }
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    const devField = fields[2];
    const type = fields[dash + 1];
    if (dash < 0 || devField === undefined || type === undefined) continue;
    if (!out.has(devField)) out.set(devField, type);
  }
  return out;
}

async function collect(
  dir: string,
  into: Set<string>,
  keep: (name: string, depth: number) => boolean,
  depth = 0,
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!keep(name, depth)) {
      // The folder itself still counts: a bind mount of objects/ into a delivery is refused.
      const st = await lstat(join(dir, name), { bigint: true }).catch(() => null);
      if (st !== null) into.add(identityKey(st));
      continue;
    }
    const path = join(dir, name);
    const st = await lstat(path, { bigint: true }).catch(() => null);
    if (st === null) continue;
    into.add(identityKey(st));
    if (st.isDirectory()) await collect(path, into, keep, depth + 1);
  }
}

/** Whether `inner` is `outer` or lies inside it, both real paths. */
function isInside(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/**
 * How a path named for intake stands to the archive folder, by real paths (links resolved, so
 * a link to the archive counts as the archive): 'inside' it (or the archive itself),
 * 'contains' it, or null. A path that does not exist is the walk's to report.
 */
export async function archivePathConflict(path: string, archiveReal: string): Promise<'inside' | 'contains' | null> {
  const real = await realpath(path).catch(() => null);
  if (real === null) return null;
  if (isInside(real, archiveReal)) return 'inside';
  if (isInside(archiveReal, real)) return 'contains';
  return null;
}

/** /proc/self/fd/N names the open file itself (Linux): the race-free stand-in for openat(2). */
export const PROC_FD = existsSync('/proc/self/fd') ? '/proc/self/fd' : null;
