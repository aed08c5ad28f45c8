import { createCipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openStaffName, sealStaffName, staffNameKey } from './staff-name-seal.js';

const key = Buffer.alloc(32, 7);
const id = '0193a0f2-7c1e-7a11-9c1f-000000000001';

/**
 * A format 1 name as accounts.service sealed it before: the name key's hex used as the passphrase
 * of the sources' scrypt sealing, the AAD `custody-source:account:<id>`. Written out here with
 * node:crypto so that the test does not depend on the code it checks.
 */
function formatOne(sealingKey: Buffer, accountId: string, name: string): string {
  const passphrase = Buffer.from(
    hkdfSync('sha256', sealingKey, Buffer.from(accountId, 'utf8'), 'custody staff name v1', 32),
  ).toString('hex');
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const k = scryptSync(passphrase, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const c = createCipheriv('aes-256-gcm', k, nonce);
  c.setAAD(Buffer.from(`custody-source:account:${accountId}`, 'utf8'));
  const ciphertext = Buffer.concat([c.update(name, 'utf8'), c.final()]);
  return JSON.stringify({
    alg: 'AES-256-GCM',
    kdf: 'scrypt-N32768-r8-p1',
    salt: salt.toString('hex'),
    nonce: nonce.toString('hex'),
    ciphertext: ciphertext.toString('base64'),
    tag: c.getAuthTag().toString('hex'),
  });
}

describe('sealed staff names', () => {
  it('seals under the account key itself (format 2: no per-name scrypt) and opens again', () => {
    const sealed = sealStaffName(key, id, 'Examiner Ş. Ḥaddād');
    expect(sealed).toMatchObject({ alg: 'AES-256-GCM', kdf: 'hkdf-sha256' });
    expect(Object.keys(sealed).sort()).toEqual(['alg', 'ciphertext', 'kdf', 'nonce', 'tag']);
    expect(JSON.stringify(sealed)).not.toContain('Examiner');
    expect(openStaffName(key, id, JSON.stringify(sealed))).toBe('Examiner Ş. Ḥaddād');
    // A fresh nonce each time: the same name seals differently.
    expect(sealStaffName(key, id, 'Examiner Ş. Ḥaddād').ciphertext).not.toBe(sealed.ciphertext);
  });

  it('the key is HKDF-SHA256 of the sealing key with the account id, one key per account', () => {
    expect(staffNameKey(key, id)).toEqual(
      Buffer.from(hkdfSync('sha256', key, Buffer.from(id, 'utf8'), 'custody staff name v1', 32)),
    );
    expect(staffNameKey(key, `${id}x`)).not.toEqual(staffNameKey(key, id));
  });

  it('opens a name sealed the old way (format 1, scrypt), which archives keep in their ledger', () => {
    expect(openStaffName(key, id, formatOne(key, id, 'Demo Administrator'))).toBe('Demo Administrator');
  });

  it('refuses another archive key, another account, an edited ciphertext or tag, and a malformed record (SOURCE_KEY_WRONG)', () => {
    const sealed = sealStaffName(key, id, 'Demo Lawyer');
    const text = JSON.stringify(sealed);
    const flip = (hex: string): string => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const cases: [string, Buffer, string, string][] = [
      ['another archive key', Buffer.alloc(32, 8), id, text],
      ['moved to another account', key, `${id}x`, text],
      ['edited tag', key, id, JSON.stringify({ ...sealed, tag: flip(sealed.tag) })],
      ['edited nonce', key, id, JSON.stringify({ ...sealed, nonce: flip(sealed.nonce) })],
      ['edited ciphertext', key, id, JSON.stringify({ ...sealed, ciphertext: Buffer.from('Demo Lawyes').toString('base64') })],
      ['no tag', key, id, JSON.stringify({ ...sealed, tag: undefined })],
      ['unknown kdf', key, id, JSON.stringify({ ...sealed, kdf: 'none' })],
      ['not JSON', key, id, '{'],
      ['format 1 under another key', key, id, formatOne(Buffer.alloc(32, 9), id, 'Demo Lawyer')],
    ];
    for (const [what, k, account, record] of cases)
      expect(() => openStaffName(k, account, record), what).toThrow(
        expect.objectContaining({ code: 'SOURCE_KEY_WRONG' }),
      );
  });
});
