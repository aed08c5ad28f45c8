// The demo's second stage: the catalogue and a blind double examination of a sample, run through
// the CLI as a team would. Synthetic throughout (src/demo/examination-world.ts): four units with
// Arabic names, one subject per two consecutive photographs, two examiners who err at seeded
// rates, an adjudicator who settles their disagreements, and the close that links the case codes
// to their subjects. Writes its inputs under `work/`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../src/cli/main.js';
import type { Io } from '../src/cli/command.js';
import { decideFromTruth, examinerForm, SCHEME, UNITS, worldSubjects, type WorldSubject } from '../src/demo/examination-world.js';

export async function runExaminationDemo(archive: string, work: string): Promise<number> {
  await mkdir(work, { recursive: true });
  const say = (actor: string, args: string[]): Promise<number> => {
    console.log(`\n$ CUSTODY_ACTOR=${actor} custody ${args.join(' ')}`);
    return runCli([...args, '--archive', archive, '--actor', actor]);
  };
  const quiet = async (actor: string, args: string[]): Promise<unknown> => {
    let out = '';
    const io: Io = { stdout: (s) => (out += s), stderr: (s) => process.stderr.write(s), isTty: false, env: process.env };
    const code = await runCli([...args, '--archive', archive, '--actor', actor, '--json'], io);
    if (code !== 0) throw new Error(`custody ${args.join(' ')} exited ${code}`);
    return JSON.parse(out) as unknown;
  };
  const items = (await quiet('demo-operator', ['items'])) as { id: string; path: string; media_type: string }[];
  const photos = items.filter((i) => i.media_type === 'image/jpeg' && !i.path.includes('copies/')).sort((a, b) => (a.path < b.path ? -1 : 1));
  const subjects = worldSubjects(Math.floor(photos.length / 2));
  await writeFile(join(work, 'units.csv'), `code,name_en,name_ar\n${UNITS.map((u) => `${u.code},${u.name_en},${u.name_ar}`).join('\n')}\n`);
  await writeFile(join(work, 'scheme.json'), JSON.stringify(SCHEME, null, 2));
  const rows = subjects.map((s) => `${s.number},${s.sex},${s.ageBand},${s.dateOfDeath},${photos[2 * s.index]?.id ?? ''};${photos[2 * s.index + 1]?.id ?? ''}`);
  await writeFile(join(work, 'subjects.csv'), `number,sex,age_band,date_of_death,items\n${rows.join('\n')}\n`);
  const steps: [string, string[]][] = [
    ['registrar', ['unit', 'import', join(work, 'units.csv')]],
    ['registrar', ['scheme', 'add', join(work, 'scheme.json')]],
    ['registrar', ['subject', 'import', join(work, 'subjects.csv'), '--reason', 'catalogue cards transcribed (synthetic)']],
    ['registrar', ['unit', 'counts']],
    ['statistician', ['sample', 'draw', '--name', 'prevalence', '--over', 'subjects', '--method', 'stratified', '--by', 'unit', '--size', String(Math.min(60, subjects.length))]],
    ['coordinator', ['examine', 'assign', 'prevalence', '--examiners', 'examiner-a,examiner-b']],
  ];
  for (const [actor, args] of steps) if ((await say(actor, args)) !== 0) return 1;
  const plan = (await quiet('reader', ['sample', 'show', 'prevalence'])) as { cases: { case: string }[] };
  const subjectIds = (await quiet('reader', ['subject', 'list'])) as { id: string; number_raw: string | null }[];
  const world = new Map(subjectIds.map((s) => [s.id, subjects.find((w) => w.number === s.number_raw)]));
  for (const [examiner, key, rate] of [['examiner-a', 'A', 0.06], ['examiner-b', 'B', 0.09]] as const) {
    const lines = plan.cases.map((c) => JSON.stringify({ case: c.case, form: examinerForm(world.get(c.case) as WorldSubject, key, rate) }));
    await writeFile(join(work, `${examiner}.jsonl`), `${lines.join('\n')}\n`);
    if ((await say(examiner, ['examine', 'submit', 'prevalence', '--forms', join(work, `${examiner}.jsonl`)])) !== 0) return 1;
  }
  const pending = (await quiet('adjudicator-c', ['adjudicate', 'prevalence', '--list'])) as { cases: { case: string; disagreements: { field: string; values: { value: string }[] }[] }[] };
  const batch = pending.cases.map((c) => ({
    case: c.case,
    decisions: decideFromTruth(world.get(c.case) as WorldSubject, c.disagreements, 'reviewed at full resolution (synthetic demo)'),
  }));
  await writeFile(join(work, 'adjudication.json'), JSON.stringify(batch, null, 2));
  if ((await say('adjudicator-c', ['adjudicate', 'prevalence', '--batch', join(work, 'adjudication.json')])) !== 0) return 1;
  // Every case is final: the close publishes the keys that link each case code to its subject, so
  // that the plan's export (a bag links answers to members only once the plan is closed) carries
  // its examinations and statistics. The try-it plan (demo.ts) stays open for the browser.
  if ((await say('coordinator', ['examine', 'close', 'prevalence'])) !== 0) return 1;
  return say('statistician', ['stats', 'prevalence', '--charts', join(work, '..', 'charts')]);
}
