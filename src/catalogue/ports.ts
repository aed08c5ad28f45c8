// The ports the catalogue's services read through: narrow views of the index, the subject links
// and the ledger, each service naming only the methods it calls. The composition root and the
// entry points hand in what implements them (the repositories behind the archive); a service
// never sees the Archive handle (layering.config.js, rule 4).
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { ExaminationRepository } from '../db/examination.repository.js';
import type { Ledger } from '../ledger/ledger.service.js';

/** These methods of the index (db/archive-index.repository.ts). */
export interface IndexReads<K extends keyof ArchiveIndexRepository> {
  readonly index: Pick<ArchiveIndexRepository, K>;
}

/** These methods of the subject ⇄ item links and examination tables (db/examination.repository.ts). */
export interface LinkReads<K extends keyof ExaminationRepository> {
  readonly examinations: Pick<ExaminationRepository, K>;
}

/** The ledger's reading side at the handle's current size. */
export interface LedgerView {
  readonly treeSize: number;
  readonly ledger: Pick<Ledger, 'read' | 'root'>;
}
