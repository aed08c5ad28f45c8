// A verification's record in the ledger (PREMIS "fixity check"): what `custody verify --record`
// and the server's verification runs append, so that "the last verification" is part of the
// record and a verifier sees who checked what, and when.
import type { JsonValue } from '../core/index.js';
import type { EntryDraft } from '../ledger/index.js';
import type { VerifyReport } from './archive-verify.service.js';

/** At most this many failing findings are recorded; the rest are counted. */
const RECORDED_FINDINGS = 1000;

export function fixityDraft(actor: string, report: VerifyReport): EntryDraft {
  const failing = report.findings.filter((x) => x.severity !== 'info');
  return {
    actor,
    type: 'fixity check',
    items: [],
    objects: [],
    details: {
      result: report.ok ? 'pass' : 'fail',
      tree_size: report.ledger.size,
      root: report.ledger.root,
      objects_hashed: report.objects.hashed,
      bytes_hashed: report.objects.bytes,
      findings: failing.slice(0, RECORDED_FINDINGS) as unknown as JsonValue,
    },
  };
}
