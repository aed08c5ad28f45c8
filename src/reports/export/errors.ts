import { CustodyError } from '../../core/index.js';

export type ExportErrorCode =
  /** The --select query does not parse (exit 2). */
  | 'EXPORT_SELECT_INVALID'
  /** The options contradict each other (--blur-images without --redact, …) (exit 2). */
  | 'EXPORT_OPTIONS_INVALID'
  /** --out names a non-empty directory or an existing file (exit 2). */
  | 'EXPORT_OUT_EXISTS'
  /** --out lies inside the archive folder, symbolic links resolved (exit 2). */
  | 'EXPORT_OUT_INSIDE_ARCHIVE'
  /** --at names a tree size without a signed checkpoint, or the archive has none (exit 2). */
  | 'EXPORT_NOT_SIGNED'
  /** An id in the selection is not in the archive at the export's checkpoint (exit 1). */
  | 'EXPORT_NOT_FOUND'
  /** The --since-checkpoint file is not a checkpoint this archive signed, or is not older (exit 1). */
  | 'EXPORT_CHECKPOINT_INVALID'
  /** --blur-images needs a preview, and the image has not been analysed (exit 1). */
  | 'EXPORT_NOT_ANALYSED'
  /** An object's bytes are missing or differ from their digest while copying (exit 1). */
  | 'EXPORT_OBJECT_UNREADABLE'
  /** The export is recorded in the ledger but the bag could not take its final name (exit 1). */
  | 'EXPORT_PUBLISH_FAILED';

export class ExportError extends CustodyError<ExportErrorCode> {}
