// A ledger in a temporary folder, opened as the archive opens it (loadLedger, real files, a
// real Ed25519 key), without the rest of the archive: for the ledger's own medium tests.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createEd25519Signer, createEd25519Verifier } from '../../src/core/checkpoint.js';
import { hashLeaf } from '../../src/core/merkle.js';
import { deriveIntentKey } from '../../src/ledger/batch-intent.js';
import { BatchIntentSlots } from '../../src/ledger/batch-intent.adapter.js';
import { CheckpointFiles } from '../../src/ledger/checkpoint-files.adapter.js';
import type { EntryDraft } from '../../src/ledger/entry-details.js';
import { LeafIndex } from '../../src/ledger/leaf-index.adapter.js';
import { LedgerFile } from '../../src/ledger/ledger-file.adapter.js';
import { loadLedger, type Ledger } from '../../src/ledger/ledger.service.js';
import { makeTempDir } from './tmp.js';
import { uncheckedDraft } from './unchecked-draft.js';

export const ORIGIN = 'custody.invalid/test-ledger';

export interface LedgerDir {
  dir: string;
  key: KeyObject;
  ledgerPath: string;
  leavesPath: string;
  checkpointsDir: string;
}

export async function makeLedgerDir(prefix: string): Promise<LedgerDir> {
  const dir = await makeTempDir(prefix);
  const ledgerPath = join(dir, 'entries.jsonl');
  await mkdir(join(dir, 'checkpoints'));
  await LedgerFile.create(ledgerPath);
  const { privateKey } = generateKeyPairSync('ed25519');
  return { dir, key: privateKey, ledgerPath, leavesPath: join(dir, 'leaves.bin'), checkpointsDir: join(dir, 'checkpoints') };
}

/** A hash port that counts how many entries it hashed. */
export function countingHash(): { hashLeaf: (b: Buffer) => Buffer; count: () => number; reset: () => void } {
  let n = 0;
  return {
    hashLeaf: (b) => {
      n++;
      return hashLeaf(b);
    },
    count: () => n,
    reset: () => {
      n = 0;
    },
  };
}

export async function openTestLedger(
  d: LedgerDir,
  mode: 'read' | 'write',
  opts: { hashLeaf?: (b: Buffer) => Buffer; clock?: () => number } = {},
): Promise<Ledger> {
  const verifier = createEd25519Verifier(ORIGIN, createPublicKey(d.key));
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  return loadLedger(
    (onLine, beforeScan) => LedgerFile.open(d.ledgerPath, mode, onLine, beforeScan),
    {
      checkpoints: new CheckpointFiles(d.checkpointsDir),
      origin: ORIGIN,
      clock: opts.clock ?? (() => (t += 1)),
      signer: mode === 'write' ? createEd25519Signer(ORIGIN, d.key) : null,
      verifier,
      leaves: LeafIndex.forLedger(d.ledgerPath),
      ...(opts.hashLeaf === undefined ? {} : { hashLeaf: opts.hashLeaf }),
    },
    mode === 'write'
      ? { verifier, intents: BatchIntentSlots.forLedger(d.ledgerPath), intentKey: deriveIntentKey(d.key, 'test-archive'), published: null, crash: () => undefined }
      : null,
  );
}

export function draft(i: number): EntryDraft {
  return uncheckedDraft({ actor: 'tester', type: 'fixity check', details: { n: i } });
}

export function drafts(from: number, count: number): EntryDraft[] {
  return Array.from({ length: count }, (_, k) => draft(from + k));
}
