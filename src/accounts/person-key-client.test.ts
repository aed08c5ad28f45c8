// The browser's side of person keys against the CLI's: a key file made with @noble and WebCrypto
// opens with node:crypto's reader (src/archive/key-envelope.ts) and the reverse; a signature made
// with @noble/ed25519 over the enrolment bytes verifies with node:crypto.
import { generateKeyPairSync } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { openSigningKey, rawPublicKey, sealSigningKey } from '../archive/index.js';
import { canonicalBytes, personSignedBytes as nodeSignedBytes, verifyPersonSignature, type JsonValue } from '../core/index.js';
import { enrolmentFields } from './person-keys.service.js';
import { canonicalJson, fromBase64, makePersonKey, openPersonKey, personSignedBytes, signEnrolment, type KeyEnvelope } from './person-key-client.js';

const PW = 'a key password, not the login';

describe('person keys on the person side (browser primitives)', () => {
  it('a key file made in the browser opens with the CLI reader, and one made by the CLI opens here; a wrong key password is refused', async () => {
    const made = await makePersonKey(PW);
    const text = `${JSON.stringify(made.envelope, null, 2)}\n`;
    const key = await openSigningKey(text, PW);
    expect(rawPublicKey(key)).toEqual(Buffer.from(made.publicKey));
    await expect(openSigningKey(text, 'wrong password')).rejects.toMatchObject({ code: 'KEY_PASSPHRASE_WRONG' });
    const { privateKey } = generateKeyPairSync('ed25519');
    const cli = JSON.parse(await sealSigningKey(privateKey, PW)) as KeyEnvelope;
    const secret = await openPersonKey(cli, PW);
    expect(secret).toHaveLength(32);
    expect(Buffer.from(await ed.getPublicKeyAsync(secret))).toEqual(rawPublicKey(privateKey));
    // The refusals are the reader's checks, not the KDF's: a key file of the same format under a
    // light scrypt (N = 2^10) spares two more pure-JavaScript derivations at N = 2^17.
    const light = (await makePersonKey(PW, { N: 2 ** 10, r: 8, p: 1 })).envelope;
    expect(await openPersonKey(light, PW)).toHaveLength(32);
    await expect(openPersonKey(light, 'wrong password')).rejects.toThrow(/does not open/);
    const tampered = { ...light, ciphertext: Buffer.from(fromBase64(light.ciphertext).map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64') };
    await expect(openPersonKey(tampered, PW)).rejects.toThrow(/altered/);
  }, 60_000);

  it('the enrolment self-signature made with @noble/ed25519 verifies with node:crypto over the same bytes', async () => {
    // The signature is what is checked here, not the key file: a light KDF keeps scrypt out of it.
    const made = await makePersonKey(PW, { N: 2 ** 10, r: 8, p: 1 });
    const signed = await signEnrolment(made.secretKey, '01JACCOUNT0000000000000000');
    const fields = enrolmentFields('01JACCOUNT0000000000000000', made.publicKey);
    expect(Buffer.from(personSignedBytes('key enrol', fields))).toEqual(nodeSignedBytes('key enrol', fields));
    expect(verifyPersonSignature(made.publicKey, nodeSignedBytes('key enrol', fields), fromBase64(signed.signature))).toBe(true);
  }, 60_000);

  it('canonical JSON equals the core one on nested answers', () => {
    const v = { sex: 'male', findings: [{ z: 1, a: 'é' }, null, true], age_band: '30-39', n: -5 } as JsonValue;
    expect(canonicalJson(v as never)).toBe(Buffer.from(canonicalBytes(v)).toString('utf8'));
  });
});
