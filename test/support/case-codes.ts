// The links of a plan's case codes to its subjects or items (issue 12, blinded cases). Since the
// assignment entry seals the ids, the ledger does not give them before the plan closes; the
// archive's holder does, through the examination KEK: the repository reads them back linked.
import { openArchive } from '../../src/app.js';
import { openExaminationKek } from '../../src/archive/examination-kek.adapter.js';
import { loadConfig } from '../../src/config/index.js';
import { caseIdKey, openPlanKey } from '../../src/examination/blind/index.js';

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

/**
 * The plan's case-id key, as the close will publish it: from its plan key, unwrapped by the
 * archive's examination KEK (read here as the archive's holder can, with the passphrase).
 */
export async function caseIdKeyOf(env: Record<string, string>, plan: string): Promise<Buffer> {
  const archive = await openArchive(loadConfig({ ...env, CUSTODY_ACTOR: 'test' }, {}), 'read', 'test: case-id key');
  try {
    const sample = await archive.examinations.findSample(plan);
    if (sample === undefined || sample.plan_key_json === null) throw new Error(`no assigned plan ${plan}`);
    const kek = await openExaminationKek(archive.config.archiveDir, archive.manifest.id, archive.config.keyPassphrase, false);
    return caseIdKey(openPlanKey(kek, sample.id, sample.plan_key_json));
  } finally {
    await archive.close();
  }
}
