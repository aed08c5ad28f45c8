/**
 * Who performs an operation, with its clock and id factory: what a service that writes receives
 * beside its ports, built per request by the server (http/request-context.ts) and per command by
 * the CLI (app.ts `operationContext`). Services never read the actor from a handle or the
 * environment.
 *
 * @example
 *   const ctx: OperationContext = { actor: account.id, clock: () => new Date(), newId: ulid };
 */
export interface OperationContext {
  /** The ledger's actor: an account id on a server with accounts, else the named operator. */
  readonly actor: string;
  readonly clock: () => Date;
  readonly newId: () => string;
}
