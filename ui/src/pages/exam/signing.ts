// Opening the person's own key in the page and signing what the server prepared, after checking
// it (person-key-client's signPrepared: the bytes are the fields shown; a submission's commitment
// opens with the answer given). The key password never leaves the page.
import type { ApiClient } from '../../api';
import { openPersonKey, signPrepared } from '../../crypto/person-key';
import type { MyKey, Prepared } from './types';

/** Why signing failed, for the page to say so. */
export type SigningFailure = 'no-key' | 'wrong-password' | 'refused-to-sign';

export class SigningError extends Error {
  constructor(
    readonly reason: SigningFailure,
    message: string,
  ) {
    super(message);
  }
}

/** My enrolled key, opened with the key password: the secret key, to be zeroed by the caller. */
export async function openMyKey(api: ApiClient, keyPassword: string): Promise<Uint8Array> {
  const mine = await api.get<MyKey>('/api/me/key').catch((e: unknown) => {
    if ((e as { code?: string }).code === 'PERSON_KEY_NOT_FOUND')
      throw new SigningError('no-key', 'no signing key enrolled');
    throw e;
  });
  try {
    return await openPersonKey(mine.encrypted_key, keyPassword);
  } catch (e) {
    throw new SigningError('wrong-password', e instanceof Error ? e.message : String(e));
  }
}

/**
 * Opens my key, asks the server to prepare the act, checks and signs it here, and sends the
 * signature: the key is opened first, so a wrong key password asks nothing of the server.
 */
export async function prepareAndSign<T>(
  api: ApiClient,
  keyPassword: string,
  prepare: () => Promise<Prepared>,
  commit: (token: string, signature: { key_id: string; value: string }) => Promise<T>,
): Promise<T> {
  const secret = await openMyKey(api, keyPassword);
  try {
    const prepared = await prepare();
    let signature: { key_id: string; value: string };
    try {
      signature = await signPrepared(secret, prepared);
    } catch (e) {
      throw new SigningError('refused-to-sign', e instanceof Error ? e.message : String(e));
    }
    return await commit(prepared.token, signature);
  } finally {
    secret.fill(0);
  }
}
