// The README's first command: a synthetic collection (photo-like JPEGs with realistic EXIF,
// never real photographs of people) → a new archive → intake with the source's own manifest →
// full verification. Re-running it reuses what is already there.
import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runCli } from '../src/cli/main.js';
import { MANIFEST_NAME, planCollection, writeCollection } from '../src/demo/index.js';
import { runExaminationDemo } from './demo-examination.js';

const root = resolve(process.env.CUSTODY_DEMO_DIR ?? 'demo');
const media = join(root, 'collection', 'DCIM');
const manifest = join(root, 'collection', 'source-manifest-sha256.txt');
const archive = join(root, 'archive');
const count = Number(process.env.CUSTODY_DEMO_PHOTOS ?? '300');
/** `CUSTODY_DEMO_SERVE=0` ends the demo without serving (scripts, CI). */
const serve = process.env.CUSTODY_DEMO_SERVE !== '0';
const port = process.env.CUSTODY_DEMO_PORT ?? '8080';

/** The demo team: one account per role, all with the demo password (never use it for real evidence). */
const DEMO_ACCOUNTS = [
  ['Demo Administrator', 'administrator'],
  ['Demo Investigator', 'investigator'],
  ['Examiner A', 'examiner'],
  ['Examiner B', 'examiner'],
  ['Demo Adjudicator', 'adjudicator'],
  ['Demo Analyst', 'analyst'],
  ['Demo Lawyer', 'lawyer'],
  ['Demo Family Liaison', 'family liaison'],
  ['Demo Source Custodian', 'source custodian'],
  ['Demo Auditor', 'auditor'],
] as const;
const DEMO_PASSWORD = 'custody-demo-only';
/** Every demo account belongs to one organisation: the missing-person reports' consent scope needs one. */
const DEMO_ORG = 'Custody Demo Organisation';
/** The plan the demo examiners can examine in the browser (six cases, both examiners on each). */
const TRY_IT_PLAN = 'try-it';

// Synthetic missing-person reports for the family liaison's pages: invented names, no real person.
const DEMO_REPORTS_CSV = [
  'name_ar,name_latin,father_name,sex,birth,origin,event,event_date,event_place,unit,contact_name,contact_relation,contact_phone,consent_orgs,consent_photographs,consent_liaison',
  'زيدون قطرميز,Zaydoun Qatramiz,سليمون,male,1985,حمص,arrest,2013-05-21,checkpoint north of the city,,أم زيدون,mother,+000-555-0101,,yes,Demo Family Liaison',
  'بشموش طنبرجي,Bashmoush Tanbarji,,male,1990,درعا,last_seen,2014,,,أخو بشموش,brother,+000-555-0102,,no,',
  'فطوم خربوشة,Fattoum Kharboucha,عبدو,female,1979,حماة,arrest,2012-11-02,market square,,ابن فطوم,son,+000-555-0103,,yes,Demo Family Liaison',
].join('\n');

async function cli(...args: string[]): Promise<number> {
  console.log(`\n$ custody ${args.join(' ')}`);
  return runCli([...args, '--archive', archive]);
}

async function main(): Promise<number> {
  if (!existsSync(manifest)) {
    console.log(`Generating ${count} synthetic photographs in ${media} …`);
    const plan = planCollection({ count, seed: 'custody-demo-1', duplicateRate: 0.04 });
    const r = await writeCollection(media, plan, {
      onProgress: (done, total) => {
        if (done % 50 === 0 || done === total) process.stdout.write(`  ${done}/${total}\n`);
      },
    });
    await rename(join(media, MANIFEST_NAME), manifest);
    console.log(`  ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB`);
  }
  process.env.CUSTODY_ACTOR ??= 'demo-operator';
  if (!existsSync(join(archive, 'custody.json'))) {
    if ((await cli('init')) !== 0) return 1;
    // A team install keeps the archive to the service account: staff reach it through the server only.
    await chmod(archive, 0o750);
    const code = await cli(
      'ingest',
      media,
      '--source',
      'ORCHID',
      '--new-source',
      '--received-by',
      'Demo Operator',
      '--medium',
      'USB stick (synthetic)',
      '--manifest',
      manifest,
      '--analyze',
    );
    if (code !== 0) return code;
    const examined = await runExaminationDemo(archive, join(root, 'work'));
    if (examined !== 0) return examined;
  } else {
    console.log(`\nThe demo archive exists already: ${archive}`);
  }
  const verified = await cli('verify');
  await cli('checkpoint');
  // What goes to a tribunal: a verifiable bag of the examined sample, and the report.
  const bag = join(root, 'export', 'prevalence-bag');
  const exported = existsSync(bag)
    ? 0
    : await cli(
        'export',
        '--select',
        'sample:prevalence',
        '--out',
        bag,
        '--organization',
        'Custody demo (synthetic evidence)',
      );
  const reported = await cli('report', '--template', 'tribunal', '--out', join(root, 'report.pdf'));
  const accounts = await demoAccounts();
  if (accounts !== 0) return accounts;
  console.log(`
Done. Try:
  npx custody items --archive ${archive} | head
  npx custody show <item-id> --archive ${archive}
  npx custody log --archive ${archive} | tail
  npx custody prove inclusion 5 --archive ${archive}
  npx custody stats prevalence --archive ${archive}          (charts in ${join(root, 'charts')})
  npx custody agreement --sample prevalence --archive ${archive}
  npx custody key --public --archive ${archive} > pinned-key.txt   (in real life: from an independent channel)
  bash ${join(root, 'export', 'prevalence-bag', 'verify.sh')} pinned-key.txt
  xdg-open ${join(root, 'report.pdf')}   (or report.html where Chromium is absent)
`);
  const code = verified !== 0 ? verified : exported !== 0 ? exported : reported;
  if (code !== 0 || !serve) return code;
  console.log(`The team server: open http://127.0.0.1:${port}/ and sign in as one of
${DEMO_ACCOUNTS.map(([name, role]) => `  ${name.padEnd(24)} ${role}`).join('\n')}
with the password "${DEMO_PASSWORD}" (demo only). Ctrl-C stops the server.`);
  return cli('serve', '--port', port);
}

/** Creates the demo team's accounts once (`custody user add`), passwords read from a file. */
async function demoAccounts(): Promise<number> {
  await mkdir(join(root, 'work'), { recursive: true });
  const pw = join(root, 'work', 'demo-password.txt');
  await writeFile(pw, `${DEMO_PASSWORD}\n`, { mode: 0o600 });
  const listed: string[] = [];
  const io = {
    stdout: (t: string) => void listed.push(t),
    stderr: (t: string) => void process.stderr.write(t),
    isTty: false,
    env: process.env,
  };
  if ((await runCli(['user', 'list', '--json', '--archive', archive], io)) !== 0) return 1;
  const have = new Set((JSON.parse(listed.join('')) as { name: string }[]).map((a) => a.name));
  for (const [name, role] of DEMO_ACCOUNTS) {
    if (have.has(name)) continue;
    const code = await cli('user', 'add', name, '--role', role, '--org', DEMO_ORG, '--password-file', pw);
    if (code !== 0) return code;
  }
  // A few synthetic family reports, once, so that the family liaison's pages have something to show.
  const reports: string[] = [];
  if ((await runCli(['missing', 'list', '--json', '--archive', archive], { ...io, stdout: (t: string) => void reports.push(t) })) !== 0) return 1;
  if ((JSON.parse(reports.join('')) as unknown[]).length === 0) {
    const csv = join(root, 'work', 'demo-missing-reports.csv');
    await writeFile(csv, `${DEMO_REPORTS_CSV}\n`, { mode: 0o600 });
    const code = await cli('missing', 'import', csv, '--org', DEMO_ORG);
    if (code !== 0) return code;
  }
  return tryItPlan(io);
}

/**
 * A small blind plan for the demo's examiner accounts, once, so that "Examiner A" and "Examiner B"
 * can examine in the browser (enrol a key on the key page, then open the queue) and the demo's
 * adjudicator can settle their disagreements. The prevalence plan was examined from the shell.
 */
async function tryItPlan(io: Parameters<typeof runCli>[1]): Promise<number> {
  const plans: string[] = [];
  if ((await runCli(['sample', 'list', '--json', '--archive', archive], { ...io!, stdout: (t: string) => void plans.push(t) })) !== 0)
    return 1;
  if ((JSON.parse(plans.join('')) as { samples: { name: string }[] }).samples.some((p) => p.name === TRY_IT_PLAN)) return 0;
  const steps = [
    ['sample', 'draw', '--name', TRY_IT_PLAN, '--over', 'subjects', '--method', 'simple', '--size', '6', '--seed', 'custody demo try-it'],
    ['examine', 'assign', TRY_IT_PLAN, '--examiners', 'Examiner A,Examiner B'],
  ];
  for (const args of steps) {
    const code = await cli(...args);
    if (code !== 0) return code;
  }
  return 0;
}

process.exitCode = await main();
