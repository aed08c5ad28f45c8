// The Library of Congress BagIt conformance suite (../shared/fixtures/bagit/suite) against our
// validator. Each bag's contents were read to decide what it tests; the table below says what
// we expect and, where we differ from the suite's folder, why.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBagDir } from '../../src/verify/bagit/bag-dir.adapter.js';
import { validateBag, type BagitCode, type BagitResult } from '../../src/verify/bagit/index.js';
import { REPO_ROOT } from '../support/cli.js';

const SUITE = join(REPO_ROOT, '..', 'shared', 'fixtures', 'bagit', 'suite');
const present = existsSync(SUITE);

type Expect = { valid: true; warn?: BagitCode[] } | { valid: false; error: BagitCode; warn?: BagitCode[] };
const ok = (...warn: BagitCode[]): Expect => ({ valid: true, warn });
const bad = (error: BagitCode, ...warn: BagitCode[]): Expect => ({ valid: false, error, warn });
const tooOld = bad('BAGIT_VERSION_UNSUPPORTED'); // drafts before 0.97 are refused, clearly

/** Where the suite keeps a bag whose .DS_Store a copy may have lost (see "special-system-files"). */
const SPECIAL = 'v0.97/warning/special-system-files';

const EXPECTED: Record<string, Expect> = {
  'v0.93/valid/basic-bag': tooOld,
  'v0.93/valid/duplicate-metadata-entries': tooOld,
  'v0.94/valid/basic-bag': tooOld,
  'v0.94/valid/duplicate-metadata-entries': tooOld,
  'v0.95/valid/basic-bag': tooOld,
  'v0.95/valid/duplicate-metadata-entries': tooOld,
  'v0.96/valid/bag-in-a-bag': tooOld,
  'v0.96/valid/bag-with-encoded-names': tooOld,
  'v0.96/valid/bag-with-escapable-characters': tooOld,
  'v0.96/valid/bag-with-leading-dot-slash-in-manifest': tooOld,
  'v0.96/valid/bag-with-space': tooOld,
  'v0.96/valid/basic-bag': tooOld,
  'v0.96/valid/duplicate-metadata-entries': tooOld,
  'v0.96/valid/holey-bag': tooOld,

  'v0.97/valid/ISO-8859-1-encoded-tag-files': ok(),
  'v0.97/valid/UTF-16-encoded-tag-files': ok(), // big-endian with a BOM
  'v0.97/valid/bag-in-a-bag': ok(), // CRLF, bagit.txt without a final newline
  'v0.97/valid/bag-with-encoded-names': ok(), // "%7E" is literal: only %0A %0D %25 decode
  'v0.97/valid/bag-with-escapable-characters': ok(),
  'v0.97/valid/bag-with-leading-dot-slash-in-manifest': ok('BAGIT_PATH_DOT_PREFIX'),
  'v0.97/valid/bag-with-space': ok(),
  'v0.97/valid/basic-bag': ok(),
  'v0.97/valid/duplicate-metadata-entries': ok(),
  'v0.97/valid/holey-bag': ok('BAGIT_FETCH_PRESENT'), // fetch.txt, every file already here
  'v0.97/valid/minimal-bag': ok(),
  'v0.97/valid/uncommon-metadata-separators': ok(), // sha224, "Label : value"
  'v1.0/valid/basicBag': ok(), // no bag-info.txt (optional)

  'v0.97/invalid/baginfo-missing-encoding': bad('BAGIT_DECLARATION_INVALID'), // bagit.txt lacks the encoding line
  'v0.97/invalid/bom-in-bagit.txt': bad('BAGIT_DECLARATION_INVALID'),
  'v0.97/invalid/corrupt-data-file': bad('BAGIT_DIGEST_MISMATCH'),
  'v0.97/invalid/corrupt-tag-file': bad('BAGIT_DIGEST_MISMATCH'),
  'v0.97/invalid/extra-file-in-bag': bad('BAGIT_FILE_UNLISTED'),
  'v0.97/invalid/invalid-version-number': bad('BAGIT_DECLARATION_INVALID'), // ".97"
  'v0.97/invalid/missing-baginfo': bad('BAGIT_FILE_MISSING'), // the tag manifest lists it
  'v0.97/invalid/missing-bagit.txt': bad('BAGIT_DECLARATION_MISSING'),
  'v0.97/invalid/out-of-scope-file-paths-using-dot-notation': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/invalid/out-of-scope-file-paths-using-dot-notation-for-fetch': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/invalid/same-filename-listed-twice-with-different-hashes': bad('BAGIT_MANIFEST_DUPLICATE'),
  'v1.0/invalid/bagit-with-invalid-whitespace': bad('BAGIT_DECLARATION_INVALID'), // "BagIt-Version : 1.0"
  'v1.0/invalid/notAllManifestsListAllFiles': bad('BAGIT_FILE_UNLISTED'),
  // This bag also has "BagIt-Version: 1.0 " (trailing space): BAGIT_DECLARATION_INVALID as well.
  'v1.0/invalid/same-filename-listed-twice-with-different-hashes': bad('BAGIT_MANIFEST_DUPLICATE'),
  'v1.0/invalid/same-filename-listed-twice-with-the-same-hash': bad('BAGIT_MANIFEST_DUPLICATE'),

  'v0.97/linux-only/out-of-scope-file-paths-using-absolute-path': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/linux-only/out-of-scope-file-paths-using-absolute-path-for-fetch': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/linux-only/out-of-scope-file-paths-using-shortcut': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/linux-only/out-of-scope-file-paths-using-shortcut-for-fetch': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/linux-only/out-of-scope-file-paths-using-shortcut-username': bad('BAGIT_PATH_UNSAFE'),
  'v0.97/linux-only/out-of-scope-file-paths-using-shortcut-username-for-fetch': bad('BAGIT_PATH_UNSAFE'),

  'v0.97/warning/made-with-md5sum-tools': ok('BAGIT_MANIFEST_MD5SUM_STYLE'),
  'v0.97/warning/relative-path': ok('BAGIT_PATH_DOT_PREFIX'),
  'v0.97/warning/same-filename-listed-twice-with-the-same-hash': ok('BAGIT_MANIFEST_DUPLICATE_SAME_DIGEST'),
  // Deviation: the manifest lists data/hello.txt and data/HELLO.txt, the bag holds only
  // hello.txt. On a case-insensitive file system that is one file (a warning); on Linux the
  // second listed file is simply missing, so the bag is incomplete (RFC 8493 §3). We warn too.
  'v0.97/warning/duplicate-file-with-different-case': bad('BAGIT_FILE_MISSING', 'BAGIT_PATH_CASE_COLLISION'),
  // Deviation: this bag in the suite's v0.97 folder declares "BagIt-Version: 0.96", which we do
  // not support. (Its NFC/NFD pair is covered by the unit tests: BAGIT_PATH_NORMALIZATION_COLLISION.)
  'v0.97/warning/same-filename-listed-twice-with-different-normalization': tooOld,
  // Filled in below: depends on whether this copy of the suite kept data/.DS_Store.
  [SPECIAL]: ok('BAGIT_SPECIAL_FILE'),
};

const WINDOWS_ONLY_REASON =
  'windows-only: these paths (C:\\…, %HomeDrive%\\…, \\\\?\\UNC\\…) escape the bag only on Windows; ' +
  'on POSIX they name ordinary relative files. We refuse backslashes everywhere anyway (see below).';

/** Every bag directory of the suite: <version>/<category>/<bag>. */
function suiteBags(): string[] {
  const bags: string[] = [];
  for (const version of readdirSync(SUITE).filter((v) => v.startsWith('v'))) {
    for (const category of readdirSync(join(SUITE, version))) {
      const dir = join(SUITE, version, category);
      if (!statSync(dir).isDirectory()) continue;
      for (const bag of readdirSync(dir)) {
        if (statSync(join(dir, bag)).isDirectory()) bags.push(`${version}/${category}/${bag}`);
      }
    }
  }
  return bags.sort();
}

async function validate(bag: string): Promise<BagitResult> {
  const source = await openBagDir(join(SUITE, bag));
  try {
    return await validateBag(source);
  } finally {
    await source.close();
  }
}

describe.skipIf(!present)('BagIt conformance suite (Library of Congress)', () => {
  if (!present) return;
  if (!existsSync(join(SUITE, SPECIAL, 'data', '.DS_Store'))) {
    // Deviation: the suite's bag holds data/.DS_Store and data/Thumbs.db; this copy lost the
    // .DS_Store (a common ignore rule), so the manifest's first line names a missing file.
    EXPECTED[SPECIAL] = bad('BAGIT_FILE_MISSING', 'BAGIT_SPECIAL_FILE');
  }
  const bags = suiteBags();

  it('has an expectation for every bag in the suite (a new bag must be looked at)', () => {
    const unknown = bags.filter((b) => !b.includes('/windows-only/') && !(b in EXPECTED));
    expect(unknown).toEqual([]);
  });

  for (const bag of bags) {
    if (bag.includes('/windows-only/')) {
      it.skip(`${bag} (${WINDOWS_ONLY_REASON})`, () => undefined);
      continue;
    }
    const want = EXPECTED[bag];
    it(`${bag}: ${want?.valid === true ? 'valid' : `invalid (${want?.error ?? '?'})`}`, async () => {
      const result = await validate(bag);
      const errors = result.errors.map((e) => e.code);
      const warnings = result.warnings.map((w) => w.code);
      if (want?.valid === true) expect(result.errors).toEqual([]);
      else expect(errors).toContain(want?.error);
      expect(result.valid).toBe(want?.valid);
      for (const w of want?.warn ?? []) expect(warnings).toContain(w);
      for (const e of result.errors) expect(e.message).not.toMatch(/\n/);
    });
  }

  it('refuses the windows-only bags on POSIX too: every one has an unsafe path', async () => {
    for (const bag of bags.filter((b) => b.includes('/windows-only/'))) {
      const result = await validate(bag);
      expect(result.errors.map((e) => e.code), bag).toContain('BAGIT_PATH_UNSAFE');
    }
  });
});

if (!present) it.skip('BagIt conformance suite (../shared/fixtures/bagit/suite is absent)', () => undefined);
