// Per-person signing keys over HTTP (issue 12): the key is made in the browser
// (src/accounts/person-key-client.ts), which sends the public key, the key file encrypted under
// the person's key password (the CLI's `custody-signing-key` envelope) and the enrolment's
// self-signature. The server checks the signature and that the key file is a well-formed
// envelope of that public key, stores the file where `custody key enrol` would, and records the
// enrolment in the ledger as the person's own act. It never sees the key password, so neither it
// nor whoever runs it can sign as the person.
import { unlink } from 'node:fs/promises';
import { Type } from 'typebox';
import type { Archive } from '../../app.js';
import { AccountError } from '../../accounts/index.js';
import { readPersonKeyFile, storePersonKeyFile } from '../../accounts/person-key-file.adapter.js';
import { enrolmentFields, enrolPersonKey, revokePersonKey, type PersonKeysPorts } from '../../accounts/person-keys.service.js';
import { personKeyFingerprint } from '../../core/index.js';
import { activePersonKey } from '../../examination/blind/index.js';
import { defineRoute, type RouteDef } from './route.js';
import { IdParams } from './schemas.js';

const B64 = (description: string, maxLength: number) =>
  Type.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$', maxLength, description });

/** The key file as the browser made it: checked member by member by the archive's reader. */
const Envelope = Type.Object(
  {
    format: Type.Literal('custody-signing-key'),
    version: Type.Literal(1),
    algorithm: Type.Literal('Ed25519'),
    public_key: B64('the 32-byte public key', 64),
    kdf: Type.Object(
      {
        name: Type.Literal('scrypt'),
        N: Type.Integer({ minimum: 1 }),
        r: Type.Integer({ minimum: 1 }),
        p: Type.Integer({ minimum: 1 }),
        salt: B64('16 to 64 random bytes', 100),
      },
      { additionalProperties: false },
    ),
    cipher: Type.Object(
      { name: Type.Literal('aes-256-gcm'), nonce: B64('12 random bytes', 24) },
      { additionalProperties: false },
    ),
    passphrase_check: B64('HMAC-SHA256 under the check key', 64),
    ciphertext: B64('the PKCS#8 DER private key, encrypted', 1400),
    tag: B64('the GCM tag', 32),
  },
  { additionalProperties: false, description: 'the `custody-signing-key` envelope (src/archive/key-envelope.ts)' },
);

const KeyView = Type.Object({
  account: Type.String(),
  key_id: Type.String(),
  fingerprint: Type.String(),
  public_key: Type.String(),
  enrol_seq: Type.Integer(),
});

export function personKeysPorts(archive: Archive, actor: string): PersonKeysPorts {
  return {
    listAccounts: () => archive.index.listAccounts(),
    listPersonKeys: () => archive.index.listPersonKeys(),
    async commit(details) {
      const [e] = await archive.commit([{ actor, type: 'cataloguing', items: [], objects: [], details }]);
      return e?.entry.seq ?? -1;
    },
  };
}

function bytes(b64: string, length: number, what: string): Buffer {
  const b = Buffer.from(b64, 'base64');
  if (b.length !== length) throw new AccountError('PERSON_KEY_INVALID', `${what} is ${length} bytes, base64`);
  return b;
}

export const personKeyRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/me/key',
    blind: 'none',
    // Any account may try; the service enrols only examiners and adjudicators (PERSON_KEY_ROLE_REFUSED).
    access: 'signed-in',
    summary:
      'enrol my signing key, made on my side: its public key, its key file encrypted under my key password (never the login password), and the self-signature over `custody key enrol v1` {account, key_id, public_key}; a new key replaces the active one',
    tags: ['keys'],
    writes: true,
    schema: {
      body: Type.Object(
        {
          public_key: B64('the 32-byte Ed25519 public key', 64),
          encrypted_key: Envelope,
          signature: B64('the 64-byte Ed25519 self-signature', 100),
        },
        { additionalProperties: false },
      ),
      response: {
        201: Type.Object({
          account: Type.String(),
          key_id: Type.String(),
          fingerprint: Type.String({ description: 'to confirm on the signed enrolment form' }),
          replaces: Type.Union([Type.String(), Type.Null()]),
          seq: Type.Integer(),
        }),
      },
    },
    async handler({ body, archive, ctx, reply }) {
      const account = ctx!.actor;
      const publicKey = bytes(body.public_key, 32, 'the public key');
      const signature = bytes(body.signature, 64, 'the signature');
      const { key_id } = enrolmentFields(account, publicKey);
      // The role and the self-signature are checked before anything is written.
      const row = (await archive.index.listAccounts()).find((a) => a.id === account);
      if (row !== undefined && row.role !== 'examiner' && row.role !== 'adjudicator')
        throw new AccountError('PERSON_KEY_ROLE_REFUSED', `signing keys are for examiners and adjudicators; this account has the ${row.role} role`);
      if ((await archive.index.listPersonKeys()).some((k) => k.key_id === key_id))
        throw new AccountError('PERSON_KEY_INVALID', `key ${key_id} is already enrolled`);
      const text = `${JSON.stringify(body.encrypted_key, null, 2)}\n`;
      const path = await storePersonKeyFile(archive.config.archiveDir, account, key_id, publicKey, text);
      try {
        const r = await enrolPersonKey(personKeysPorts(archive, account), { account, publicKey, signature });
        void reply.status(201);
        return { account, ...r };
      } catch (e) {
        await unlink(path).catch(() => undefined);
        throw e;
      }
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/me/key',
    blind: 'none',
    access: 'signed-in',
    summary:
      'my active signing key and its key file, encrypted under my key password: the browser opens it with the key password to sign (own account only)',
    tags: ['keys'],
    schema: {
      response: { 200: Type.Object({ ...KeyView.properties, encrypted_key: Envelope }) },
    },
    async handler({ archive, ctx }) {
      const key = activePersonKey(await archive.index.listPersonKeys(), ctx!.actor);
      const text = key === undefined ? undefined : await readPersonKeyFile(archive.config.archiveDir, key.account_id, key.key_id);
      if (key === undefined || text === undefined)
        throw new AccountError('PERSON_KEY_NOT_FOUND', 'this account has no active signing key: enrol one');
      const publicKey = Buffer.from(key.public_key, 'base64');
      return {
        account: key.account_id,
        key_id: key.key_id,
        fingerprint: personKeyFingerprint(publicKey),
        public_key: key.public_key,
        enrol_seq: key.enrol_seq,
        encrypted_key: JSON.parse(text) as unknown,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/me/key/revoke',
    blind: 'none',
    access: 'signed-in',
    summary: 'revoke my active signing key (lost, or the key password known to someone else); the reason is recorded',
    tags: ['keys'],
    writes: true,
    schema: {
      body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ key_id: Type.String(), seq: Type.Integer() }) },
    },
    handler: ({ body, archive, ctx }) => revokePersonKey(personKeysPorts(archive, ctx!.actor), ctx!.actor, body.reason),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/accounts/:id/key/revoke',
    blind: 'none',
    access: { permission: 'accounts.manage' },
    summary:
      "revoke an account's active signing key (a laptop lost, a person gone); revoking signs nothing, so the administrator may",
    tags: ['keys'],
    writes: true,
    schema: {
      params: IdParams('account'),
      body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ key_id: Type.String(), seq: Type.Integer() }) },
    },
    handler: ({ params, body, archive, ctx }) =>
      revokePersonKey(personKeysPorts(archive, ctx!.actor), params.id.toUpperCase(), body.reason),
  }),
];
