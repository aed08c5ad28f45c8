import { assertNotWithdrawn, resolveObject } from '../archive/withdrawal.service.js';
import { closeExifTool, fullExifDump } from '../analysis/metadata/index.js';
import { printJson, UsageError, type Command } from './command.js';
import { withArchive } from './context.js';

export const exifCommand: Command = {
  name: 'exif',
  summary: 'the full ExifTool dump of an item (exiftool -json -n -G), for the forensic record',
  usage: 'custody exif <item-id|sha256> [--json]',
  options: {},
  async run(args, io) {
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1)
      throw new UsageError(`name one item or object\nusage: ${this.usage}`);
    const dump = await withArchive(args, io, 'read', 'exif', async (archive) => {
      const sha256 = await resolveObject(archive, target);
      // A withdrawal hides what was extracted from the object too (GPS, EXIF): ITEM_WITHDRAWN.
      await assertNotWithdrawn(archive, sha256, 'metadata');
      // ExifTool reads by path: check first, bounded, that the path holds a regular file (never
      // a link or a FIFO put in its place).
      await (await archive.store.openObject(sha256)).close();
      try {
        return await fullExifDump(archive.store.pathOf(sha256));
      } finally {
        await closeExifTool();
      }
    });
    // ExifTool's own shape either way: one object, group-prefixed keys, numeric values (-n).
    printJson(io, dump);
    return 0;
  },
};
