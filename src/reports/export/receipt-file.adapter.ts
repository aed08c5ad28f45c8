import { randomBytes } from 'node:crypto';
import { link, lstat, open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ExportError } from './errors.js';
import { hint } from '../../core/index.js';

/**
 * Refuses a receipt path that exists (file, folder or dangling link), as an existing --out is
 * refused: an old receipt beside a new bag would describe another export.
 */
export async function checkReceiptFree(path: string): Promise<void> {
  if ((await lstat(path).catch(() => null)) === null) return;
  throw new ExportError(
    'EXPORT_OUT_EXISTS',
    `${path} already exists (the receipt of the export goes there): move it away or give a new place for the export`,
    { details: hint({ field: 'out' }) },
  );
}

/**
 * Writes the receipt atomically and never over an existing file: the bytes go to a temp sibling,
 * are fsynced, and link(2) gives them the final name (EEXIST if someone took it meanwhile).
 */
export async function writeReceiptFile(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`);
  const fh = await open(temp, 'wx', 0o644);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await link(temp, path);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
