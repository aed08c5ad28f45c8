// A Custody export bag built by hand, following src/reports/export/LAYOUT.md line by line, from
// core/ only: a real RFC 9162 tree over canonical ledger entries and a real Ed25519-signed
// checkpoint. The verifier is tested against it; the exporter can diff its own output with it.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  canonicalBytes,
  createEd25519Signer,
  formatVerifierKey,
  hashLeaf,
  MerkleTree,
  sha256,
  signCheckpoint,
  toHex,
} from '../../src/core/index.js';
import { formatCsv } from '../../src/core/csv.js';
import { findReferenceFiles } from '../../src/reports/export/reference-files.adapter.js';
import { REPO_ROOT } from './cli.js';

const REFERENCE_DIR = join(REPO_ROOT, 'src', 'verify', 'reference');

export interface FixtureItem {
  /** Original file name (reduced to [A-Za-z0-9._-] for the bag name, as LAYOUT.md says). */
  name: string;
  bytes: Buffer;
  /** Withhold it (--redact): a blurred preview stands in at data/previews/<item-id>.webp. */
  redact?: boolean;
}

export interface BuildOptions {
  items?: FixtureItem[];
  origin?: string;
  /** The archive's Ed25519 key pair; a fresh one by default. */
  keys?: { privateKey: KeyObject; publicKey: KeyObject };
  /** Write custody/consistency.json from this earlier tree size (--since-checkpoint). */
  sinceSize?: number;
  /**
   * false: ledger.jsonl carries every entry but the last (the metadata extraction), with one
   * inclusion proof per line in custody/ledger-proofs.jsonl, and export.json says full_ledger
   * false. Default true: every entry, full_ledger true.
   */
  fullLedger?: boolean;
  /** Seqs left out of ledger.jsonl and listed in custody/withheld-entries.json with their leaf hash (--redact). */
  withheldSeqs?: number[];
}

export interface FixtureBag {
  dir: string;
  origin: string;
  keys: { privateKey: KeyObject; publicKey: KeyObject };
  verifierKey: string;
  pem: string;
  /** Every ledger entry's canonical bytes; the tree is over all of them. */
  entries: Buffer[];
  tree: MerkleTree;
  items: { itemId: string; seq: number; bagPath: string | null; sha256: string }[];
  /** A signed checkpoint note of this log at `size` (for --trusted-checkpoint). */
  checkpointAt(size: number): string;
}

export const DEFAULT_ITEMS: FixtureItem[] = [
  { name: 'IMG 0001.jpg', bytes: Buffer.from('\xff\xd8\xff\xe0 not really a jpeg, but bytes\n', 'latin1') },
  { name: 'witness statement (draft).pdf', bytes: Buffer.from('%PDF-1.7\n% statement\n') },
  { name: 'clip.mp4', bytes: Buffer.alloc(3000, 7) },
];

const ITEM_IDS = ['01HZX3K7Q8R9S0T1V2W3X4Y5Z6', '01HZX3K7Q8R9S0T1V2W3X4Y5Z7', '01HZX3K7Q8R9S0T1V2W3X4Y5Z8', '01HZX3K7Q8R9S0T1V2W3X4Y5Z9'];
const TIME = '2025-03-01T10:00:00.000Z';

export function newKeys(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ed25519');
}

export async function buildExportBag(dir: string, opts: BuildOptions = {}): Promise<FixtureBag> {
  const origin = opts.origin ?? 'custody.example.org/case-12';
  const keys = opts.keys ?? newKeys();
  const items = opts.items ?? DEFAULT_ITEMS;
  const entry = (seq: number, type: string, ids: string[], objects: string[], details: Record<string, unknown>) =>
    canonicalBytes({ seq, time: TIME, actor: 'intake-officer', type, items: ids, objects, details });
  const entries: Buffer[] = [entry(0, 'creation', [], [], { origin }), entry(1, 'ingestion start', [], [], { delivery: 'D1', source: 'KESTREL', received_by: null, medium: null, note: null, roots: [] })];
  const exported: FixtureBag['items'] = [];
  const rows: Record<string, string | number | null>[] = [];
  const files = new Map<string, Buffer>();
  items.forEach((item, i) => {
    const itemId = ITEM_IDS[i] ?? `01HZX3K7Q8R9S0T1V2W3X4Y6${String(i).padStart(2, '0')}`;
    const digest = toHex(sha256(item.bytes));
    const seq = entries.length;
    // Shaped as intake writes it, so that the verifiers' check 7 derives items.json from it.
    entries.push(
      entry(seq, 'ingestion', [itemId], [digest], {
        delivery: 'D1', parent: null, member_index: null, path: item.name, path_raw_hex: Buffer.from(item.name).toString('hex'), path_encoding: 'utf-8',
        relative_path: item.name, name: item.name, size: item.bytes.length, mtime: null, media_type: 'application/octet-stream', flags: [],
      }),
    );
    const safe = item.name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
    const bagPath = item.redact === true ? `data/previews/${itemId}.webp` : `data/items/${itemId}-${safe}`;
    files.set(bagPath, item.redact === true ? Buffer.from(`RIFF blurred preview of ${itemId}`) : item.bytes);
    exported.push({ itemId, seq, bagPath, sha256: digest });
    rows.push({
      item_id: itemId, bag_path: bagPath, sha256: digest, size: item.bytes.length, media_type: 'application/octet-stream',
      original_path: item.name, original_path_raw_hex: Buffer.from(item.name).toString('hex'), delivery_id: 'D1',
      source_codename: 'KESTREL', ingestion_seq: seq, withheld: item.redact === true ? 'identifies a witness' : null,
    });
  });
  entries.push(entry(entries.length, 'ingestion end', [], [], { delivery: 'D1', items: items.length }));
  entries.push(entry(entries.length, 'metadata extraction', [ITEM_IDS[0] ?? ''], [exported[0]?.sha256 ?? ''], { analyzer: 'fixture' }));
  const tree = new MerkleTree(entries.map((e) => hashLeaf(e)));
  const signer = createEd25519Signer(origin, keys.privateKey);
  const checkpointAt = (size: number) => signCheckpoint({ origin, size, root: tree.root(size), extensions: [] }, signer);
  const size = tree.size;
  const root = toHex(tree.root());
  const note = checkpointAt(size);
  const body = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const sigLine = note.slice(note.lastIndexOf('\n\n') + 2).split('\n')[0] ?? '';
  const verifierKey = formatVerifierKey(origin, keys.publicKey);
  const pem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);

  files.set('data/tables/items.json', json(rows));
  const columns = Object.keys(rows[0] ?? {});
  files.set('data/tables/items.csv', Buffer.from(formatCsv([columns, ...rows.map((r) => columns.map((c) => r[c] ?? null))])));
  files.set('custody/verifier-key.txt', Buffer.from(`${verifierKey}\n`));
  files.set('custody/verifier-key.pem', Buffer.from(pem));
  files.set('custody/checkpoint.txt', Buffer.from(note));
  files.set('custody/checkpoint.body', Buffer.from(body));
  files.set('custody/checkpoint.sig', Buffer.from(sigLine.slice(sigLine.lastIndexOf(' ') + 1), 'base64').subarray(4));
  for (const it of exported) {
    const bytes = entries[it.seq] as Buffer;
    files.set(`custody/entries/${it.seq}.json`, bytes);
    const proof = tree.inclusionProof(it.seq, size).map(toHex);
    files.set(`custody/proofs/${it.itemId}.json`, json({ item_id: it.itemId, seq: it.seq, tree_size: size, leaf_hash: toHex(hashLeaf(bytes)), proof, entry: `entries/${it.seq}.json` }));
  }
  const full = opts.fullLedger ?? true;
  const withheldSeqs = new Set(opts.withheldSeqs ?? []);
  const shipped = entries
    .map((bytes, seq) => ({ bytes, seq }))
    .filter((e) => !withheldSeqs.has(e.seq) && (full || e.seq < entries.length - 1));
  files.set('custody/ledger.jsonl', Buffer.from(shipped.map((e) => `${e.bytes.toString('utf8')}\n`).join('')));
  if (!full) {
    const proofLine = (e: { bytes: Buffer; seq: number }) =>
      `${canonicalBytes({ leaf_hash: toHex(hashLeaf(e.bytes)), proof: tree.inclusionProof(e.seq, size).map(toHex), seq: e.seq }).toString('utf8')}\n`;
    files.set('custody/ledger-proofs.jsonl', Buffer.from(shipped.map(proofLine).join('')));
  }
  files.set(
    'custody/withheld-entries.json',
    json(
      [...withheldSeqs].sort((a, b) => a - b).map((seq) => {
        const e = JSON.parse((entries[seq] as Buffer).toString('utf8')) as { type: string; details: { action?: unknown } };
        return {
          seq,
          reason: 'source record (sealed identity, custodian access): withheld under --redact',
          leaf_hash: toHex(hashLeaf(entries[seq] as Buffer)),
          type: e.type,
          action: typeof e.details.action === 'string' ? e.details.action : null,
        };
      }),
    ),
  );
  files.set('custody/events.json', json(exported.map((it) => ({ eventType: 'ingestion', eventDateTime: TIME, item_id: it.itemId, ledger_seq: it.seq }))));
  files.set('custody/withheld.json', json(items.flatMap((item, i) => (item.redact === true ? [{ item_id: exported[i]?.itemId, reason: 'identifies a witness', substitute: exported[i]?.bagPath }] : []))));
  files.set('custody/export.json', json({ format: 'custody-export', version: 1, origin, tree_size: size, root, selection: 'delivery:D1', items: items.length, redacted: items.some((x) => x.redact === true), full_ledger: full }));
  if (opts.sinceSize !== undefined) {
    const proof = tree.consistencyProof(opts.sinceSize, size).map(toHex);
    files.set('custody/consistency.json', json({ old_size: opts.sinceSize, old_root: toHex(tree.root(opts.sinceSize)), new_size: size, new_root: root, proof }));
  }
  for (const [path, bytes] of files) await put(dir, path, bytes);
  for (const ref of findReferenceFiles(REFERENCE_DIR).found) await put(dir, ref.name, await readFile(ref.path));
  await writeFile(join(dir, 'bagit.txt'), 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
  const info = [
    'Source-Organization: Office of the Prosecutor (test)', 'Bagging-Date: 2025-03-02', 'Payload-Oxum: 0.0',
    `External-Identifier: ${size}/${root}`, 'External-Description: Custody export of delivery D1', 'Bag-Software-Agent: custody 0.1.0',
    `Custody-Origin: ${origin}`, `Custody-Tree-Size: ${size}`, `Custody-Root: ${root}`, 'Custody-Selection: delivery:D1',
  ];
  await writeFile(join(dir, 'bag-info.txt'), `${info.join('\n')}\n`);
  await resealBag(dir);
  return { dir, origin, keys, verifierKey, pem, entries, tree, items: exported, checkpointAt };
}

/**
 * Recomputes Payload-Oxum, manifest-sha256.txt and tagmanifest-sha256.txt from what is on disk,
 * as the exporter does last, and as a forger would after editing a bag.
 */
export async function resealBag(dir: string): Promise<void> {
  const all = await listFiles(dir, '');
  const payload = all.filter((p) => p.startsWith('data/'));
  let octets = 0;
  const manifest: string[] = [];
  for (const p of payload) {
    const bytes = await readFile(join(dir, p));
    octets += bytes.length;
    manifest.push(`${toHex(sha256(bytes))}  ${p}\n`);
  }
  const infoPath = join(dir, 'bag-info.txt');
  const info = await readFile(infoPath, 'utf8');
  await writeFile(infoPath, info.replace(/^Payload-Oxum: .*$/m, `Payload-Oxum: ${octets}.${payload.length}`));
  await writeFile(join(dir, 'manifest-sha256.txt'), manifest.join(''));
  const tags = (await listFiles(dir, '')).filter((p) => !p.startsWith('data/') && p !== 'tagmanifest-sha256.txt');
  const lines: string[] = [];
  for (const p of tags) lines.push(`${toHex(sha256(await readFile(join(dir, p))))}  ${p}\n`);
  await writeFile(join(dir, 'tagmanifest-sha256.txt'), lines.join(''));
}

async function put(dir: string, path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), bytes);
}

/** Every regular file under dir, '/'-separated, sorted by byte order (LAYOUT.md's manifest order). */
async function listFiles(dir: string, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const p = prefix === '' ? d.name : `${prefix}/${d.name}`;
    if (d.isDirectory()) out.push(...(await listFiles(dir, p)));
    else if (d.isFile()) out.push(p);
  }
  return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The bag directory as a .zip with one top-level directory `top` (deflated members). */
export async function zipBag(dir: string, zipPath: string, top = 'export-bag'): Promise<void> {
  const { buildZip } = await import('./make-zips.js');
  const entries = [];
  for (const p of await listFiles(dir, '')) entries.push({ name: `${top}/${p}`, data: await readFile(join(dir, p)), method: 8 });
  await writeFile(zipPath, buildZip(entries));
}
