import { actorKey } from '../../core/index.js';
import { listAccounts, type AccountView } from '../../accounts/accounts.service.js';
import type { AccountsPorts } from '../../accounts/index.js';

/**
 * The accounts by name, for sign-in. Names are sealed in the index (as in the ledger), so they are
 * opened once, when first needed, and again after any account change (`invalidate`).
 */
export class AccountDirectory {
  private byName: Map<string, AccountView> | null = null;
  private byId: Map<string, AccountView> | null = null;

  constructor(private readonly ports: () => AccountsPorts) {}

  async find(name: string): Promise<AccountView | undefined> {
    await this.load();
    return this.byName?.get(actorKey(name));
  }

  async get(id: string): Promise<AccountView | undefined> {
    await this.load();
    return this.byId?.get(id);
  }

  invalidate(): void {
    this.byName = null;
    this.byId = null;
  }

  private async load(): Promise<void> {
    if (this.byName !== null) return;
    const all = await listAccounts(this.ports());
    this.byName = new Map(all.map((a) => [actorKey(a.name), a]));
    this.byId = new Map(all.map((a) => [a.id, a]));
  }
}
