import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import {
  base64Of,
  hashChildrenWith,
  hashLeafWith,
  hexOf,
  keyIdWith,
} from '../../../../src/verify/portable/index';
import { nobleProofCrypto } from '../../../../src/verify/portable/noble-crypto.adapter';
import { checkInclusion } from './proof-check';
import type { InclusionProofView } from './types';

// A ledger of 11 entries and its signed checkpoint, built here from RFC 9162 §2.1 and C2SP
// signed-note directly (the browser's own primitives, no Node code: this runs under ui/tsconfig).
const c = nobleProofCrypto;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const entries = Array.from({ length: 11 }, (_, i) => utf8(`{"seq":${i},"type":"ingest"}`));
const leaves = entries.map((e) => hashLeafWith(c, e));

function mth(l: Uint8Array[]): Uint8Array {
  if (l.length === 1) return l[0]!;
  let k = 1;
  while (k * 2 < l.length) k *= 2;
  return hashChildrenWith(c, mth(l.slice(0, k)), mth(l.slice(k)));
}
function path(m: number, l: Uint8Array[]): Uint8Array[] {
  if (l.length === 1) return [];
  let k = 1;
  while (k * 2 < l.length) k *= 2;
  return m < k
    ? [...path(m, l.slice(0, k)), mth(l.slice(k))]
    : [...path(m - k, l.slice(k)), mth(l.slice(0, k))];
}

const origin = 'custody.example/archive-ui';
function keyPair(): { secret: Uint8Array; vkey: string; keyId: Uint8Array } {
  const secret = ed.utils.randomSecretKey();
  const pub = ed.getPublicKey(secret);
  const keyId = keyIdWith(c, origin, pub);
  return { secret, keyId, vkey: `${origin}+${hexOf(keyId)}+${base64Of(Uint8Array.of(1, ...pub))}` };
}
const signer = keyPair();
const pinnedKey = signer.vkey;
const root = mth(leaves);
const text = `${origin}\n${leaves.length}\n${base64Of(root)}\n`;
const note = `${text}\n\u2014 ${origin} ${base64Of(
  Uint8Array.of(...signer.keyId, ...ed.sign(utf8(text), signer.secret)),
)}\n`;

function proofOf(seq: number): InclusionProofView {
  return {
    type: 'inclusion',
    index: seq,
    tree_size: leaves.length,
    leaf_hash: hexOf(leaves[seq]!),
    root: hexOf(root),
    proof: path(seq, leaves).map(hexOf),
    canonical: base64Of(entries[seq]!),
    checkpoint: note,
  };
}

const flip = (hex: string): string =>
  (parseInt(hex.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0') + hex.slice(2);

describe('the inclusion check the item page runs', () => {
  it('verifies an entry against the checkpoint signed by the pinned key, and shows its bytes', () => {
    const r = checkInclusion(nobleProofCrypto, { seq: 6, note, pinnedKey, proof: proofOf(6) });
    expect(r).toEqual({
      ok: true,
      seq: 6,
      size: 11,
      root: hexOf(root),
      entry: '{"seq":6,"type":"ingest"}',
    });
  });

  it('fails on a proof hash altered (as the test route serves it)', () => {
    const p = proofOf(6);
    const r = checkInclusion(nobleProofCrypto, {
      seq: 6,
      note,
      pinnedKey,
      proof: { ...p, proof: [flip(p.proof[0]!), ...p.proof.slice(1)] },
    });
    expect(r).toEqual({ ok: false, seq: 6, step: 'inclusion' });
  });

  it('fails on entry bytes that do not hash to the leaf', () => {
    const p = proofOf(6);
    const r = checkInclusion(nobleProofCrypto, {
      seq: 6,
      note,
      pinnedKey,
      proof: { ...p, canonical: base64Of(utf8('{"seq":6,"type":"planted"}')) },
    });
    expect(r).toMatchObject({ ok: false, step: 'leaf' });
  });

  it('fails with another key pinned, on the proof of another entry, and on another tree size', () => {
    const stranger = keyPair().vkey;
    expect(
      checkInclusion(nobleProofCrypto, { seq: 6, note, pinnedKey: stranger, proof: proofOf(6) }),
    ).toEqual({ ok: false, seq: 6, step: 'checkpoint', code: 'NOTE_NO_VALID_SIGNATURE' });
    expect(checkInclusion(nobleProofCrypto, { seq: 6, note, pinnedKey, proof: proofOf(5) })).toMatchObject({
      ok: false,
      step: 'index',
    });
    expect(
      checkInclusion(nobleProofCrypto, { seq: 6, note, pinnedKey, proof: { ...proofOf(6), tree_size: 12 } }),
    ).toMatchObject({ ok: false, step: 'size' });
  });
});
