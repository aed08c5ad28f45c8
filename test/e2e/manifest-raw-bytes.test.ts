// Issue 9, finding 6: manifests merged non-UTF-8 names. Two windows-1256 names that decode to the
// same replacement characters collapsed into one line, and a substituted file was reported as
// "1 matched" while `sha256sum -c` said FAILED; escaped sha256sum names (lines starting with a
// backslash) were not decoded. Names are now compared as bytes, and the escaping is decoded.
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { custodyInExpect, sha256Hex } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

interface ManifestJson {
  listed: number;
  matched: number;
  mismatched: { path: string; expected: string; received: string }[];
  missing: string[];
  unlisted: string[];
}

async function ingestWithManifest(dir: string, src: string, manifest: string, code: number): Promise<ManifestJson> {
  const env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
  await custodyInExpect(0, ['init'], env);
  const r = await custodyInExpect(code, ['ingest', src, '--source', 'WREN', '--new-source', '--manifest', manifest, '--json'], env);
  return (JSON.parse(r.stdout) as { manifest: ManifestJson }).manifest;
}

describe('manifests compare raw bytes (issue 9, finding 6)', () => {
  it('the windows-1256 collision: a substituted file is a mismatch, as sha256sum -c says', async () => {
    const dir = await makeTempDir('custody-manifest-1256');
    const src = join(dir, 'usb');
    await mkdir(src);
    // "لم.jpg" and "بت.jpg" in windows-1256: neither is UTF-8, both decode to "\uFFFD\uFFFD.jpg".
    const n1 = Buffer.from([0xe1, 0xe3, 0x2e, 0x6a, 0x70, 0x67]);
    const n2 = Buffer.from([0xc8, 0xca, 0x2e, 0x6a, 0x70, 0x67]);
    const original = Buffer.from('the photograph the source hashed');
    const substitute = Buffer.from('a different photograph put in its place');
    await writeFile(Buffer.concat([Buffer.from(`${src}/`), n1]), Buffer.from('first photograph'));
    await writeFile(Buffer.concat([Buffer.from(`${src}/`), n2]), substitute);
    // The source's manifest, as bytes, made before the substitution.
    const manifest = join(dir, 'SHA256SUMS');
    const line = (bytes: Buffer, name: Buffer): Buffer => Buffer.concat([Buffer.from(`${sha256Hex(bytes)}  `), name, Buffer.from('\n')]);
    await writeFile(manifest, Buffer.concat([line(Buffer.from('first photograph'), n1), line(original, n2)]));

    const check = spawnSync('sha256sum', ['-c', manifest], { cwd: src, encoding: 'latin1' });
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('FAILED');

    // Exit 1: a mismatch is a finding.
    const m = await ingestWithManifest(dir, src, manifest, 1);
    expect(m.listed).toBe(2);
    expect(m.matched).toBe(1);
    expect(m.mismatched).toHaveLength(1);
    expect(m.mismatched[0]).toMatchObject({ expected: sha256Hex(original), received: sha256Hex(substitute) });
    expect(m.mismatched[0]?.path).toContain('[bytes c8ca2e6a7067]');
    expect([m.missing, m.unlisted]).toEqual([[], []]);
  });

  it('escaped names from real sha256sum output (newline, backslash, carriage return) all match', async () => {
    const dir = await makeTempDir('custody-manifest-escaped');
    const src = join(dir, 'card');
    await mkdir(src);
    const names = ['line\nbreak.jpg', 'back\\slash.jpg', 'carriage\rreturn.jpg', 'plain.jpg'];
    for (const [i, n] of names.entries()) await writeFile(join(src, n), `photograph ${i}`);
    const sums = spawnSync('sha256sum', names, { cwd: src });
    expect(sums.status).toBe(0);
    expect(sums.stdout.toString('latin1').split('\n').filter((l) => l.startsWith('\\'))).toHaveLength(3);
    const manifest = join(dir, 'SHA256SUMS');
    await writeFile(manifest, sums.stdout);

    const m = await ingestWithManifest(dir, src, manifest, 0);
    expect(m).toMatchObject({ listed: 4, matched: 4, mismatched: [], missing: [], unlisted: [] });
  });
});
