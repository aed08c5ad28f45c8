// Issue 12: the reveal is a system act, not a person's. It is recorded under the system actor with
// the rule it follows as its reason, states the commitment of each submission it opens, rests on
// the archive key's signed checkpoint like every system act, and both verifiers check the rule
// itself: a reveal appended by whoever holds the archive key before the last assigned examiner
// had submitted (the seal broken early) is EXAMINATION_REVEAL_EARLY in `custody verify` and
// EXPORT_REVEAL_EARLY in `custody verify-export`. The early reveal is written through the
// archive's own writer (openArchive + commit), a test-only path standing for that key holder.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import type { JsonValue } from '../../src/core/index.js';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { loadSample, planAnswerKey, REVEAL_RULE, SYSTEM_ACTOR, unseal } from '../../src/examination/blind/index.js';
import { custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

interface Entry {
  seq: number;
  actor: string;
  details: Record<string, unknown> & { action?: string };
}

describe('the reveal is a system act, checked against its rule (issue 12)', () => {
  let dir: string;
  let env: Record<string, string>;
  let members: string[] = [];
  const [subject] = worldSubjects(1);
  const as = (actor: string) => ({ ...env, CUSTODY_ACTOR: actor });
  const log = async (): Promise<Entry[]> =>
    (await custodyInExpect(0, ['log', '--json'], env)).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const submit = async (who: string, caseId: string) => {
    await writeFile(join(dir, `${who}.json`), JSON.stringify(examinerForm(subject!, who, 0)));
    await custodyInExpect(0, ['examine', 'submit', 'plan', caseId, '--form', join(dir, `${who}.json`)], as(who));
  };

  beforeAll(async () => {
    dir = await makeTempDir('custody-reveal-rule');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    await mkdir(join(dir, 'photos'));
    for (let i = 0; i < 2; i++)
      await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 90 * i, g: 40, b: 90 } } }).png().toFile(join(dir, 'photos', `p${i}.png`));
    await custodyInExpect(0, ['init'], as('registrar'));
    await custodyInExpect(0, ['ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source'], as('registrar'));
    members = (JSON.parse((await custodyInExpect(0, ['sample', 'draw', '--name', 'plan', '--over', 'items', '--method', 'simple', '--size', '2', '--json'], as('statistician'))).stdout) as { members: string[] }).members;
    await custodyInExpect(0, ['examine', 'assign', 'plan', '--examiners', 'dr-a,dr-b'], as('coordinator'));
  }, 60_000);

  it('a reveal is recorded under the system actor, with its rule, stating the commitment of each submission it opens', async () => {
    await submit('dr-a', members[0]!);
    await submit('dr-b', members[0]!); // the last examiner's submission: the case is revealed by rule
    const entries = await log();
    const reveal = entries.find((e) => e.details.action === 'examination.reveal')!;
    const submits = entries.filter((e) => e.details.action === 'examination.submit');
    expect(reveal.actor).toBe(SYSTEM_ACTOR);
    expect(reveal.actor).not.toBe('dr-b');
    expect(reveal.details.reason).toBe(REVEAL_RULE);
    expect((reveal.details.answers as { examiner: string; commitment: string }[]).map((a) => [a.examiner, a.commitment])).toEqual(
      submits.map((s) => [s.details.examiner, s.details.commitment]),
    );
    await custodyInExpect(0, ['verify'], env);
  });

  it('a reveal the key holder appends before the last examiner submitted is EXAMINATION_REVEAL_EARLY (verify) and EXPORT_REVEAL_EARLY (verify-export)', async () => {
    await submit('dr-a', members[1]!);
    // The writer opens dr-a's sealed answer (it can: it holds the plan key) and reveals it before dr-b has answered.
    const archive = await openArchive(loadConfig(as('writer'), {}), 'write', 'test: a reveal before its time');
    let seq = -1;
    try {
      const sample = await loadSample(archive, 'plan');
      const [sub] = await archive.examinations.submissions(sample.id, members[1]);
      // Named, and sealed, as the plan's entries name the case: by its code (issue 12, blinded cases).
      const code = (await archive.examinations.assignments(sample.id, members[1]))[0]!.code!;
      const opened = unseal(await planAnswerKey(archive, sample), `${sample.id}/${code}/${sub!.examiner}`, sub!.sealed) as { answer: JsonValue; salt: string };
      seq = archive.treeSize;
      await archive.commit([
        {
          actor: SYSTEM_ACTOR,
          type: 'examination',
          items: [],
          objects: [],
          details: { action: 'examination.reveal', sample: sample.id, case: code, answers: [{ examiner: sub!.examiner, commitment: sub!.commitment, answer: opened.answer, salt: opened.salt }], reason: REVEAL_RULE },
        },
      ]);
    } finally {
      await archive.close();
    }
    const verify = await custodyIn(['verify', '--json'], env);
    expect(verify.code).toBe(1);
    const findings = (JSON.parse(verify.stdout) as { findings: { code: string; subject: string }[] }).findings;
    expect(findings.filter((f) => f.code.startsWith('EXAMINATION_')).map((f) => [f.code, f.subject])).toEqual([['EXAMINATION_REVEAL_EARLY', `entry ${seq}`]]);
    await writeFile(join(dir, 'pinned.txt'), (await custodyInExpect(0, ['key', '--public'], env)).stdout);
    await custodyInExpect(0, ['export', '--select', 'sample:plan', '--out', join(dir, 'bag')], as('prosecutor'));
    const r = JSON.parse((await custodyInExpect(1, ['verify-export', join(dir, 'bag'), '--key', join(dir, 'pinned.txt'), '--json'])).stdout) as {
      steps: { step: number; ok: boolean }[];
      findings: { code: string; severity: string; details?: Record<string, unknown> }[];
    };
    // Every Merkle check holds: the entry is authentic, the archive key covers it; the rule is what it breaks.
    expect(r.steps.filter((s) => s.step <= 6).every((s) => s.ok)).toBe(true);
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => [f.code, f.details?.reveal_seq])).toEqual([['EXPORT_REVEAL_EARLY', seq]]);
  });
});
