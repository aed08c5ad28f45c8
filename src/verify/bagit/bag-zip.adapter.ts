// A bag inside a .zip (one top-level directory holding bagit.txt, data/, ...), read with yauzl
// behind the same BagSource port as a directory. Untrusted input: yauzl refuses absolute and
// '..' member names (strictFileNames) and checks each member's size against the central
// directory as it inflates (validateEntrySizes); we refuse duplicates and links.
import yauzl from 'yauzl';
import { digestStream, MAX_TAG_FILE_BYTES } from './bag-dir.adapter.js';
import type { BagEntry, BagSource } from './source.js';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * Opens `zipPath` as a bag. Throws when it is not a readable zip or does not hold exactly one
 * top-level directory.
 *
 * @example
 *   const result = await validateBag(await openBagZip('case-12.zip'));
 */
export async function openBagZip(zipPath: string): Promise<BagSource> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true });
  try {
    const members = await readCentralDirectory(zip);
    const top = new Set([...members.keys()].map((n) => n.split('/')[0]));
    const [base] = top;
    if (top.size !== 1 || base === undefined || [...members.keys()].some((n) => n === base)) {
      throw new Error(`${zipPath} must hold exactly one top-level directory (the bag)`);
    }
    const files = new Map<string, yauzl.Entry>();
    const entries = new Map<string, BagEntry>();
    for (const [name, entry] of members) {
      const path = name.slice(base.length + 1).replace(/\/$/, '');
      if (path === '') continue;
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        if (!entries.has(dir)) entries.set(dir, { path: dir, size: 0, kind: 'dir' });
      }
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (name.endsWith('/')) entries.set(path, { path, size: 0, kind: 'dir' });
      else if (mode === S_IFLNK) entries.set(path, { path, size: 0, kind: 'other' });
      else {
        entries.set(path, { path, size: entry.uncompressedSize, kind: 'file' });
        files.set(path, entry);
      }
    }
    const list = [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return {
      location: zipPath,
      list: () => Promise.resolve(list),
      async read(path) {
        const entry = files.get(path);
        if (entry === undefined) return undefined;
        if (entry.uncompressedSize > MAX_TAG_FILE_BYTES) throw new Error(`${path} is larger than ${MAX_TAG_FILE_BYTES} bytes`);
        const chunks: Buffer[] = [];
        for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
      async digest(path, algorithms) {
        const entry = files.get(path);
        return entry === undefined ? undefined : digestStream(await zip.openReadStreamPromise(entry), algorithms);
      },
      close: () => Promise.resolve(zip.close()),
    };
  } catch (e) {
    zip.close();
    throw e;
  }
}

/** Every member by name; a name twice is refused (which of the two would be "the" file?). */
function readCentralDirectory(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const members = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      if (members.has(entry.fileName)) {
        reject(new Error(`the zip holds ${JSON.stringify(entry.fileName)} twice`));
        return;
      }
      members.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(members));
    zip.once('error', reject);
    zip.readEntry();
  });
}
