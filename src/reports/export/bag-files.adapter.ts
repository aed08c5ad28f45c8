// The bag's files on disk for an export service that takes them as a port (BagFiles in
// identification-bag.service.ts): the same writer, target checks, publication and receipt file as
// `custody export`, bundled by the composition side (cli/, http/) and handed in.
import type { BagFiles } from './identification-bag.service.js';
import {
  BagWriter,
  checkOutFree,
  checkOutsideArchive,
  publish,
  removeStalePartials,
} from './bag-writer.adapter.js';
import { checkReceiptFree, writeReceiptFile } from './receipt-file.adapter.js';
import { findReferenceFiles } from './reference-files.adapter.js';

export function bagFiles(archiveDir: string): BagFiles {
  return {
    async prepare(out, receipt) {
      const zip = out.toLowerCase().endsWith('.zip');
      await checkOutsideArchive(out, archiveDir);
      const removed = await removeStalePartials(out);
      await checkOutFree(out, zip);
      await checkOutsideArchive(receipt, archiveDir);
      await checkReceiptFree(receipt);
      return removed;
    },
    create: (out) => BagWriter.create(out, archiveDir),
    publish,
    writeReceipt: writeReceiptFile,
    referenceFiles: () => findReferenceFiles(),
  };
}
