import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/index.js';
import { drawSimpleRandom } from '../examination/sampling/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import { generateKeyPairSync, sign } from 'node:crypto';
import { canonicalBytes, personKeyId, personSignedBytes, sha256, toHex } from '../core/index.js';
import { rawPublicKey } from '../archive/index.js';
import { caseCode, sealCaseId } from '../examination/blind/index.js';
import { ExaminationChecks } from './examination-checks.js';
import type { Finding } from './findings.js';

const FRAME = ['u1', 'u2', 'u3', 'u4', 'u5'];
const SEED = 'ab'.repeat(32);
const ROOT = Buffer.alloc(32, 7);

function entry(seq: number, details: Record<string, JsonValue>): LedgerEntry {
  return { seq, time: '2026-01-01T00:00:00Z', actor: 't', type: 'examination', items: [], objects: [], details };
}

/** A stepwise plan: frame at 3, seed at 9 naming `checkpoint`, manifest at 10. */
function run(checkpoint: { size: number; root: string }, members = drawSimpleRandom(FRAME, 2, SEED).members): Finding[] {
  const findings: Finding[] = [];
  const checks = new ExaminationChecks(findings, new Map([[5, ROOT]]));
  checks.collect(entry(3, { action: 'sample.frame', sample: { id: 's', method: 'simple', size: 2 }, frame: FRAME }));
  checks.collect(entry(9, { action: 'sample.seed', sample: 's', seed: SEED, seed_source: 'beacon', checkpoint }));
  checks.collect(entry(10, { action: 'sample.manifest', sample: 's', members: [...members] }));
  return findings;
}

describe('ExaminationChecks on a sample taken in steps', () => {
  it('accepts a seed after a checkpoint that covers the frame, with the ledger root, and redraws the sample', () => {
    expect(run({ size: 5, root: ROOT.toString('hex') })).toEqual([]);
  });

  it('flags a seed whose checkpoint does not cover the frame entry', () => {
    expect(run({ size: 3, root: ROOT.toString('hex') }).map((f) => f.code)).toEqual(['SAMPLE_SEED_CHECKPOINT_INVALID']);
  });

  it("flags a seed whose checkpoint root is not the ledger's root at that size", () => {
    expect(run({ size: 5, root: '00'.repeat(32) }).map((f) => f.code)).toEqual(['SAMPLE_SEED_CHECKPOINT_INVALID']);
  });

  it('still redraws the members (SAMPLE_DRAW_MISMATCH)', () => {
    expect(run({ size: 5, root: ROOT.toString('hex') }, ['u1', 'u2']).map((f) => f.code)).toContain('SAMPLE_DRAW_MISMATCH');
  });
});

describe('case codes published at close (issue 12)', () => {
  const codeKey = Buffer.alloc(32, 7);
  const assign = entry(5, {
    action: 'examination.assign',
    sample: 'S',
    per_case: 2,
    cases: ['s1', 's2'].map((c) => ({ case: c, code: caseCode(codeKey, c), examiners: ['x', 'y'] })),
  });

  it('the published key that gives every recorded code raises nothing', () => {
    const findings: Finding[] = [];
    const checks = new ExaminationChecks(findings);
    checks.collect(assign);
    checks.collect(entry(9, { action: 'examination.close', sample: 'S', case_code_key: codeKey.toString('hex') }));
    expect(findings).toEqual([]);
  });

  it('a published key that does not give the recorded codes (codes chosen, or the key swapped) is EXAMINATION_CASE_CODE_MISMATCH', () => {
    const findings: Finding[] = [];
    const checks = new ExaminationChecks(findings);
    checks.collect(assign);
    checks.collect(entry(9, { action: 'examination.close', sample: 'S', case_code_key: Buffer.alloc(32, 8).toString('hex') }));
    expect(findings.map((f) => [f.code, f.subject])).toEqual([['EXAMINATION_CASE_CODE_MISMATCH', 'entry 9']]);
  });
});

describe('sealed case ids, opened at close (issue 12, assignment version 2)', () => {
  const codeKey = Buffer.alloc(32, 7);
  const idKey = Buffer.alloc(32, 9);
  const members = ['s1', 's2', 's3'];
  const coded = members.map((m) => ({ member: m, code: caseCode(codeKey, m) })).sort((a, b) => (a.code < b.code ? -1 : 1));
  const assignCases = () => coded.map((c) => ({ code: c.code, sealed_case: sealCaseId(idKey, 'S', c.code, c.member), examiners: ['x', 'y'] }));
  const close = (over: Record<string, JsonValue> = {}) =>
    entry(9, { action: 'examination.close', sample: 'S', case_code_key: codeKey.toString('hex'), case_id_key: idKey.toString('hex'), cases: coded.map((c) => ({ code: c.code, case: c.member })), ...over });
  const verify = (cases: JsonValue[], closing = close()): Finding[] => {
    const findings: Finding[] = [];
    const checks = new ExaminationChecks(findings);
    checks.collect(entry(2, { action: 'sample.manifest', sample: 'S', members }));
    checks.collect(entry(5, { action: 'examination.assign', version: 2, sample: 'S', per_case: 2, plan_key: {}, cases }));
    checks.collect(closing);
    return findings.filter((f) => f.code !== 'SAMPLE_DRAW_MISMATCH'); // no frame here: only the close is under test
  };

  it('sealed ids that open to the drawn members, with codes and links that match, raise nothing', () => {
    expect(verify(assignCases())).toEqual([]);
  });

  it('a tampered sealed id is EXAMINATION_CASE_ID_MISMATCH', () => {
    const cases = assignCases();
    const first = cases[0] as { sealed_case: string };
    const raw = Buffer.from(first.sealed_case, 'base64');
    raw[14] = (raw[14] ?? 0) ^ 1;
    first.sealed_case = raw.toString('base64');
    expect(verify(cases).map((f) => [f.code, f.subject])).toEqual([['EXAMINATION_CASE_ID_MISMATCH', 'entry 9']]);
  });

  it('codes swapped between two cases are EXAMINATION_CASE_ID_MISMATCH (each sealed id is bound to its code)', () => {
    const cases = assignCases();
    const [a, b] = cases as { code: string }[];
    [a!.code, b!.code] = [b!.code, a!.code];
    expect(verify(cases).map((f) => f.code)).toEqual(['EXAMINATION_CASE_ID_MISMATCH']);
  });

  it('a close that lists a link the sealed ids do not give is EXAMINATION_CASE_ID_MISMATCH', () => {
    const swapped = coded.map((c, i) => ({ code: c.code, case: coded[(i + 1) % coded.length]!.member }));
    expect(verify(assignCases(), close({ cases: swapped })).map((f) => f.code)).toEqual(['EXAMINATION_CASE_ID_MISMATCH']);
  });

  it('ids sealed by a key other than the published one are EXAMINATION_CASE_ID_MISMATCH', () => {
    expect(verify(assignCases(), close({ case_id_key: Buffer.alloc(32, 1).toString('hex') })).map((f) => f.code)).toContain('EXAMINATION_CASE_ID_MISMATCH');
  });

  it('a code that is not the HMAC of the id it seals is EXAMINATION_CASE_CODE_MISMATCH', () => {
    const cases = [...assignCases(), { code: 'k-000000000000', sealed_case: sealCaseId(idKey, 'S', 'k-000000000000', 's4'), examiners: ['x', 'y'] }];
    const findings: Finding[] = [];
    const checks = new ExaminationChecks(findings);
    checks.collect(entry(2, { action: 'sample.manifest', sample: 'S', members: [...members, 's4'] }));
    checks.collect(entry(5, { action: 'examination.assign', version: 2, sample: 'S', per_case: 2, plan_key: {}, cases }));
    checks.collect(close({ cases: [...coded.map((c) => ({ code: c.code, case: c.member })), { code: 'k-000000000000', case: 's4' }] }));
    expect(findings.filter((f) => f.code !== 'SAMPLE_DRAW_MISMATCH').map((f) => f.code)).toEqual(['EXAMINATION_CASE_CODE_MISMATCH']);
  });
});

describe('people\'s signatures (issue 12)', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pub = rawPublicKey(privateKey);
  const keyId = personKeyId(pub);
  const enrolFields = { account: 'acc-a', key_id: keyId, public_key: pub.toString('base64') };
  const enrol = (seq: number, signature = sign(null, personSignedBytes('key enrol', enrolFields), privateKey)) =>
    entry(seq, { action: 'account.key.enrol', ...enrolFields, algorithm: 'Ed25519', fingerprint: 'f', replaces: null, signature: signature.toString('base64') });
  const assign = entry(3, { action: 'examination.assign', sample: 'S', per_case: 2, cases: [{ case: 's1', code: 'k-000000000001', examiners: ['acc-a', 'acc-b'] }] });
  const submit = (seq: number, opts: { signed?: boolean; commitmentSigned?: string } = {}) => {
    const sealed = 'c2VhbGVk';
    const fields = { plan: 'S', case: 'k-000000000001', commitment: opts.commitmentSigned ?? 'abc', sealed_sha256: toHex(sha256(Buffer.from(sealed, 'utf8'))), key_id: keyId };
    const signature = { key_id: keyId, value: sign(null, personSignedBytes('submit', fields), privateKey).toString('base64') };
    return entry(seq, { action: 'examination.submit', sample: 'S', case: 's1', examiner: 'acc-a', commitment: 'abc', sealed, ...(opts.signed === false ? {} : { signature }) });
  };
  const run = (...entries: LedgerEntry[]): string[] => {
    const findings: Finding[] = [];
    const checks = new ExaminationChecks(findings);
    for (const e of entries) checks.collect(e);
    return findings.map((f) => f.code);
  };

  it('a signature by the examiner\'s key valid at the seq raises nothing', () => {
    expect(run(enrol(2), assign, submit(4))).toEqual([]);
  });
  it('a signature over other bytes (the commitment changed afterwards) is EXAMINATION_SIGNATURE_INVALID', () => {
    expect(run(enrol(2), assign, submit(4, { commitmentSigned: 'abd' }))).toEqual(['EXAMINATION_SIGNATURE_INVALID']);
  });
  it('a signature made with a key revoked before the submission is EXAMINATION_SIGNATURE_INVALID', () => {
    expect(run(enrol(2), assign, entry(4, { action: 'account.key.revoke', account: 'acc-a', key_id: keyId, reason: 'lost' }), submit(5))).toEqual(['EXAMINATION_SIGNATURE_INVALID']);
  });
  it('a signature made before the key was enrolled is EXAMINATION_SIGNATURE_INVALID', () => {
    expect(run(assign, submit(4), enrol(5))).toEqual(['EXAMINATION_SIGNATURE_INVALID']);
  });
  it('an unsigned submission by an examiner with a valid key is EXAMINATION_SIGNATURE_MISSING', () => {
    expect(run(enrol(2), assign, submit(4, { signed: false }))).toEqual(['EXAMINATION_SIGNATURE_MISSING']);
  });
  it('an enrolment not signed by its own key is PERSON_KEY_ENROLMENT_INVALID, and the key signs nothing after', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(run(enrol(2, sign(null, personSignedBytes('key enrol', enrolFields), other)), assign, submit(4))).toEqual(['PERSON_KEY_ENROLMENT_INVALID', 'EXAMINATION_SIGNATURE_INVALID']);
  });
  it('an adjudication signed over its decisions and final answer verifies; a final answer changed afterwards is EXAMINATION_SIGNATURE_INVALID', () => {
    const decisions = [{ field: 'age_band', value: '30-39', reason: 'teeth' }];
    const final = { sex: 'male', age_band: '30-39' };
    const fields = { plan: 'S', case: 'k-000000000001', decisions_sha256: toHex(sha256(canonicalBytes(decisions))), final_sha256: toHex(sha256(canonicalBytes(final))), key_id: keyId };
    const signature = { key_id: keyId, value: sign(null, personSignedBytes('adjudicate', fields), privateKey).toString('base64') };
    const adjudicate = (f: JsonValue): LedgerEntry => ({ ...entry(6, { action: 'examination.adjudicate', sample: 'S', case: 's1', decisions, final: f, signature }), actor: 'acc-a' });
    expect(run(enrol(2), assign, adjudicate(final))).toEqual([]);
    expect(run(enrol(2), assign, adjudicate({ ...final, age_band: '60+' }))).toEqual(['EXAMINATION_SIGNATURE_INVALID']);
  });
});

describe('the reveal rule (issue 12: a reveal is a system act, checked against its rule)', () => {
  const assign = entry(3, { action: 'examination.assign', sample: 'S', per_case: 2, cases: [{ case: 's1', examiners: ['acc-a', 'acc-b'] }] });
  const submit = (seq: number, examiner: string) => entry(seq, { action: 'examination.submit', sample: 'S', case: 's1', examiner, commitment: `c-${examiner}`, sealed: 'x' });
  const reveal = (seq: number, examiners: string[]) =>
    entry(seq, { action: 'examination.reveal', sample: 'S', case: 's1', answers: examiners.map((e) => ({ examiner: e, commitment: `c-${e}`, answer: {}, salt: 's' })) });
  const codes = (...entries: LedgerEntry[]): string[] => {
    const findings: Finding[] = [];
    const checks = new ExaminationChecks(findings);
    for (const e of entries) checks.collect(e);
    return findings.map((f) => f.code);
  };

  it('a reveal opened before every assigned examiner had submitted is EXAMINATION_REVEAL_EARLY', () => {
    // The answers do not open their (made-up) commitments either: REVEAL_MISMATCH too; EARLY is the breach of blindness.
    expect(codes(assign, submit(4, 'acc-a'), reveal(5, ['acc-a']), submit(6, 'acc-b'))).toContain('EXAMINATION_REVEAL_EARLY');
  });
  it('a reveal after both submissions is not early', () => {
    expect(codes(assign, submit(4, 'acc-a'), submit(5, 'acc-b'), reveal(6, ['acc-a', 'acc-b']))).not.toContain('EXAMINATION_REVEAL_EARLY');
  });
});
