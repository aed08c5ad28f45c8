import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CustodyError } from '../core/index.js';
import { envelopeKdf, envelopePublicKey, openSigningKey, rawPublicKey, sealSigningKey } from './key-envelope.js';

const PASS = 'passphrase for the unit test';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof CustodyError ? (e as CustodyError).code : `not a CustodyError: ${String(e)}`;
  }
  return 'no error';
}

// Each open runs scrypt at N = 2^17 (the least the format accepts), ~0.4 s on an idle core and
// several seconds on a loaded one: a test that opens three times needs more than vitest's 5 s.
describe('the custody-signing-key envelope', { timeout: 30_000 }, () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const sealed = sealSigningKey(privateKey, PASS);
  const edit = async (f: (o: Record<string, unknown>) => void): Promise<string> => {
    const o = JSON.parse(await sealed) as Record<string, unknown>;
    f(o);
    return JSON.stringify(o);
  };

  it('opens to the same key, and records scrypt N = 2^17, r = 8 and the public half', async () => {
    const text = await sealed;
    expect(rawPublicKey(await openSigningKey(text, PASS))).toEqual(rawPublicKey(privateKey));
    expect(envelopeKdf(text)).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(envelopePublicKey(text)).toEqual(rawPublicKey(privateKey));
  });

  it('two seals of the same key share no salt, nonce or ciphertext', async () => {
    const [a, b] = [JSON.parse(await sealed) as Record<string, unknown>, JSON.parse(await sealSigningKey(privateKey, PASS)) as Record<string, unknown>];
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect((a.kdf as { salt: string }).salt).not.toBe((b.kdf as { salt: string }).salt);
    expect((a.cipher as { nonce: string }).nonce).not.toBe((b.cipher as { nonce: string }).nonce);
  });

  it('a wrong passphrase -> KEY_PASSPHRASE_WRONG', async () => {
    expect(await codeOf(openSigningKey(await sealed, 'wrong'))).toBe('KEY_PASSPHRASE_WRONG');
  });

  it('a changed nonce, tag or ciphertext with the right passphrase -> KEY_FILE_TAMPERED', async () => {
    const flip = (b64: string): string => {
      const b = Buffer.from(b64, 'base64');
      b[0] = (b[0] ?? 0) ^ 0x80;
      return b.toString('base64');
    };
    for (const field of ['ciphertext', 'tag'] as const) {
      const text = await edit((o) => (o[field] = flip(o[field] as string)));
      expect(await codeOf(openSigningKey(text, PASS)), field).toBe('KEY_FILE_TAMPERED');
    }
    const nonce = await edit((o) => ((o.cipher as { nonce: string }).nonce = flip((o.cipher as { nonce: string }).nonce)));
    expect(await codeOf(openSigningKey(nonce, PASS))).toBe('KEY_FILE_TAMPERED');
  });

  it('members outside the format, or parameters out of bounds -> KEY_FILE_INVALID, without running scrypt', async () => {
    const cases = [
      await edit((o) => (o.extra = 1)),
      await edit((o) => (o.version = 2)),
      await edit((o) => ((o.kdf as { N: number }).N = 2 ** 16)),
      await edit((o) => ((o.kdf as { N: number }).N = 2 ** 17 + 1)),
      await edit((o) => ((o.kdf as { r: number }).r = 1)),
      await edit((o) => ((o.kdf as { p: number }).p = 1000)),
      await edit((o) => (o.public_key = 'AAAA')),
      'not json',
    ];
    for (const text of cases) expect(await codeOf(openSigningKey(text, PASS)), text.slice(0, 80)).toBe('KEY_FILE_INVALID');
  });
});
