import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createEd25519Signer,
  formatVerifierKey,
  signCheckpoint,
  signNote,
  hasCode,
} from '../../core/index.js';
import { splitSignedNote } from './signed-note.js';

const ORIGIN = 'custody.invalid/archive/test';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signer: createEd25519Signer(ORIGIN, privateKey),
    publicKey,
    vkey: formatVerifierKey(ORIGIN, publicKey),
  };
}

describe('splitSignedNote', () => {
  it('gives the signed body and the 64-byte signature that Ed25519 verifies', () => {
    const k = keyPair();
    const note = signCheckpoint(
      { origin: ORIGIN, size: 7, root: Buffer.alloc(32, 3), extensions: [] },
      k.signer,
    );
    const split = splitSignedNote(note, k.vkey);
    expect(split.body.toString('utf8')).toBe(
      `${ORIGIN}\n7\n${Buffer.alloc(32, 3).toString('base64')}\n`,
    );
    expect(split.signature).toHaveLength(64);
    expect(verify(null, split.body, k.publicKey, split.signature)).toBe(true);
    expect(split.checkpoint.size).toBe(7);
  });

  it('takes the line of the archive key among several signatures', () => {
    const k = keyPair();
    const other = createEd25519Signer('witness.example', generateKeyPairSync('ed25519').privateKey);
    const text = `${ORIGIN}\n1\n${Buffer.alloc(32).toString('base64')}\n`;
    const note = signNote(text, [other, k.signer]);
    const split = splitSignedNote(note, k.vkey);
    expect(verify(null, Buffer.from(text), k.publicKey, split.signature)).toBe(true);
  });

  it('refuses a note the archive key did not sign, or an altered one', () => {
    const k = keyPair();
    const stranger = keyPair();
    const note = signCheckpoint(
      { origin: ORIGIN, size: 7, root: Buffer.alloc(32, 3), extensions: [] },
      stranger.signer,
    );
    for (const bad of [note, note.replace('\n7\n', '\n8\n')]) {
      let thrown: unknown;
      try {
        splitSignedNote(bad, k.vkey);
      } catch (e) {
        thrown = e;
      }
      expect(hasCode(thrown, 'EXPORT_CHECKPOINT_INVALID')).toBe(true);
    }
  });
});
