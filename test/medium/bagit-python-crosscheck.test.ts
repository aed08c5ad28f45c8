// Cross-check with the Library of Congress's own validator (bagit-python, Debian python3-bagit)
// when it is installed: it and we must agree on a few suite bags and on our own export bag.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBagDir } from '../../src/verify/bagit/bag-dir.adapter.js';
import { validateBag } from '../../src/verify/index.js';
import { REPO_ROOT } from '../support/cli.js';
import { buildExportBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';

const PYTHON = '/usr/bin/python3';
const hasBagit = spawnSync(PYTHON, ['-c', 'import bagit'], { stdio: 'ignore' }).status === 0;
const SUITE = join(REPO_ROOT, '..', 'shared', 'fixtures', 'bagit', 'suite');
const REASON = `${PYTHON} cannot import bagit (python3-bagit is not installed; apt could not find it on this machine)`;

function pythonSaysValid(dir: string): boolean {
  const r = spawnSync(PYTHON, ['-m', 'bagit', '--validate', dir], { encoding: 'utf8' });
  return r.status === 0;
}

async function weSayValid(dir: string): Promise<boolean> {
  const source = await openBagDir(dir);
  try {
    return (await validateBag(source)).valid;
  } finally {
    await source.close();
  }
}

describe.skipIf(!hasBagit)('bagit-python agrees with us', () => {
  const bags = [
    'v1.0/valid/basicBag',
    'v0.97/valid/UTF-16-encoded-tag-files',
    'v0.97/valid/bag-with-encoded-names',
    'v0.97/invalid/corrupt-data-file',
    'v0.97/invalid/extra-file-in-bag',
    'v1.0/invalid/notAllManifestsListAllFiles',
  ];
  for (const bag of bags) {
    it.skipIf(!existsSync(join(SUITE, bag)))(bag, async () => {
      expect(await weSayValid(join(SUITE, bag))).toBe(pythonSaysValid(join(SUITE, bag)));
    });
  }

  it('on our own hand-built export bag: both valid', async () => {
    const bag = await buildExportBag(await makeTempDir('crosscheck'));
    expect(pythonSaysValid(bag.dir)).toBe(true);
    expect(await weSayValid(bag.dir)).toBe(true);
  });
});

if (!hasBagit) it.skip(`bagit-python cross-check (${REASON})`, () => undefined);
