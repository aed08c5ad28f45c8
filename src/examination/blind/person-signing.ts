// Signed examination acts (issue 12): a submission (and an adjudication) by someone with an
// enrolled key must carry their Ed25519 signature over the domain-separated bytes of
// core/person-signature.ts. The service takes the signature from the person's side (`signer`:
// the CLI signs with the key file opened by the key password; the server will pass what the
// browser signed) and verifies it with the key valid now before anything is appended.
import { personSignedBytes, sameActor, verifyPersonSignature, type JsonValue, type PersonAct } from '../../core/index.js';
import type { PersonKeysTable } from '../../db/index.js';
import { ExamError } from './examination-errors.js';

/** The person's side: which key, and a signature over the bytes given. */
export interface PersonSigner {
  readonly keyId: string;
  sign(message: Buffer): Promise<Uint8Array>;
}

export interface ActSignature {
  key_id: string;
  /** base64 of the 64-byte Ed25519 signature. */
  value: string;
}

/** The key an account signs with now (enrolled, not replaced or revoked). */
export function activePersonKey(keys: readonly PersonKeysTable[], account: string): PersonKeysTable | undefined {
  return keys.find((k) => sameActor(k.account_id, account) && k.ended_seq === null);
}

/**
 * Signs `fields` (plus the key id) for `act` through `signer` and checks the signature, or returns
 * null when the person has no enrolled key (accounts without keys, free-text actors).
 */
export async function signAct(
  keys: readonly PersonKeysTable[],
  person: string,
  act: PersonAct,
  fields: { [k: string]: JsonValue },
  signer: PersonSigner | undefined,
): Promise<ActSignature | null> {
  const active = activePersonKey(keys, person);
  if (active === undefined) {
    if (signer !== undefined) throw new ExamError('EXAMINATION_SIGNATURE_INVALID', `${person} has no enrolled signing key to sign with`);
    return null;
  }
  if (signer === undefined)
    throw new ExamError('EXAMINATION_SIGNATURE_REQUIRED', `${person} has an enrolled signing key (${active.key_id}): the ${act} must be signed with it`, {
      details: { key_id: active.key_id },
    });
  if (signer.keyId !== active.key_id)
    throw new ExamError('EXAMINATION_SIGNATURE_INVALID', `key ${signer.keyId} is not ${person}'s valid signing key (${active.key_id})`);
  const message = personSignedBytes(act, { ...fields, key_id: active.key_id });
  const signature = await signer.sign(message);
  if (!verifyPersonSignature(Buffer.from(active.public_key, 'base64'), message, signature))
    throw new ExamError('EXAMINATION_SIGNATURE_INVALID', `the ${act} signature does not verify with ${person}'s key ${active.key_id}`);
  return { key_id: active.key_id, value: Buffer.from(signature).toString('base64') };
}
