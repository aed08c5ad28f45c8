// The README's first command: a synthetic collection (photo-like JPEGs with realistic EXIF,
// never real photographs of people) → a new archive → intake with the source's own manifest →
// full verification. Re-running it reuses what is already there.
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runCli } from '../src/cli/main.js';
import { MANIFEST_NAME, planCollection, writeCollection } from '../src/demo/index.js';
import { runExaminationDemo } from './demo-examination.js';

const root = resolve(process.env.CUSTODY_DEMO_DIR ?? 'demo');
const media = join(root, 'collection', 'DCIM');
const manifest = join(root, 'collection', 'source-manifest-sha256.txt');
const archive = join(root, 'archive');
const count = Number(process.env.CUSTODY_DEMO_PHOTOS ?? '300');

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
    const code = await cli('ingest', media, '--source', 'ORCHID', '--new-source', '--received-by', 'Demo Operator', '--medium', 'USB stick (synthetic)', '--manifest', manifest, '--analyze');
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
  const exported = existsSync(bag) ? 0 : await cli('export', '--select', 'sample:prevalence', '--out', bag, '--organization', 'Custody demo (synthetic evidence)');
  const reported = await cli('report', '--template', 'tribunal', '--out', join(root, 'report.pdf'));
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
  return verified !== 0 ? verified : exported !== 0 ? exported : reported;
}

process.exitCode = await main();
