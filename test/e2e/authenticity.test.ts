// Authenticity indicators through the CLI on generated photographs: a clean collection raises
// nothing; an image re-saved by an editor, and one re-compressed, raise exactly what they should.
// The CLI runs in-process (runCli: the output and exit code the binary gives, without a process
// per command); no exit code of the binary itself is under test here.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { planCollection, writeCollection } from '../../src/demo/index.js';
import { runCustodyInProcess as runCustody } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

interface AuthJson {
  sha256: string;
  disclaimer: string;
  indicators: { code: string; explanation: string }[];
}

describe('custody authenticity', () => {
  let env: Record<string, string>;
  let clean: string;
  const altered = new Map<string, string>();

  beforeAll(async () => {
    const dir = await makeTempDir('custody-authenticity');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive') };
    const src = join(dir, 'usb');
    const plan = planCollection({ count: 48, seed: 'authenticity-e2e', duplicateRate: 0 });
    await writeCollection(src, plan);
    const byCamera = plan.filter((p) => p.relativePath.startsWith('camera-a/'));
    const victim = byCamera[3];
    const victim2 = byCamera[5];
    if (victim === undefined || victim2 === undefined)
      throw new Error('plan has too few camera-a photos');
    clean = join(src, byCamera[1]?.relativePath ?? '');
    // Re-saved in an editor: same pixels and EXIF, Software names the editor.
    const editedPath = join(src, victim.relativePath);
    const original = await readFile(editedPath);
    const edited = await sharp(original)
      .keepExif()
      .withExifMerge({ IFD0: { Software: 'Adobe Photoshop CC 2019 (Windows)' } })
      .jpeg({ quality: victim.quality })
      .toBuffer();
    await writeFile(editedPath, edited);
    altered.set('EDITING_SOFTWARE', editedPath);
    // Re-compressed at another quality: other quantisation tables than this camera ever uses.
    const recompressedPath = join(src, victim2.relativePath);
    const recompressed = await sharp(await readFile(recompressedPath))
      .keepExif()
      .jpeg({ quality: 61 })
      .toBuffer();
    await mkdir(dirname(recompressedPath), { recursive: true });
    await writeFile(recompressedPath, recompressed);
    altered.set('QUANTISATION_UNLIKE_CAMERA', recompressedPath);
    expect((await runCustody(['init'], { env })).code).toBe(0);
    expect(
      (await runCustody(['ingest', src, '--source', 'HERON', '--new-source', '--analyze'], { env })).code,
    ).toBeLessThan(2);
    const a = await runCustody(['analyze'], { env });
    expect(a.code, a.stderr).toBe(0);
  }, 180_000);

  const auth = async (path: string): Promise<AuthJson> => {
    const sha = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    const r = await runCustody(['authenticity', sha, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as AuthJson;
  };

  it('raises nothing on a clean image, and says indicators are not verdicts', async () => {
    const r = await auth(clean);
    expect(r.indicators).toEqual([]);
    expect(r.disclaimer).toMatch(/not a verdict|none of them is a verdict/i);
  });

  it.each(['EDITING_SOFTWARE', 'QUANTISATION_UNLIKE_CAMERA'])(
    'raises %s on the image altered that way',
    async (code) => {
      const r = await auth(altered.get(code) ?? '');
      expect(r.indicators.map((i) => i.code)).toContain(code);
      for (const i of r.indicators) expect(i.explanation.length).toBeGreaterThan(40);
    },
  );

  it('summarises the collection: cameras, images per camera per day, and only the altered images as anomalies', async () => {
    const r = await runCustody(['authenticity', '--summary', '--json'], { env });
    const s = JSON.parse(r.stdout) as {
      cameras: { images: number }[];
      perCameraPerDay: { images: number }[];
      anomalies: { sha256: string }[];
      disclaimer: string;
    };
    expect(s.cameras.reduce((n, c) => n + c.images, 0)).toBe(48);
    expect(s.perCameraPerDay.every((d) => d.images <= 50)).toBe(true);
    const expected = await Promise.all(
      [...altered.values()].map(async (p) =>
        createHash('sha256')
          .update(await readFile(p))
          .digest('hex'),
      ),
    );
    expect(s.anomalies.map((a) => a.sha256).sort()).toEqual(expected.sort());
  });
});
