// report --bag: the bag's checkpoint must be one of this archive's, and every statistics cell the
// report cites must hold the archive's value (each refusal its own case).
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createEd25519Signer,
  formatVerifierKey,
  signCheckpoint,
  CustodyError,
} from '../../core/index.js';
import { bagCheckpointSize, checkBagCitations, type ReportBag } from './bag.js';
import type { Footnote } from './footnotes.js';

const ORIGIN = 'custody.invalid/archive/01abc';
const ROOT = Buffer.alloc(32, 0xab);
const keys = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const note = (origin = ORIGIN, root = ROOT, size = 812, key = keys.privateKey) =>
  signCheckpoint({ origin, size, root, extensions: [] }, createEd25519Signer(origin, key));
const archive = {
  origin: ORIGIN,
  verifierKey: formatVerifierKey(ORIGIN, keys.publicKey),
  ledgerSize: 900,
  rootAt: (n: number) => (n === 812 ? ROOT : Buffer.alloc(32)),
};
const bag = (n: string, statistics: ReadonlyMap<string, unknown> = new Map()): ReportBag => ({
  dir: 'b',
  note: n,
  statistics,
  items: new Set(),
});

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof CustodyError
      ? String((e as CustodyError<string>).code)
      : 'not a CustodyError';
  }
  return undefined;
}

describe('bagCheckpointSize', () => {
  it('accepts a checkpoint of this archive: same origin, archive key, the ledger root at its size', () => {
    expect(bagCheckpointSize(bag(note()), archive)).toBe(812);
  });
  it('refuses another origin', () => {
    expect(code(() => bagCheckpointSize(bag(note('custody.invalid/archive/other')), archive))).toBe(
      'REPORT_BAG_MISMATCH',
    );
  });
  it('refuses a note signed by another key', () => {
    expect(
      code(() => bagCheckpointSize(bag(note(ORIGIN, ROOT, 812, other.privateKey)), archive)),
    ).toBe('REPORT_BAG_MISMATCH');
  });
  it('refuses a signed root that is not the ledger root at that size (a fork)', () => {
    expect(code(() => bagCheckpointSize(bag(note(ORIGIN, Buffer.alloc(32, 1))), archive))).toBe(
      'REPORT_BAG_MISMATCH',
    );
  });
  it('refuses a size past the archive ledger', () => {
    expect(code(() => bagCheckpointSize(bag(note(ORIGIN, ROOT, 901)), archive))).toBe(
      'REPORT_BAG_MISMATCH',
    );
  });
  it('calls a file that is no checkpoint note invalid', () => {
    expect(code(() => bagCheckpointSize(bag('hello\n'), archive))).toBe('REPORT_BAG_INVALID');
  });
});

describe('checkBagCitations', () => {
  const stats = new Map([
    [
      'data/tables/statistics-S1.json',
      { findings: [{ proportion: 0.62, present: 93 }], list: [1, 2] },
    ],
  ]);
  const fn = (pointer: string, value: Footnote['value']): Footnote => ({
    n: 1,
    command: ['custody', 'stats', 'x', '--at', '812', '--json'],
    pointer,
    value,
    note: null,
    bag: `data/tables/statistics-S1.json#${pointer.replace(/\/length$/, '')}`,
  });
  it('passes equal cells, numbers within 1e-9 relative, and a /length as the array counted', () => {
    expect(() =>
      checkBagCitations(
        [
          fn('/findings/0/present', 93),
          fn('/findings/0/proportion', 0.62 * (1 + 1e-12)),
          fn('/list/length', 2),
        ],
        bag('', stats),
      ),
    ).not.toThrow();
  });
  it('refuses a cell that differs, and a cell the bag lacks', () => {
    expect(code(() => checkBagCitations([fn('/findings/0/present', 96)], bag('', stats)))).toBe(
      'REPORT_BAG_MISMATCH',
    );
    expect(code(() => checkBagCitations([fn('/findings/1/present', 96)], bag('', stats)))).toBe(
      'REPORT_BAG_MISMATCH',
    );
  });
});
