// verify/portable: the custody-trail checks (RFC 9162 inclusion, C2SP signed checkpoints) over an
// injected ProofCrypto, with no Node built-in, so that the web UI runs this very code. The
// adapters are imported directly: node-crypto.adapter.ts (Node) and noble-crypto.adapter.ts
// (the browser).
export type { ProofCrypto } from './proof-crypto.js';
export { base64Of, bytesOfBase64, bytesOfHex, hexOf } from './bytes.js';
export { hashChildrenWith, hashLeafWith, verifyInclusionWith } from './inclusion.js';
export {
  keyIdWith,
  parseVerifierKeyWith,
  verifyCheckpointWith,
  type CheckpointCheck,
  type CheckpointFailure,
  type VerifierKey,
} from './signed-checkpoint.js';
