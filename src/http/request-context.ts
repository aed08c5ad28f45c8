import type { Archive } from '../app.js';
import type { Role } from '../accounts/index.js';
import type { OperationContext } from '../core/index.js';

/**
 * What a request runs as: the signed-in account (its id is the ledger's actor), its role, the
 * clock and the id factory. Built per request; services receive it, never the server.
 */
export interface RequestContext extends OperationContext {
  readonly role: Role;
}

/**
 * The open archive as one request sees it: the same parts, with the request's account as the
 * ledger's actor. Routes hand its parts to the services as ports (no service takes the whole
 * handle: layering.config.js, APP_IMPORT_RATCHET is empty). The role is not here: the services
 * that check it take the context itself (examination/ports.ts).
 */
export function archiveFor(archive: Archive, ctx: RequestContext): Archive {
  const config = { ...archive.config, actor: ctx.actor };
  return new Proxy(archive, {
    get(target, prop, receiver) {
      if (prop === 'config') return config;
      if (prop === 'newId') return ctx.newId;
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
