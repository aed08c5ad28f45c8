// Missing-person report keys (issue 15) against the ledger. Each report's data key is a file of
// its own (keys/reports/<id>.key) and destroying it erases the report; so a key file deleted
// without a `missing.erase` entry is an erasure no one recorded (REPORT_KEY_MISSING, an error),
// and a key file left after a recorded erasure means the erasure did not finish or a copy came
// back (REPORT_KEY_AFTER_ERASE). Presence only: verification holds no key to open them.
import type { Row } from '../db/index.js';
import type { Finding } from './findings.js';

export function checkReportKeys(reports: ReadonlyMap<string, Row>, present: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  for (const [id, r] of reports) {
    const erased = r.erased_seq !== null && r.erased_seq !== undefined;
    if (!erased && !present.has(id))
      findings.push({ code: 'REPORT_KEY_MISSING', severity: 'error', subject: `keys/reports/${id}.key`, message: `report ${id} is not recorded as erased, but its key file is gone: the report can no longer be read` });
    if (erased && present.has(id))
      findings.push({ code: 'REPORT_KEY_AFTER_ERASE', severity: 'warning', subject: `keys/reports/${id}.key`, message: `report ${id} was erased (ledger entry ${String(r.erased_seq)}) but its key file is present: run the erase again to destroy it` });
  }
  for (const id of present)
    if (!reports.has(id))
      findings.push({ code: 'REPORT_KEY_UNKNOWN', severity: 'warning', subject: `keys/reports/${id}.key`, message: `a report key file that no ledger entry explains` });
  return findings;
}
