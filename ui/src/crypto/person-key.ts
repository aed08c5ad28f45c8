// The person's signing key in the browser (issue 12/13): the project's own client code, made,
// encrypted, opened and used here, never on the server (src/accounts/person-key-client.ts).
export {
  makePersonKey,
  openPersonKey,
  personKeyFingerprint,
  signEnrolment,
  signPrepared,
  type Json,
  type KeyEnvelope,
} from '../../../src/accounts/person-key-client';
