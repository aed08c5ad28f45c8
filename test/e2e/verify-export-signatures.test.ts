// Issue 12, "Per-person signing keys": `custody verify-export` checks every person's signature in
// a bag's ledger lines (self-signed key enrolments, submissions, adjudications) with the key that
// was the person's valid key at the entry's seq, as `custody verify` does for the archive (one
// implementation: examination/blind/signed-acts.ts). The forgeries that matter are written by
// whoever holds the archive's key (the writer), not by the examiner: they are committed here
// through the archive's own writer (openArchive + commit, a test-only path), so that the bag's
// Merkle checks all hold and only the person's signature can tell. A bag that lacks the enrolment
// a signature depends on says so (EXPORT_SIGNATURE_UNVERIFIABLE) instead of passing.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/app.js';
import { rawPublicKey } from '../../src/archive/index.js';
import { loadConfig } from '../../src/config/index.js';
import { personKeyFingerprint, personKeyId, personSignedBytes, sha256, toHex, type JsonValue } from '../../src/core/index.js';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { resealBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';
import { caseCodesOf } from '../support/case-codes.js';
import { uncheckedDraft } from '../support/unchecked-draft.js';

interface Finding {
  code: string;
  severity: string;
  step: number;
  message: string;
  details?: Record<string, unknown>;
}
interface Report {
  valid: boolean;
  steps: { step: number; ok: boolean; detail: string }[];
  findings: Finding[];
}
interface Entry {
  seq: number;
  actor: string;
  details: Record<string, unknown> & { action?: string };
}
type Json = Record<string, unknown>;

const PASSWORD = 'pw-bag-sign-Qx8-4471';
const hasTool = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const python = hasTool('python3', ['--version']) && hasTool('openssl', ['version']);
const KEY_PASSWORD = 'key password of the bag test 5530';

describe('verify-export checks people\'s signatures (issue 12)', () => {
  let dir: string;
  let env: Record<string, string>;
  let pinned: string;
  let sampleId = '';
  const ids: Record<string, string> = {};
  const codes: string[] = [];
  const [subject] = worldSubjects(1);

  const ok = async (who: string, args: string[]) => {
    const r = await custodyIn([...args, '--actor', ids[who] ?? who], env);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const log = async (): Promise<Entry[]> =>
    (await ok('inv-d', ['log', '--json'])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const submit = async (who: string, n: number) => {
    await writeFile(join(dir, `${who}.json`), JSON.stringify(examinerForm(subject!, who, 0)));
    return ok(who, ['examine', 'submit', 'plan', codes[n]!, '--form', join(dir, `${who}.json`), '--key-password-file', join(dir, 'kp')]);
  };
  let bags = 0;
  const exportBag = async (...extra: string[]): Promise<string> => {
    const out = join(dir, `bag-${++bags}`);
    await ok('inv-d', ['export', '--select', 'sample:plan', '--out', out, ...extra]);
    return out;
  };
  /** verify-export's report; the bag's own verify_bag.py (Python, openssl) must find the same error codes. */
  const verifyBag = async (bag: string, code: number): Promise<Report> => {
    const r = JSON.parse((await custodyInExpect(code, ['verify-export', bag, '--key', pinned, '--json'])).stdout) as Report;
    if (python) {
      const py = spawnSync('python3', [join(bag, 'verify_bag.py'), bag, '--key', pinned, '--json'], { encoding: 'utf8' });
      expect(py.stderr).toBe('');
      const set = (x: Report) => [...new Set(errors(x).map((f) => f.code))].sort();
      expect(set(JSON.parse(py.stdout) as Report), 'verify_bag.py').toEqual(set(r));
    }
    return r;
  };
  const errors = (r: Report) => r.findings.filter((f) => f.severity === 'error');
  /** Appends entries through the archive's own writer: what a holder of the archive key could write. */
  const commitAsWriter = async (drafts: { actor: string; type: 'examination' | 'cataloguing'; details: { [k: string]: JsonValue } }[]): Promise<number[]> => {
    const archive = await openArchive(loadConfig({ ...env, CUSTODY_ACTOR: 'writer' }, {}), 'write', 'test: the writer forges');
    try {
      const before = archive.treeSize;
      await archive.commit(drafts.map((d) => uncheckedDraft(d)));
      return drafts.map((_, i) => before + i);
    } finally {
      await archive.close();
    }
  };
  /** A submission's details as the service writes them, signed by `signer` (or carrying `value`). */
  const submission = (examiner: string, n: number, keyId: string, signer: Parameters<typeof sign>[2] | Buffer): { [k: string]: JsonValue } => {
    const sealed = randomBytes(48).toString('base64');
    const commitment = toHex(sha256(randomBytes(32)));
    const fields = { plan: sampleId, case: codes[n]!, commitment, sealed_sha256: toHex(sha256(Buffer.from(sealed, 'utf8'))), key_id: keyId };
    const value = Buffer.isBuffer(signer) ? signer : sign(null, personSignedBytes('submit', fields), signer);
    const caseId = caseIds[n]!;
    return { action: 'examination.submit', sample: sampleId, case: caseId, examiner, commitment, sealed, signature: { key_id: keyId, value: value.toString('base64') } };
  };
  const caseIds: string[] = [];
  const keyOf: Record<string, string> = {};

  beforeAll(async () => {
    dir = await makeTempDir('custody-bag-sign');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    await writeFile(join(dir, 'pw'), `${PASSWORD}\n`, { mode: 0o600 });
    await writeFile(join(dir, 'kp'), `${KEY_PASSWORD}\n`, { mode: 0o600 });
    await custodyInExpect(0, ['init', '--admin', 'Boss Admin', '--admin-password-file', join(dir, 'pw')], { ...env, CUSTODY_ACTOR: 'installer' });
    for (const [name, role] of [['ex-a', 'examiner'], ['ex-b', 'examiner'], ['ex-c', 'examiner'], ['inv-d', 'investigator']] as const) {
      const r = await custodyInExpect(0, ['user', 'add', name, '--role', role, '--password-file', join(dir, 'pw'), '--json'], { ...env, CUSTODY_ACTOR: 'installer' });
      ids[name] = (JSON.parse(r.stdout) as { id: string }).id;
    }
    await mkdir(join(dir, 'photos'));
    for (let i = 0; i < 3; i++)
      await sharp({ create: { width: 12, height: 12, channels: 3, background: { r: 70 * i, g: 30, b: 60 } } }).png().toFile(join(dir, 'photos', `p${i}.png`));
    await ok('inv-d', ['ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source']);
    await ok('inv-d', ['sample', 'draw', '--name', 'plan', '--over', 'items', '--method', 'simple', '--size', '3']);
    await ok('inv-d', ['examine', 'assign', 'plan', '--examiners', 'ex-a,ex-b']);
    const assign = (await log()).find((e) => e.details.action === 'examination.assign')!;
    sampleId = String(assign.details.sample);
    for (const [caseId, code] of await caseCodesOf(env, 'plan')) {
      codes.push(code);
      caseIds.push(caseId);
    }
    for (const who of ['ex-a', 'ex-b']) {
      const r = JSON.parse((await ok('inv-d', ['key', 'enrol', '--user', who, '--key-password-file', join(dir, 'kp'), '--json'])).stdout) as { key_id: string };
      keyOf[who] = r.key_id;
    }
    await submit('ex-a', 0);
    await submit('ex-b', 0); // the case is revealed
    pinned = join(dir, 'pinned-key.txt');
    await writeFile(pinned, (await ok('inv-d', ['key', '--public'])).stdout);
  }, 120_000);

  it('a bag of a signed examination verifies: both enrolments and both submissions checked with the key valid at their seq', async () => {
    const r = await verifyBag(await exportBag(), 0);
    expect(r.valid).toBe(true);
    expect(errors(r)).toEqual([]);
    expect(r.steps.find((s) => s.step === 7)?.detail).toContain("4 of 4 people's signatures verify with the key valid at their entry");
  });

  it('a partial bag (--no-full-ledger) carries the key enrolments its signatures need, and verifies them', async () => {
    const r = await verifyBag(await exportBag('--no-full-ledger'), 0);
    expect(errors(r)).toEqual([]);
    expect(r.findings.map((f) => f.code)).toContain('EXPORT_PROCESS_INCOMPLETE');
    expect(r.steps.find((s) => s.step === 7)?.detail).toContain("4 of 4 people's signatures verify");
  });

  it('a partial bag without the enrolment a signature depends on says so: EXPORT_SIGNATURE_UNVERIFIABLE, naming the entry and key, never a pass', async () => {
    const bag = join(dir, 'partial-no-enrol');
    await cp(await exportBag('--no-full-ledger'), bag, { recursive: true });
    // Leave out ex-a's enrolment line and its proof line, as a hand-trimmed bag would.
    const ledgerPath = join(bag, 'custody/ledger.jsonl');
    const proofsPath = join(bag, 'custody/ledger-proofs.jsonl');
    const lines = (await readFile(ledgerPath, 'utf8')).split('\n');
    const proofs = (await readFile(proofsPath, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l !== '' && (JSON.parse(l) as Entry).details.action === 'account.key.enrol' && (JSON.parse(l) as Entry).details.key_id === keyOf['ex-a']);
    expect(at).toBeGreaterThanOrEqual(0);
    lines.splice(at, 1);
    proofs.splice(at, 1);
    await writeFile(ledgerPath, lines.join('\n'));
    await writeFile(proofsPath, proofs.join('\n'));
    await resealBag(bag);
    const r = await verifyBag(bag, 1);
    expect(r.valid).toBe(false);
    const submitSeq = (await log()).find((e) => e.details.action === 'examination.submit' && e.details.examiner === ids['ex-a'])!.seq;
    expect(errors(r).map((f) => [f.code, f.details?.seq, f.details?.key_id])).toEqual([['EXPORT_SIGNATURE_UNVERIFIABLE', submitSeq, keyOf['ex-a']]]);
    expect(errors(r)[0]?.message).toContain('does not carry that key');
    // Steps 1-6 hold: the lines shown are authentic; only the signature cannot be checked.
    expect(r.steps.filter((s) => s.step <= 6).every((s) => s.ok)).toBe(true);
  });

  it('a signature byte changed in the bag is reported as EXPORT_SIGNATURE_INVALID among the findings (beside the broken root)', async () => {
    const bag = join(dir, 'flipped');
    await cp(await exportBag(), bag, { recursive: true });
    const path = join(bag, 'custody/ledger.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l !== '' && (JSON.parse(l) as Entry).details.action === 'examination.submit');
    const e = JSON.parse(lines[at]!) as Json & { seq: number; details: { signature: { value: string } } };
    const value = Buffer.from(e.details.signature.value, 'base64');
    value[10] = (value[10] ?? 0) ^ 0x01;
    e.details.signature.value = value.toString('base64');
    lines[at] = JSON.stringify(e);
    await writeFile(path, lines.join('\n'));
    await resealBag(bag);
    const r = await verifyBag(bag, 1);
    expect(errors(r).find((f) => f.code === 'EXPORT_SIGNATURE_INVALID')?.details).toMatchObject({ seq: e.seq, act: 'submit' });
    expect(errors(r).map((f) => f.code)).toContain('EXPORT_ENTRY_UNPROVEN');
  });

  it('a submission the writer signed with a made-up value: every Merkle check holds, the signature alone refuses it (verify and verify-export)', async () => {
    const [seq] = await commitAsWriter([{ actor: ids['ex-a']!, type: 'examination', details: submission(ids['ex-a']!, 1, keyOf['ex-a']!, randomBytes(64)) }]);
    const verify = await custodyIn(['verify', '--json'], env);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('EXAMINATION_SIGNATURE_INVALID');
    const r = await verifyBag(await exportBag(), 1);
    expect(r.steps.filter((s) => s.step <= 6).every((s) => s.ok)).toBe(true);
    expect(errors(r).map((f) => [f.code, f.details?.seq, f.details?.person])).toEqual([['EXPORT_SIGNATURE_INVALID', seq, ids['ex-a']]]);
    expect(errors(r)[0]?.message).toContain('does not verify');
  });

  it('a signature by a key revoked at an earlier seq is refused: EXPORT_SIGNATURE_INVALID naming where the key ended', async () => {
    // ex-c enrols a key (self-signed, as the CLI would), which is then revoked by the CLI.
    const { privateKey } = generateKeyPairSync('ed25519');
    const pub = rawPublicKey(privateKey);
    const fields = { account: ids['ex-c']!, key_id: personKeyId(pub), public_key: pub.toString('base64') };
    const enrol = { action: 'account.key.enrol', ...fields, algorithm: 'Ed25519', fingerprint: personKeyFingerprint(pub), replaces: null, signature: sign(null, personSignedBytes('key enrol', fields), privateKey).toString('base64') };
    const [enrolSeq] = await commitAsWriter([{ actor: ids['ex-c']!, type: 'cataloguing', details: enrol }]);
    await ok('inv-d', ['key', 'revoke', '--user', 'ex-c', '--reason', 'laptop stolen']);
    const revokeSeq = (await log()).find((e) => e.details.action === 'account.key.revoke')!.seq;
    // Later, a submission by ex-c genuinely signed with that key (whoever holds the stolen laptop).
    const [seq] = await commitAsWriter([{ actor: ids['ex-c']!, type: 'examination', details: submission(ids['ex-c']!, 2, fields.key_id, privateKey) }]);
    expect(seq).toBeGreaterThan(revokeSeq);
    expect(enrolSeq).toBeLessThan(revokeSeq);
    const r = await verifyBag(await exportBag(), 1);
    const mine = errors(r).filter((f) => f.details?.seq === seq);
    expect(mine.map((f) => f.code)).toEqual(['EXPORT_SIGNATURE_INVALID']);
    expect(mine[0]?.message).toContain(`was not valid at entry ${seq} (enrolled at ${enrolSeq}, ended at ${revokeSeq})`);
    // The same signature before the revocation would have held: the enrolment itself is fine.
    expect(errors(r).some((f) => f.details?.seq === enrolSeq)).toBe(false);
  });
});
