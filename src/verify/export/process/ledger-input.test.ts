import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../../core/canonical-json.js';
import { hashLeaf, MerkleTree, toHex } from '../../../core/index.js';
import { provenLedgerFromLines } from './ledger-input.js';

const lines = [0, 1, 2].map((seq) => canonicalize({ seq, time: '2026-01-01T00:00:00.000Z', actor: 'a', type: seq === 0 ? 'creation' : 'fixity check', items: [], objects: [], details: { n: seq } }));
const root = toHex(new MerkleTree(lines.map((l) => hashLeaf(Buffer.from(l)))).root());
const bytes = (ls: string[]) => Buffer.from(ls.map((l) => `${l}\n`).join(''));

describe('provenLedgerFromLines (the stand-in for check 6)', () => {
  it('proves every entry when the lines are the whole tree and recompute the signed root', () => {
    const l = provenLedgerFromLines(bytes(lines), { tree_size: 3, root });
    expect(l.full).toBe(true);
    expect([...l.proven]).toEqual([0, 1, 2]);
    expect(l.entries.map((e) => e.seq)).toEqual([0, 1, 2]);
  });

  it('proves nothing when a line was edited or left out, and still hands over the entries it can parse', () => {
    const edited = provenLedgerFromLines(bytes([lines[0] ?? '', (lines[1] ?? '').replace('"n":1', '"n":9'), lines[2] ?? '']), { tree_size: 3, root });
    expect(edited.full).toBe(false);
    expect(edited.proven.size).toBe(0);
    expect(edited.entries).toHaveLength(3);
    const short = provenLedgerFromLines(bytes([lines[0] ?? '', lines[2] ?? '', 'not json']), { tree_size: 3, root });
    expect(short.full).toBe(false);
    expect(short.entries.map((e) => e.seq)).toEqual([0, 2]);
  });
});
