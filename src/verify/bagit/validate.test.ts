import { describe, expect, it } from 'vitest';
import { memoryBag, sha256Hex } from '../../../test/support/memory-bag.js';
import { validateBag } from './validate.js';

const DECL = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';

/** A valid 1.0 bag with two payload files, then `edit` applied. */
function bag(edit: (files: Record<string, string>) => void = () => undefined): Record<string, string> {
  const payload: Record<string, string> = { 'data/a.txt': 'alpha\n', 'data/dir/b c.txt': 'beta' };
  const manifest = Object.entries(payload).map(([p, c]) => `${sha256Hex(c)}  ${p}\n`).join('');
  const files: Record<string, string> = {
    'bagit.txt': DECL,
    'bag-info.txt': 'Payload-Oxum: 10.2\n',
    'manifest-sha256.txt': manifest,
    ...payload,
  };
  edit(files);
  files['tagmanifest-sha256.txt'] ??= ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt']
    .filter((p) => p in files)
    .map((p) => `${sha256Hex(files[p] ?? '')} ${p}\n`)
    .join('');
  return files;
}

async function codes(files: Record<string, string>) {
  const r = await validateBag(memoryBag(files));
  return { valid: r.valid, errors: r.errors.map((e) => e.code), warnings: r.warnings.map((w) => w.code), result: r };
}

describe('validateBag', () => {
  it('accepts a complete and valid bag, and exposes its computed digests', async () => {
    const { valid, errors, warnings, result } = await codes(bag());
    expect({ valid, errors, warnings }).toEqual({ valid: true, errors: [], warnings: [] });
    expect(result.computed.get('data/a.txt')?.get('sha256')).toBe(sha256Hex('alpha\n'));
    expect(result.version).toBe('1.0');
  });

  it('catches a changed payload byte, a removed file and an added file', async () => {
    expect((await codes(bag((f) => (f['data/a.txt'] = 'alphA\n')))).errors).toEqual(['BAGIT_DIGEST_MISMATCH']);
    expect((await codes(bag((f) => delete f['data/a.txt']))).errors).toEqual(['BAGIT_FILE_MISSING', 'BAGIT_OXUM_MISMATCH']);
    expect((await codes(bag((f) => (f['data/extra'] = '')))).errors).toEqual(['BAGIT_FILE_UNLISTED', 'BAGIT_OXUM_MISMATCH']);
  });

  it('catches a tag file changed behind the tag manifest', async () => {
    const files = bag();
    files['bag-info.txt'] = 'Payload-Oxum: 10.2\nSource-Organization: someone else\n';
    expect((await codes(files)).errors).toEqual(['BAGIT_DIGEST_MISMATCH']);
  });

  it('decodes percent-encoded names (%0A, %25) in manifests', async () => {
    const files = bag((f) => {
      f['data/odd\nname%'] = 'x';
      f['manifest-sha256.txt'] += `${sha256Hex('x')}  data/odd%0Aname%25\n`;
      f['bag-info.txt'] = 'Payload-Oxum: 11.3\n';
    });
    expect((await codes(files)).errors).toEqual([]);
  });

  it('requires every payload file in every payload manifest in 1.0', async () => {
    const files = bag((f) => (f['manifest-md5.txt'] = '0cc175b9c0f1b6a831c399e269772661  data/a.txt\n'));
    const { errors } = await codes(files);
    expect(errors).toContain('BAGIT_FILE_UNLISTED');
  });

  it('reports a missing declaration, payload directory or payload manifest', async () => {
    expect((await codes(bag((f) => delete f['bagit.txt']))).errors).toEqual(['BAGIT_DECLARATION_MISSING']);
    expect((await codes({ 'bagit.txt': DECL, 'manifest-sha256.txt': '' })).errors).toEqual(['BAGIT_PAYLOAD_DIR_MISSING']);
    const noManifest = bag((f) => delete f['manifest-sha256.txt']);
    expect((await codes(noManifest)).errors).toContain('BAGIT_MANIFEST_MISSING');
  });

  it('refuses old drafts and unknown encodings before reading anything else', async () => {
    expect((await codes(bag((f) => (f['bagit.txt'] = 'BagIt-Version: 0.96\nTag-File-Character-Encoding: UTF-8\n')))).errors).toEqual(['BAGIT_VERSION_UNSUPPORTED']);
    expect((await codes(bag((f) => (f['bagit.txt'] = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: KOI8-R\n')))).errors).toEqual(['BAGIT_ENCODING_UNSUPPORTED']);
  });

  it('checks Payload-Oxum, and its form', async () => {
    expect((await codes(bag((f) => (f['bag-info.txt'] = 'Payload-Oxum: 11.2\n')))).errors).toEqual(['BAGIT_OXUM_MISMATCH']);
    expect((await codes(bag((f) => (f['bag-info.txt'] = 'Payload-Oxum: ten\n')))).errors).toEqual(['BAGIT_BAG_INFO_INVALID']);
  });

  it('rejects malformed manifest lines and paths leaving the payload', async () => {
    const files = bag((f) => {
      f['manifest-sha256.txt'] += `not-a-digest data/a.txt\n${sha256Hex('')} bagit.txt\n${sha256Hex('')}  ../x\n`;
    });
    expect((await codes(files)).errors).toEqual(['BAGIT_MANIFEST_INVALID', 'BAGIT_PATH_UNSAFE', 'BAGIT_PATH_UNSAFE']);
  });

  it('warns about names that collide by case or Unicode normalization', async () => {
    const nfc = 'data/N\u00fa\u00f1ez';
    const nfd = 'data/Nu\u0301n\u0303ez';
    const files = bag((f) => {
      f[nfc] = '';
      f[nfd] = '';
      f['data/A.TXT'] = '';
      f['manifest-sha256.txt'] += [nfc, nfd, 'data/A.TXT'].map((p) => `${sha256Hex('')}  ${p}\n`).join('');
      f['bag-info.txt'] = 'Payload-Oxum: 10.5\n';
    });
    const { errors, warnings } = await codes(files);
    expect(errors).toEqual([]);
    expect(warnings.sort()).toEqual(['BAGIT_PATH_CASE_COLLISION', 'BAGIT_PATH_NORMALIZATION_COLLISION']);
  });

  it('does not fetch: fetch.txt naming an absent file is BAGIT_FETCH_UNSUPPORTED', async () => {
    const files = bag((f) => {
      f['fetch.txt'] = 'https://example.org/a.txt 6 data/a.txt\n';
      delete f['data/a.txt'];
      f['bag-info.txt'] = 'Payload-Oxum: 4.1\n';
    });
    const { errors } = await codes(files);
    expect(errors).toEqual(['BAGIT_FETCH_UNSUPPORTED']);
    const present = bag((f) => (f['fetch.txt'] = 'https://example.org/a.txt - data/a.txt\n'));
    expect(await codes(present)).toMatchObject({ valid: true, warnings: ['BAGIT_FETCH_PRESENT'] });
    const garbage = bag((f) => (f['fetch.txt'] = 'just-a-url\n'));
    expect((await codes(garbage)).errors).toEqual(['BAGIT_FETCH_INVALID']);
  });
});
