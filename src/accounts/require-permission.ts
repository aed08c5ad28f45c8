import { AccountError } from './errors.js';
import { can, type Permission, type Role } from './permissions.js';

/** Who is acting, as far as a permission check needs: the role of the request's account. */
export interface ActingRole {
  readonly role: Role;
}

/**
 * The permission matrix enforced in the services, not only at the server's routes: a service
 * calls this before it acts. A CLI command run with file access and the archive key acts as the
 * administrator (whoever holds both can do anything to the files anyway); the server passes the
 * signed-in account's role.
 */
export function requirePermission(ctx: ActingRole, permission: Permission): void {
  if (!can(ctx.role, permission))
    throw new AccountError('ACCOUNT_FORBIDDEN', `the ${ctx.role} role may not do this (${permission})`, {
      details: { role: ctx.role, permission },
    });
}

/**
 * The check of a service that is reached from the server and from the CLI alike (examination,
 * sampling): the server hands the service the request's context (http/request-context.ts),
 * which carries the signed-in account's role, and that role must hold `permission`. A CLI command carries none (`undefined`): its user runs with file
 * access and the archive key, has no authenticated account, and acts under the actor they
 * declare, as before accounts existed (as the identification services take `viewerOrg: null`).
 */
export function requireActing(acting: ActingRole | undefined, permission: Permission): void {
  if (acting !== undefined) requirePermission(acting, permission);
}
