// The detached completeness receipt (issue 11, "Completeness"): `custody export` writes
// OUT.receipt.json beside the bag (the dissemination entry, its inclusion proof at a signed
// checkpoint, a consistency proof from the bag's checkpoint); `verify-export --receipt` and the
// stdlib custody_verify/receipt.py check it. One tampering per test, asserting the code.
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { custodyIn, custodyInExpect, writeSourceTree, type TestArchive } from '../support/archive-fixtures.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

interface Receipt {
  format: string;
  bag: { tree_size: number; root: string; tagmanifest_sha256: string; selection: string };
  entry: string;
  seq: number;
  leaf_hash: string;
  checkpoint: string;
  inclusion_proof: string[];
  consistency_proof: string[];
}
interface VerifyOut {
  valid: boolean;
  steps: { step: number; ok: boolean; detail: string }[];
  findings: { code: string; step: number; severity: string; path?: string }[];
}
interface PyFinding {
  code: string;
  severity: string;
  message: string;
}

const REFERENCE = join(REPO_ROOT, 'src/verify/reference');

describe('export receipt (completeness)', () => {
  let base: string;
  let archive: TestArchive;
  let delivery: string;
  let keyFile: string;
  /** A clean delivery export: the bag, its receipt, the export's --json. */
  let clean: { bag: string; receipt: string; json: { receipt: string; ledger_seq: number; items: number } };
  const run = (args: string[], code = 0) => custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);

  async function exportBag(name: string, select: string): Promise<{ bag: string; receipt: string; json: typeof clean.json }> {
    const bag = join(base, 'out', name);
    const r = await run(['export', '--select', select, '--out', bag, '--json']);
    const json = JSON.parse(r.stdout) as typeof clean.json;
    return { bag, receipt: `${bag}.receipt.json`, json };
  }

  /** A copy of the clean bag and its receipt to tamper with. */
  async function copyOfClean(name: string): Promise<{ bag: string; receipt: string }> {
    const bag = join(base, 'tampered', name);
    await cp(clean.bag, bag, { recursive: true });
    await cp(clean.receipt, `${bag}.receipt.json`);
    return { bag, receipt: `${bag}.receipt.json` };
  }

  async function verify(bag: string, receipt: string, key: string[] = ['--key', keyFile]): Promise<VerifyOut & { code: number | null }> {
    const r = await custodyIn(['verify-export', bag, '--receipt', receipt, ...key, '--json']);
    expect(r.code, r.stderr).not.toBe(2);
    return { ...(JSON.parse(r.stdout) as VerifyOut), code: r.code };
  }

  const step8Codes = (v: VerifyOut): string[] => v.findings.filter((f) => f.step === 8 && f.severity === 'error').map((f) => f.code);

  /** The stdlib module, called as verify_bag.py will call it. */
  function python(bag: string, receipt: string, key: string | null = keyFile): PyFinding[] {
    const driver = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(REFERENCE)})`,
      'from custody_verify.receipt import check_receipt',
      'key = sys.argv[3] if len(sys.argv) > 3 else None',
      'print(json.dumps(check_receipt(sys.argv[1], sys.argv[2], key)))',
    ].join('\n');
    const out = execFileSync('python3', ['-B', '-c', driver, bag, receipt, ...(key === null ? [] : [key])], { encoding: 'utf8' });
    return JSON.parse(out) as PyFinding[];
  }
  const pyErrors = (f: PyFinding[]): string[] => f.filter((x) => x.severity === 'error').map((x) => x.code);

  beforeAll(async () => {
    base = await makeTempDir('export-receipt');
    await mkdir(join(base, 'out'));
    const dir = join(base, 'archive');
    const init = JSON.parse((await custodyInExpect(0, ['init', '--archive', dir, '--json'])).stdout) as { origin: string; verifier_key: string };
    archive = { dir, origin: init.origin, verifierKey: init.verifier_key, env: {} };
    keyFile = join(base, 'key.txt');
    await writeFile(keyFile, `${init.verifier_key}\n`);
    const tree = await writeSourceTree(join(base, 'src'));
    const ing = await run(['ingest', tree.root, '--source', 'CEDAR', '--new-source', '--json']);
    delivery = (JSON.parse(ing.stdout) as { delivery: string }).delivery;
    clean = await exportBag('clean', `delivery:${delivery}`);
  }, 120_000);

  it('a clean receipt verifies: written beside the bag, named by --json, checked by both verifiers', async () => {
    expect(clean.json.receipt).toBe(clean.receipt);
    expect((await stat(clean.receipt)).isFile()).toBe(true);
    const receipt = JSON.parse(await readFile(clean.receipt, 'utf8')) as Receipt;
    expect(receipt.format).toBe('custody-export-receipt');
    expect(receipt.seq).toBe(clean.json.ledger_seq);
    expect(receipt.bag.selection).toBe(`delivery:${delivery}`);
    const v = await verify(clean.bag, clean.receipt);
    expect(v.code).toBe(0);
    const s8 = v.steps.find((s) => s.step === 8);
    expect(s8?.ok).toBe(true);
    // The delivery's ingestion end entry was in the bag's ledger, and its count was checked.
    expect(s8?.detail).toMatch(/the \d+ items the deliveries' ingestion end entries record/);
    // A delivery bag does not carry the full ledger: check 6 warns so (EXPORT_PROCESS_INCOMPLETE);
    // nothing else is found.
    expect(v.findings.map((f) => `${f.severity} ${f.code}`)).toEqual(['warning EXPORT_PROCESS_INCOMPLETE']);
    expect(python(clean.bag, clean.receipt)).toEqual([]);
    // The key as PEM, in both verifiers; unpinned, each says where the key came from.
    const pem = join(clean.bag, 'custody/verifier-key.pem');
    expect((await verify(clean.bag, clean.receipt, ['--key', pem])).findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(python(clean.bag, clean.receipt, pem)).toEqual([]);
    const unpinned = await verify(clean.bag, clean.receipt, []);
    expect([unpinned.code, unpinned.findings.filter((f) => f.step === 8).map((f) => f.code)]).toEqual([0, ['EXPORT_KEY_NOT_PINNED']]);
    expect(python(clean.bag, clean.receipt, null).map((f) => [f.code, f.severity])).toEqual([['EXPORT_KEY_NOT_PINNED', 'warning']]);
    // Without --receipt, no step 8.
    const plain = JSON.parse((await custodyIn(['verify-export', clean.bag, '--key', keyFile, '--json'])).stdout) as VerifyOut;
    expect(plain.steps.map((s) => s.step)).not.toContain(8);
  });

  it('a zipped bag gets FILE.receipt.json, and verify-export BAG.zip --receipt says step 8 in words', async () => {
    const zip = join(base, 'out', 'zipped.zip');
    const r = await run(['export', '--select', `delivery:${delivery}`, '--out', zip]);
    const receipt = join(base, 'out', 'zipped.receipt.json');
    expect(r.stdout).toContain(`receipt (the entry, its proofs; keep it with the bag): ${receipt}`);
    const v = await custodyIn(['verify-export', zip, '--receipt', receipt, '--key', keyFile]);
    expect(v.code, v.stdout).toBe(0);
    expect(v.stdout).toContain("Completeness: VERIFIED (the receipt's signed entry names exactly the items in this bag)");
    expect(v.stdout).toMatch(/^ {2}ok {3}8\. completeness: the export receipt \(--receipt\): entry \d+ \(dissemination\) is in the log/m);
    // A receipt that is not a receipt: exit 1 with the code, not a crash or a usage error.
    await writeFile(join(base, 'out', 'junk.json'), '{"format":"something else"}');
    const junk = await custodyIn(['verify-export', zip, '--receipt', join(base, 'out', 'junk.json'), '--key', keyFile]);
    expect(junk.code).toBe(1);
    expect(junk.stdout).toContain('[EXPORT_RECEIPT_INVALID]');
    expect(junk.stdout).toContain('Completeness: NOT VERIFIED (EXPORT_RECEIPT_INVALID)');
    expect((await custodyIn(['verify-export', zip, '--receipt', join(base, 'out', 'missing.json')])).code).toBe(2);
  });

  it('the receipt of another bag of the same archive is refused (EXPORT_RECEIPT_INVALID)', async () => {
    const items = JSON.parse(await readFile(join(clean.bag, 'data/tables/items.json'), 'utf8')) as { item_id: string }[];
    const other = await exportBag('other', `items:${items[0]?.item_id ?? ''}`);
    const v = await verify(clean.bag, other.receipt);
    expect(v.code).toBe(1);
    expect(step8Codes(v)).toEqual(['EXPORT_RECEIPT_INVALID']);
    expect(pyErrors(python(clean.bag, other.receipt))).toEqual(['EXPORT_RECEIPT_INVALID']);
    // Each receipt still verifies its own bag.
    expect((await verify(other.bag, other.receipt)).code).toBe(0);
  });

  it('an item row removed from items.json, manifests resealed: EXPORT_SELECTION_INCOMPLETE with the receipt', async () => {
    const t = await copyOfClean('row-removed');
    const itemsPath = join(t.bag, 'data/tables/items.json');
    const rows = JSON.parse(await readFile(itemsPath, 'utf8')) as { item_id: string; bag_path: string | null }[];
    const [gone, ...kept] = rows;
    await writeFile(itemsPath, `${JSON.stringify(kept, null, 2)}\n`);
    if (gone?.bag_path) await rm(join(t.bag, gone.bag_path));
    await rm(join(t.bag, `custody/proofs/${gone?.item_id ?? ''}.json`));
    const exportJson = join(t.bag, 'custody/export.json');
    const ej = JSON.parse(await readFile(exportJson, 'utf8')) as { items: number };
    await writeFile(exportJson, `${JSON.stringify({ ...ej, items: kept.length }, null, 2)}\n`);
    reseal(t.bag);
    const v = await verify(t.bag, t.receipt);
    expect(v.code).toBe(1);
    // The receipt is authentic and of this export (checkpoint, selection); the bag is not what
    // was exported (tag-manifest digest), and what is missing is named.
    expect(step8Codes(v)).toContain('EXPORT_SELECTION_INCOMPLETE');
    const missing = v.findings.find((f) => f.code === 'EXPORT_SELECTION_INCOMPLETE');
    expect(missing?.path).toBe('data/tables/items.json');
    expect(JSON.stringify(v.findings)).toContain(gone?.item_id ?? '?');
    expect(pyErrors(python(t.bag, t.receipt))).toContain('EXPORT_SELECTION_INCOMPLETE');
  });

  it('a delivery bag holding fewer items than its ingestion end entry records: EXPORT_SELECTION_INCOMPLETE', async () => {
    // The count the delivery ended with, raised by one in the bag's ledger copy: the bag now
    // holds one item less than the delivery received, though it names every item its entry does.
    const t = await copyOfClean('delivery-count');
    const ledgerPath = join(t.bag, 'custody/ledger.jsonl');
    const lines = (await readFile(ledgerPath, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"ingestion end"'));
    expect(at).toBeGreaterThan(0);
    lines[at] = (lines[at] ?? '').replace(/"items_added":(\d+)/, (_, n: string) => `"items_added":${Number(n) + 1}`);
    await writeFile(ledgerPath, lines.join('\n'));
    reseal(t.bag);
    const v = await verify(t.bag, t.receipt);
    expect(v.code).toBe(1);
    const counted = (m: string): boolean => /ingestion end entries of .* record \d+ items added, the bag holds \d+/.test(m);
    const r = await custodyIn(['verify-export', t.bag, '--receipt', t.receipt, '--key', keyFile]);
    expect(step8Codes(v)).toContain('EXPORT_SELECTION_INCOMPLETE');
    expect(r.stdout.split('\n').some((l) => l.includes('[EXPORT_SELECTION_INCOMPLETE]') && counted(l))).toBe(true);
    const py = python(t.bag, t.receipt);
    expect(py.some((f) => f.code === 'EXPORT_SELECTION_INCOMPLETE' && counted(f.message))).toBe(true);
  });

  it('a receipt whose entry was edited (leaf hash recomputed) is refused (EXPORT_RECEIPT_INVALID)', async () => {
    const t = await copyOfClean('entry-edited');
    const r = JSON.parse(await readFile(t.receipt, 'utf8')) as Receipt;
    const entry = JSON.parse(r.entry) as { items: string[]; details: { items: number } };
    entry.items = entry.items.slice(1);
    entry.details.items -= 1;
    const { canonicalize } = await import('../../src/core/canonical-json.js');
    const { hashLeaf } = await import('../../src/core/merkle.js');
    const edited = canonicalize(entry);
    await writeFile(t.receipt, JSON.stringify({ ...r, entry: edited, leaf_hash: hashLeaf(Buffer.from(edited)).toString('hex') }));
    const v = await verify(t.bag, t.receipt);
    expect(v.code).toBe(1);
    expect(step8Codes(v)).toEqual(['EXPORT_RECEIPT_INVALID']);
    expect(pyErrors(python(t.bag, t.receipt))).toEqual(['EXPORT_RECEIPT_INVALID']);
  });

  it('a receipt whose checkpoint is signed by another key is refused (EXPORT_RECEIPT_INVALID)', async () => {
    const t = await copyOfClean('other-key');
    const r = JSON.parse(await readFile(t.receipt, 'utf8')) as Receipt;
    // Same origin name, a forger's key: the note's text re-signed (key ID of the forger's key).
    const { createEd25519Signer, signNote } = await import('../../src/core/checkpoint.js');
    const { privateKey } = generateKeyPairSync('ed25519');
    const text = r.checkpoint.slice(0, r.checkpoint.lastIndexOf('\n\n') + 1);
    const forged = signNote(text, [createEd25519Signer(archive.origin, privateKey)]);
    await writeFile(t.receipt, JSON.stringify({ ...r, checkpoint: forged }));
    for (const key of [['--key', keyFile], []]) {
      const v = await verify(t.bag, t.receipt, key);
      expect(v.code).toBe(1);
      expect(step8Codes(v)).toEqual(['EXPORT_RECEIPT_INVALID']);
    }
    expect(pyErrors(python(t.bag, t.receipt))).toEqual(['EXPORT_RECEIPT_INVALID']);
    expect(pyErrors(python(t.bag, t.receipt, null))).toEqual(['EXPORT_RECEIPT_INVALID']);
  });

  it('an existing receipt file refuses the export (exit 2), and nothing is written or recorded', async () => {
    const out = join(base, 'out', 'taken');
    const existing = `${out}.receipt.json`;
    await writeFile(existing, 'someone else\'s receipt\n');
    const before = (await readFile(join(archive.dir, 'ledger', 'entries.jsonl'), 'utf8')).split('\n').length;
    const r = await run(['export', '--select', `delivery:${delivery}`, '--out', out, '--json'], 2);
    expect(r.stderr).toContain('EXPORT_OUT_EXISTS');
    expect(await readFile(existing, 'utf8')).toBe('someone else\'s receipt\n');
    await expect(stat(out)).rejects.toThrow();
    expect((await readFile(join(archive.dir, 'ledger', 'entries.jsonl'), 'utf8')).split('\n').length).toBe(before);
  });
});

/** What a forger does after editing files: recompute both manifests and Payload-Oxum. */
function reseal(dir: string): void {
  const script = [
    "find data -type f | LC_ALL=C sort | xargs sha256sum > manifest-sha256.txt",
    'oxum="$(find data -type f -printf \'%s\\n\' | awk \'{s+=$1; n++} END {print s "." n}\')"',
    'sed -i "s/^Payload-Oxum: .*/Payload-Oxum: $oxum/" bag-info.txt',
    "find . -type f ! -path './data/*' ! -name tagmanifest-sha256.txt | cut -c3- | LC_ALL=C sort | xargs sha256sum > tagmanifest-sha256.txt",
  ].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}
