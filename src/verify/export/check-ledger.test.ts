import { describe, expect, it } from 'vitest';
import { canonicalBytes, hashLeaf, MerkleTree, toHex, type Checkpoint } from '../../core/index.js';
import { checkLedgerLines, type LedgerInput } from './check-ledger.js';
import { StepFindings } from './findings.js';

// A small synthetic ledger: 7 entries, a real RFC 9162 tree over them, an (unsigned) checkpoint.
const entry = (seq: number, type: string, details: Record<string, unknown> = {}) =>
  canonicalBytes({ seq, time: '2025-03-01T10:00:00.000Z', actor: 'a', type, items: [], objects: [], details });
const ENTRIES = [
  entry(0, 'creation', { origin: 'o' }),
  entry(1, 'cataloguing', { action: 'source.register', codename: 'CEDAR' }),
  entry(2, 'examination', { action: 'sample.seed', sample: 'S', seed: 'x' }),
  entry(3, 'examination', { action: 'examination.reveal', sample: 'S', case: 'C', answers: [{ examiner: 'e1', answer: { sex: 'male' } }] }),
  entry(4, 'examination', { action: 'examination.adjudicate', sample: 'S', case: 'C' }),
  entry(5, 'cataloguing', { action: 'subject.update', subject: { id: 'SUB' } }),
  entry(6, 'decision', { decision: 'same image' }),
];
const TREE = new MerkleTree(ENTRIES.map((e) => hashLeaf(e)));
const CP: Checkpoint = { origin: 'o', size: TREE.size, root: TREE.root(), extensions: [] };

const jsonl = (lines: readonly Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
const proofLine = (seq: number, bytes = ENTRIES[seq] as Buffer) =>
  canonicalBytes({ leaf_hash: toHex(hashLeaf(bytes)), proof: TREE.inclusionProof(seq, TREE.size).map(toHex), seq });
const withheld = (seqs: number[]) =>
  Buffer.from(
    JSON.stringify(
      seqs.map((seq) => ({ seq, reason: 'r', leaf_hash: toHex(hashLeaf(ENTRIES[seq] as Buffer)), type: 'cataloguing', action: 'source.register' })),
    ),
  );

function run(input: Partial<LedgerInput>, cp: Checkpoint | null = CP) {
  const out = new StepFindings(6);
  const full: LedgerInput = {
    ledger: jsonl(ENTRIES),
    ledgerProofs: undefined,
    withheldEntries: Buffer.from('[]'),
    fullLedger: true,
    provenEntries: new Map(),
    ...input,
  };
  const r = checkLedgerLines(cp ?? undefined, full, out);
  const errors = out.findings.filter((f) => f.severity === 'error');
  return { ...r, out, errors, codes: out.findings.map((f) => [f.code, f.severity]) };
}

describe('check 6 on a full ledger', () => {
  it('proves every line when the lines recompute the signed root', () => {
    const r = run({});
    expect(r.codes).toEqual([]);
    expect(r.ledger.full).toBe(true);
    expect([...r.ledger.proven]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(r.ledger.entries.map((e) => e.type)).toEqual(['creation', 'cataloguing', 'examination', 'examination', 'examination', 'cataloguing', 'decision']);
  });

  it('recomputes the root through the leaf hashes of withheld entries, and exposes their stated type', () => {
    const r = run({ ledger: jsonl(ENTRIES.filter((_, i) => i !== 1)), withheldEntries: withheld([1]) });
    expect(r.codes).toEqual([]);
    expect(r.ledger.full).toBe(true);
    expect(r.ledger.withheld.get(1)).toEqual({ type: 'cataloguing', action: 'source.register' });
    expect(r.ledger.proven.has(1)).toBe(false);
  });

  it('one finding when a line was changed (a revealed answer), and nothing proven', () => {
    const edited = Buffer.from((ENTRIES[3] as Buffer).toString().replace('"male"', '"female"'));
    const r = run({ ledger: jsonl(ENTRIES.map((e, i) => (i === 3 ? edited : e))) });
    expect(r.codes).toEqual([['EXPORT_ENTRY_UNPROVEN', 'error']]);
    expect(r.errors[0]?.message).toMatch(/does not recompute the signed root/);
    expect(r.ledger.full).toBe(false);
    expect(r.ledger.proven.size).toBe(0);
  });

  it('names the changed line when a shipped proof shows it wrong, and proves the others that have one', () => {
    const edited = Buffer.from((ENTRIES[3] as Buffer).toString().replace('"male"', '"female"'));
    const r = run({
      ledger: jsonl(ENTRIES.map((e, i) => (i === 3 ? edited : e))),
      ledgerProofs: jsonl([proofLine(2), proofLine(3)]),
      provenEntries: new Map([[6, ENTRIES[6] as Buffer]]),
    });
    expect(r.errors.map((f) => [f.code, f.details])).toEqual([
      ['EXPORT_ENTRY_UNPROVEN', undefined],
      ['EXPORT_ENTRY_UNPROVEN', { seq: 3, line: 4 }],
    ]);
    expect([...r.ledger.proven].sort()).toEqual([2, 6]);
  });

  it('a removed line, an added line, a withheld leaf hash altered: one finding each', () => {
    const removed = run({ ledger: jsonl(ENTRIES.filter((_, i) => i !== 4)) });
    expect(removed.codes).toEqual([['EXPORT_ENTRY_UNPROVEN', 'error']]);
    expect(removed.errors[0]?.message).toMatch(/entry 4 is neither a line/);
    const added = run({ ledger: jsonl([...ENTRIES, entry(7, 'decision')]) });
    expect(added.codes).toEqual([['EXPORT_ENTRY_UNPROVEN', 'error']]);
    const altered = JSON.parse(withheld([1]).toString()) as { leaf_hash: string }[];
    (altered[0] as { leaf_hash: string }).leaf_hash = 'ab'.repeat(32);
    const bad = run({ ledger: jsonl(ENTRIES.filter((_, i) => i !== 1)), withheldEntries: Buffer.from(JSON.stringify(altered)) });
    expect(bad.codes).toEqual([['EXPORT_ENTRY_UNPROVEN', 'error']]);
    expect(bad.ledger.full).toBe(false);
  });

  it('an entry both shipped and withheld, or lines out of order, do not cover the tree', () => {
    const both = run({ withheldEntries: withheld([1]) });
    expect(both.errors[0]?.message).toMatch(/entry 1 is both a line and withheld/);
    const swapped = run({ ledger: jsonl([ENTRIES[0], ENTRIES[2], ENTRIES[1], ...ENTRIES.slice(3)] as Buffer[]) });
    expect(swapped.codes).toEqual([
      ['EXPORT_LAYOUT_INVALID', 'error'],
      ['EXPORT_ENTRY_UNPROVEN', 'error'],
    ]);
  });

  it('a malformed line is EXPORT_LAYOUT_INVALID with its line number', () => {
    const r = run({ ledger: jsonl([...ENTRIES.slice(0, 2), Buffer.from('{ "seq": 2 }'), ...ENTRIES.slice(3)]) });
    const layout = r.errors.find((f) => f.code === 'EXPORT_LAYOUT_INVALID');
    expect([layout?.path, layout?.details]).toEqual(['custody/ledger.jsonl', { line: 3 }]);
    expect(r.errors.map((f) => f.code)).toContain('EXPORT_ENTRY_UNPROVEN');
    expect(run({ ledger: Buffer.from(jsonl(ENTRIES).toString().trimEnd()) }).errors.map((f) => f.code)).toEqual(['EXPORT_LAYOUT_INVALID']);
  });

  it('an added line that is not canonical is not simply skipped: the ledger is then not proven whole', () => {
    const extra = Buffer.from(JSON.stringify({ seq: 7, type: 'decision', time: 't', actor: 'a', items: [], objects: [], details: {} }));
    const r = run({ ledger: jsonl([...ENTRIES, extra]) });
    expect(r.errors.map((f) => f.code)).toEqual(['EXPORT_LAYOUT_INVALID', 'EXPORT_ENTRY_UNPROVEN']);
    expect(r.ledger.full).toBe(false);
    expect(r.ledger.proven.size).toBe(0);
  });

  it('a withheld record without a leaf hash cannot enter the root', () => {
    const r = run({ ledger: jsonl(ENTRIES.filter((_, i) => i !== 1)), withheldEntries: Buffer.from('[{"seq":1,"reason":"r"}]') });
    expect(r.errors.map((f) => f.code)).toEqual(['EXPORT_LAYOUT_INVALID', 'EXPORT_ENTRY_UNPROVEN']);
  });
});

describe('check 6 without the full ledger', () => {
  const some = [0, 2, 3, 4];
  const lines = some.map((s) => ENTRIES[s] as Buffer);

  it('proves each line by its inclusion proof, and warns that the process is not proven complete', () => {
    const r = run({ fullLedger: false, ledger: jsonl(lines), ledgerProofs: jsonl(some.map((s) => proofLine(s))) });
    expect(r.codes).toEqual([['EXPORT_PROCESS_INCOMPLETE', 'warning']]);
    expect(r.out.ok).toBe(true);
    expect([...r.ledger.proven]).toEqual(some);
    expect(r.ledger.full).toBe(false);
    expect(r.detail).toMatch(/4 of 4 ledger lines proven one by one.*not the full ledger, so authentic but not proven complete/);
    expect(r.out.findings[0]?.message).toMatch(/not carry the full ledger.*a later adjudication, unlink or withdrawal could be missing/);
  });

  it('an item proof of check 4 proves its line too', () => {
    const r = run({ fullLedger: false, ledger: jsonl(lines), ledgerProofs: jsonl([0, 2, 3].map((s) => proofLine(s))), provenEntries: new Map([[4, ENTRIES[4] as Buffer]]) });
    expect(r.errors).toEqual([]);
    expect(r.ledger.proven.has(4)).toBe(true);
  });

  it('names the seq of a changed line, of a line without a proof, and of a proof that does not recompute the root', () => {
    const edited = Buffer.from((ENTRIES[3] as Buffer).toString().replace('"male"', '"female"'));
    const changed = run({ fullLedger: false, ledger: jsonl([lines[0], lines[1], edited, lines[3]] as Buffer[]), ledgerProofs: jsonl(some.map((s) => proofLine(s))) });
    expect(changed.errors.map((f) => [f.code, f.details])).toEqual([['EXPORT_ENTRY_UNPROVEN', { seq: 3, line: 3 }]]);
    expect(changed.ledger.proven.has(3)).toBe(false);
    // The forger also recomputes the line's leaf hash: the proof then fails against the root.
    const resealed = run({
      fullLedger: false,
      ledger: jsonl([lines[0], lines[1], edited, lines[3]] as Buffer[]),
      ledgerProofs: jsonl([proofLine(0), proofLine(2), proofLine(3, edited), proofLine(4)]),
    });
    expect(resealed.errors.map((f) => f.details)).toEqual([{ seq: 3, line: 3 }]);
    expect(resealed.errors[0]?.message).toMatch(/does not recompute the signed root/);
    const missing = run({ fullLedger: false, ledger: jsonl(lines), ledgerProofs: jsonl([0, 2, 3].map((s) => proofLine(s))) });
    expect(missing.errors.map((f) => f.details)).toEqual([{ seq: 4, line: 4 }]);
  });

  it('a bag that does not say full_ledger is checked line by line', () => {
    const r = run({ fullLedger: undefined });
    expect(r.errors.map((f) => f.details)).toEqual(ENTRIES.map((_, seq) => ({ seq, line: seq + 1 })));
    expect(r.codes.at(-1)).toEqual(['EXPORT_PROCESS_INCOMPLETE', 'warning']);
  });

  it('a malformed proof line is EXPORT_LAYOUT_INVALID with its line number', () => {
    const r = run({ fullLedger: false, ledger: jsonl(lines), ledgerProofs: jsonl([proofLine(0), Buffer.from('{"seq":2}'), proofLine(3), proofLine(4)]) });
    expect(r.errors.map((f) => [f.code, f.path, f.details])).toEqual([
      ['EXPORT_LAYOUT_INVALID', 'custody/ledger-proofs.jsonl', { line: 2 }],
      ['EXPORT_ENTRY_UNPROVEN', 'custody/ledger.jsonl', { seq: 2, line: 2 }],
    ]);
  });
});

describe('check 6 without a checkpoint', () => {
  it('proves nothing', () => {
    const r = run({}, null);
    expect(r.codes).toEqual([['EXPORT_ENTRY_UNPROVEN', 'error']]);
    expect(r.ledger.proven.size).toBe(0);
  });
});
