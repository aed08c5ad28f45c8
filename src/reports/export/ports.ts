// The ports the export's and the report's builders read a snapshot through: narrow views of the
// index, the examination tables, the ledger and the store, each builder naming only the methods
// it calls. The export service hands in its snapshot (an open Archive, which implements them all
// as it is); a builder never sees the Archive handle (layering.config.js, rule 4).
import type { ArchiveIndexRepository } from '../../db/archive-index.repository.js';
import type { ExaminationRepository } from '../../db/examination.repository.js';
import type { Ledger } from '../../ledger/ledger.service.js';
import type { FsObjectStore } from '../../store/fs-store.adapter.js';

/** These methods of the snapshot's index (db/archive-index.repository.ts). */
export interface IndexReads<K extends keyof ArchiveIndexRepository> {
  readonly index: Pick<ArchiveIndexRepository, K>;
}

/** These methods of the snapshot's examination tables (db/examination.repository.ts). */
export interface ExaminationReads<K extends keyof ExaminationRepository> {
  readonly examinations: Pick<ExaminationRepository, K>;
}

/** These methods of the ledger, and the tree size the snapshot is viewed at. */
export interface LedgerReads<K extends keyof Ledger> {
  readonly ledger: Pick<Ledger, K>;
  readonly treeSize: number;
}

/** These methods of the object store (store/fs-store.adapter.ts). */
export interface StoreReads<K extends keyof FsObjectStore> {
  readonly store: Pick<FsObjectStore, K>;
}
