import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/index.js';
import { drawSimpleRandom } from '../examination/sampling/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import { caseCode } from '../examination/blind/index.js';
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
