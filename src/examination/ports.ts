// The ports the examination and sampling services read and write through: narrow views of the
// index, the examination tables and the ledger's append, each service naming only the methods it
// calls, and the context each operation runs in. The entry points hand in what implements them
// (an open Archive, or the server's archive for a request, does as it is) and the context (the
// CLI's operationContext, the server's RequestContext); a service never sees the Archive handle
// (layering.config.js, rule 4).
import { requireActing, type Permission, type Role } from '../accounts/index.js';
import type { OperationContext } from '../core/index.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { ExaminationRepository } from '../db/examination.repository.js';
import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';

/** These methods of the index (db/archive-index.repository.ts). */
export interface IndexReads<K extends keyof ArchiveIndexRepository> {
  readonly index: Pick<ArchiveIndexRepository, K>;
}

/** These methods of the examination tables and subject ⇄ item links (db/examination.repository.ts). */
export interface ExaminationReads<K extends keyof ExaminationRepository> {
  readonly examinations: Pick<ExaminationRepository, K>;
}

/** The archive's append: objects durable → ledger (fsync) → index, in one batch. */
export interface Commits {
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
}

/**
 * What an examination or sampling operation runs as: the ledger's actor, the clock and the id
 * factory, and the role of the account acting, which the service checks itself (requireActing).
 * The server's RequestContext fits as it is; a CLI command states `role: undefined` (its user has
 * file access and the archive key, and no authenticated account). Required, so that no entry
 * point can leave the role out by forgetting it.
 */
export interface ActingContext extends OperationContext {
  readonly role: Role | undefined;
}

/** Refuses (ACCOUNT_FORBIDDEN) unless the context's role holds `permission`; no role (the CLI) passes. */
export function requireRole(ctx: Pick<ActingContext, 'role'>, permission: Permission): void {
  requireActing(ctx.role === undefined ? undefined : { role: ctx.role }, permission);
}
