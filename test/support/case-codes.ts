// The links of a plan's case codes to its subjects or items (issue 12, blinded cases). Since the
// assignment entry seals the ids, the ledger does not give them before the plan closes; the
// archive's holder does, through the examination KEK: the repository reads them back linked.
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';

/** subject or item id → its case code, in the plan's code order. */
export async function caseCodesOf(env: Record<string, string>, plan: string): Promise<Map<string, string>> {
  const archive = await openArchive(loadConfig({ ...env, CUSTODY_ACTOR: 'test' }, {}), 'read', 'test: case codes');
  try {
    const sample = await archive.examinations.findSample(plan);
    if (sample === undefined) throw new Error(`no plan ${plan}`);
    const rows = (await archive.examinations.assignments(sample.id)).sort((a, b) => ((a.code ?? '') < (b.code ?? '') ? -1 : 1));
    return new Map(rows.map((a) => [a.case_id, a.code ?? '']));
  } finally {
    await archive.close();
  }
}
