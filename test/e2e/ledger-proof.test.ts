// Issue 11, "every ledger line is proven": a bag of a sample carries the full ledger by default
// and `verify-export` recomputes the signed root from it (through the leaf hashes of withheld
// entries under --redact); without it, each line has its inclusion proof and the verifier says the
// process is not proven complete. Then one forgery per test, on a copy, with both manifests
// resealed as a forger would: each is EXPORT_ENTRY_UNPROVEN. In-process CLI on a small sample.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalBytes } from '../../src/core/index.js';
import { DEFAULT_CODEBOOK } from '../../src/examination/codebook/index.js';
import { custodyIn } from '../support/archive-fixtures.js';
import { resealBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';

interface Finding {
  code: string;
  severity: string;
  step: number;
  path?: string;
  details?: { seq?: number; line?: number };
}
interface VerifyJson {
  valid: boolean;
  full_ledger: boolean;
  steps: { step: number; ok: boolean; detail: string }[];
  findings: Finding[];
}
interface Entry {
  seq: number;
  type: string;
  details: Record<string, unknown>;
}

function form(): { sex: string; age_band: string; findings: Record<string, { value: string }> } {
  const findings: Record<string, { value: string }> = {};
  for (const f of DEFAULT_CODEBOOK.findings) findings[f.code] = { value: 'absent' };
  return { sex: 'male', age_band: '30-39', findings };
}

describe('every ledger line of a bag is proven', () => {
  let dir: string;
  let env: Record<string, string>;
  let pinned: string;
  let full: string;
  let partial: string;
  let redacted: string;
  let treeSize: number;
  const ok = async (actor: string, ...args: string[]) => {
    const r = await custodyIn(args, { ...env, CUSTODY_ACTOR: actor });
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const verify = async (bag: string): Promise<{ code: number | null; json: VerifyJson; text: string }> => {
    const j = await custodyIn(['verify-export', bag, '--key', pinned, '--json']);
    const t = await custodyIn(['verify-export', bag, '--key', pinned]);
    expect(t.code).toBe(j.code);
    return { code: j.code, json: JSON.parse(j.stdout) as VerifyJson, text: t.stdout };
  };
  const lines = async (bag: string): Promise<string[]> => (await readFile(join(bag, 'custody/ledger.jsonl'), 'utf8')).split('\n').filter(Boolean);
  const entries = async (bag: string): Promise<Entry[]> => (await lines(bag)).map((l) => JSON.parse(l) as Entry);
  /** A copy of `bag` edited by `edit`, with Payload-Oxum and both manifests recomputed. */
  const forge = async (bag: string, name: string, edit: (copy: string) => Promise<void>): Promise<string> => {
    const copy = join(dir, 'forged', name);
    await cp(bag, copy, { recursive: true });
    await edit(copy);
    await resealBag(copy);
    return copy;
  };
  const editLedger = (copy: string, change: (ls: string[]) => string[]) =>
    lines(copy).then((ls) => writeFile(join(copy, 'custody/ledger.jsonl'), change(ls).map((l) => `${l}\n`).join('')));
  const unproven = (v: VerifyJson) => v.findings.filter((f) => f.code === 'EXPORT_ENTRY_UNPROVEN');
  const isReveal = (l: string) => l.includes('"action":"examination.reveal"');

  beforeAll(async () => {
    dir = await makeTempDir('custody-ledger-proof');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (let i = 0; i < 6; i++)
      await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 40 * i, g: 255 - 40 * i, b: 90 } } }).png().toFile(join(photos, `p${i}.png`));
    await ok('registrar', 'init');
    await ok('registrar', 'ingest', photos, '--source', 'KITE', '--new-source');
    const drawn = JSON.parse((await ok('statistician', 'sample', 'draw', '--name', 'm', '--over', 'items', '--size', '4', '--json')).stdout) as { members: string[] };
    await ok('coordinator', 'examine', 'assign', 'm', '--examiners', 'dr-a,dr-b');
    const forms = `${drawn.members.map((c) => JSON.stringify({ case: c, form: form() })).join('\n')}\n`;
    await writeFile(join(dir, 'forms.jsonl'), forms);
    await ok('dr-a', 'examine', 'submit', 'm', '--forms', join(dir, 'forms.jsonl'));
    await ok('dr-b', 'examine', 'submit', 'm', '--forms', join(dir, 'forms.jsonl'));
    await ok('registrar', 'subject', 'add', '--sex', 'male', '--item', drawn.members[0] ?? '', '--reason', 'from the card');
    treeSize = (JSON.parse((await ok('registrar', 'checkpoint', '--json')).stdout) as { size: number }).size;
    pinned = join(dir, 'pinned.txt');
    await writeFile(pinned, (await ok('registrar', 'key', '--public')).stdout);
    full = join(dir, 'full');
    partial = join(dir, 'partial');
    redacted = join(dir, 'redacted');
    await ok('registrar', 'export', '--select', 'sample:m', '--out', full);
    await ok('registrar', 'export', '--select', 'sample:m', '--no-full-ledger', '--out', partial);
    await ok('registrar', 'export', '--select', 'sample:m', '--redact', '--out', redacted);
  }, 180_000);

  it('a clean sample bag carries the full ledger by default and proves every line by the signed root', async () => {
    expect(JSON.parse(await readFile(join(full, 'custody/export.json'), 'utf8'))).toMatchObject({ full_ledger: true, tree_size: treeSize });
    expect((await entries(full)).map((e) => e.seq)).toEqual([...Array(treeSize).keys()]);
    const v = await verify(full);
    expect(v.code).toBe(0);
    expect(v.json.findings).toEqual([]);
    expect([v.json.valid, v.json.full_ledger, v.json.steps.find((s) => s.step === 6)?.ok]).toEqual([true, true, true]);
    expect(v.text).toContain('Evidence files: VERIFIED');
    expect(v.text).toContain('Process: VERIFIED (full ledger)');
    // The dissemination entry records it.
    const log = (await ok('registrar', 'log', '--json')).stdout.split('\n').filter((l) => l.includes('"type":"dissemination"'));
    expect(log.map((l) => /"full_ledger":(true|false)/.exec(l)?.[1])).toEqual(['true', 'false', 'true']);
  });

  it('a clean bag without the full ledger proves every line by ledger-proofs.jsonl and warns EXPORT_PROCESS_INCOMPLETE', async () => {
    expect(JSON.parse(await readFile(join(partial, 'custody/export.json'), 'utf8'))).toMatchObject({ full_ledger: false });
    const shipped = await entries(partial);
    const proofs = (await readFile(join(partial, 'custody/ledger-proofs.jsonl'), 'utf8')).split('\n').filter(Boolean);
    expect(proofs.map((p) => (JSON.parse(p) as { seq: number }).seq)).toEqual(shipped.map((e) => e.seq));
    // Every entry behind the tables is there: the whole sample's examination, the subject's cataloguing.
    const all = await entries(full);
    const behind = all.filter((e) => e.type === 'examination' || (typeof e.details.action === 'string' && e.details.action.startsWith('subject.')));
    expect(behind.length).toBeGreaterThan(10);
    expect(shipped.map((e) => e.seq)).toEqual(expect.arrayContaining(behind.map((e) => e.seq)));
    expect(shipped.length).toBeLessThan(all.length);
    const v = await verify(partial);
    expect(v.code).toBe(0);
    expect(v.json.findings.map((f) => [f.code, f.severity])).toEqual([['EXPORT_PROCESS_INCOMPLETE', 'warning']]);
    expect(v.json.full_ledger).toBe(false);
    expect(v.json.steps.find((s) => s.step === 6)?.detail).toContain(`${shipped.length} of ${shipped.length} ledger lines proven`);
    expect(v.text).toMatch(/Process: NOT VERIFIED AS COMPLETE \(EXPORT_PROCESS_INCOMPLETE\): .*could be missing/);
  });

  it('a redacted full bag still recomputes the root through the leaf hashes of withheld entries', async () => {
    const withheld = JSON.parse(await readFile(join(redacted, 'custody/withheld-entries.json'), 'utf8')) as Record<string, unknown>[];
    expect(withheld.length).toBeGreaterThan(0);
    expect(Object.keys(withheld[0] ?? {})).toEqual(['seq', 'reason', 'leaf_hash', 'type', 'action']);
    expect([withheld[0]?.type, withheld[0]?.action]).toEqual(['cataloguing', 'source.register']);
    expect(withheld[0]?.leaf_hash).toMatch(/^[0-9a-f]{64}$/);
    const size = (JSON.parse(await readFile(join(redacted, 'custody/export.json'), 'utf8')) as { tree_size: number }).tree_size;
    expect((await entries(redacted)).length + withheld.length).toBe(size);
    const v = await verify(redacted);
    expect(v.code).toBe(0);
    expect(v.json.findings).toEqual([]);
    expect(v.json.full_ledger).toBe(true);
  });

  it('a revealed answer edited in a full ledger.jsonl, manifests resealed: EXPORT_ENTRY_UNPROVEN', async () => {
    const bag = await forge(full, 'edited-answer', (copy) =>
      editLedger(copy, (ls) => {
        const i = ls.findIndex(isReveal);
        expect(ls[i]).toContain('"sex":"male"');
        return ls.map((l, k) => (k === i ? l.replace('"sex":"male"', '"sex":"female"') : l));
      }),
    );
    const v = await verify(bag);
    expect(v.code).toBe(1);
    expect(unproven(v.json)).toHaveLength(1);
    expect(unproven(v.json)[0]?.path).toBe('custody/ledger.jsonl');
    expect(v.json.full_ledger).toBe(false);
    expect(v.text).toContain('Evidence files: VERIFIED');
    // Check 7 then says which answer: the edited reveal no longer opens its commitment.
    expect(v.text).toMatch(/^Process: NOT VERIFIED \(EXPORT_ENTRY_UNPROVEN, EXPORT_COMMITMENT_MISMATCH.*\)$/m);
  });

  it('a line removed from a full ledger.jsonl: EXPORT_ENTRY_UNPROVEN', async () => {
    const bag = await forge(full, 'removed-line', (copy) => editLedger(copy, (ls) => ls.filter((l) => !l.includes('"action":"examination.assign"'))));
    const v = await verify(bag);
    expect(v.code).toBe(1);
    expect(unproven(v.json)).toHaveLength(1);
  });

  it('a line added to a full ledger.jsonl (a forged adjudication): EXPORT_ENTRY_UNPROVEN', async () => {
    const bag = await forge(full, 'added-line', (copy) =>
      editLedger(copy, (ls) => {
        const reveal = JSON.parse(ls.find(isReveal) ?? '{}') as Entry & { details: { sample: string; case: string } };
        const forged = { ...reveal, seq: treeSize, details: { action: 'examination.adjudicate', case: reveal.details.case, decisions: [], final: form(), sample: reveal.details.sample } };
        return [...ls, canonicalBytes(forged).toString('utf8')];
      }),
    );
    const v = await verify(bag);
    expect(v.code).toBe(1);
    expect(unproven(v.json)).toHaveLength(1);
  });

  it('a line edited in a bag without the full ledger: the finding names its seq', async () => {
    let seq = -1;
    const bag = await forge(partial, 'partial-edited', (copy) =>
      editLedger(copy, (ls) => {
        const i = ls.findIndex(isReveal);
        seq = (JSON.parse(ls[i] ?? '{}') as Entry).seq;
        return ls.map((l, k) => (k === i ? l.replace('"sex":"male"', '"sex":"female"') : l));
      }),
    );
    const v = await verify(bag);
    expect(v.code).toBe(1);
    expect(unproven(v.json).map((f) => f.details?.seq)).toEqual([seq]);
    expect(v.json.findings.map((f) => f.code)).toContain('EXPORT_PROCESS_INCOMPLETE');
  });

  it('a withheld entry whose leaf hash was altered: the root no longer recomputes', async () => {
    const bag = await forge(redacted, 'withheld-hash', async (copy) => {
      const path = join(copy, 'custody/withheld-entries.json');
      const withheld = JSON.parse(await readFile(path, 'utf8')) as { leaf_hash: string }[];
      (withheld[0] as { leaf_hash: string }).leaf_hash = 'ab'.repeat(32);
      await writeFile(path, `${JSON.stringify(withheld, null, 2)}\n`);
    });
    const v = await verify(bag);
    expect(v.code).toBe(1);
    expect(unproven(v.json)).toHaveLength(1);
  });
});
