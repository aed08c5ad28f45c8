// The browser's crypto for the custody trail: the project's pure checks (src/verify/portable)
// on @noble/hashes and @noble/ed25519, the adapter that src/verify/portable/crypto-adapters.test.ts
// runs on the same vectors as node:crypto.
export { nobleProofCrypto as browserCrypto } from '../../../src/verify/portable/noble-crypto.adapter';
export {
  base64Of,
  hexOf,
  verifyCheckpointWith,
  verifyInclusionWith,
  type CheckpointCheck,
} from '../../../src/verify/portable/index';
