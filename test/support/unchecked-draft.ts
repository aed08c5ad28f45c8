// A ledger draft whose details are NOT checked against its entry type (src/ledger/entry-details.ts):
// for tests that write what the current writers never would — an entry in an older format, a
// forgery by a holder of the archive key, a filler for the ledger's own mechanics. Its bytes
// are the canonical JSON of exactly what is given.
import type { JsonValue } from '../../src/core/index.js';
import type { EntryDraft, EntryType } from '../../src/ledger/index.js';

export function uncheckedDraft(d: {
  actor: string;
  type: EntryType;
  items?: string[];
  objects?: string[];
  details: { [k: string]: JsonValue };
}): EntryDraft {
  return { actor: d.actor, type: d.type, items: d.items ?? [], objects: d.objects ?? [], details: d.details } as unknown as EntryDraft;
}
