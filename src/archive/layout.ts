import { join } from 'node:path';

/** Where everything lives inside an archive directory. */
export function archiveLayout(dir: string): {
  manifest: string;
  objects: string;
  ledger: string;
  checkpoints: string;
  lock: string;
  /** Written by `custody serve` while it runs: who serves the archive (served-marker.adapter.ts). */
  served: string;
  /** The server's rotating security log (failed sign-ins), never the ledger. */
  logs: string;
  privateKey: string;
  publicKey: string;
  sqlite: string;
} {
  return {
    manifest: join(dir, 'custody.json'),
    objects: join(dir, 'objects'),
    ledger: join(dir, 'ledger', 'entries.jsonl'),
    checkpoints: join(dir, 'ledger', 'checkpoints'),
    lock: join(dir, 'ledger', 'writer.lock'),
    served: join(dir, 'ledger', 'server.json'),
    logs: join(dir, 'logs'),
    privateKey: join(dir, 'keys', 'checkpoint-signing.pem'),
    publicKey: join(dir, 'keys', 'checkpoint-verifier.txt'),
    sqlite: join(dir, 'index.sqlite'),
  };
}

export interface ArchiveManifest {
  format: 'custody-archive';
  version: 1;
  id: string;
  origin: string;
  database: 'sqlite' | 'postgres';
  created: string;
}
