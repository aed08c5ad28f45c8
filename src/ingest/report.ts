/**
 * What an intake run reports. Each bad input has a stable code, a line in the report and a
 * count in the summary; the rest of the delivery still goes in.
 */
export const PROBLEM_CODES = [
  'INGEST_UNREADABLE',
  'INGEST_VANISHED',
  /** No longer raised: links are never followed (INGEST_SYMLINK_NOT_FOLLOWED). Kept for readers of old reports. */
  'INGEST_BROKEN_SYMLINK',
  /** A folder that contains itself (a mount inside itself); no longer raised for links. */
  'INGEST_SYMLINK_LOOP',
  'INGEST_NOT_REGULAR_FILE',
  'INGEST_EMPTY_FILE',
  'INGEST_CHANGED_WHILE_READ',
  'INGEST_ZIP_CORRUPT',
  'INGEST_ZIP_MEMBER_CORRUPT',
  'INGEST_ZIP_CRC_MISMATCH',
  'INGEST_ZIP_ENCRYPTED_MEMBER',
  'INGEST_ZIP_HOSTILE_PATH',
  'INGEST_ZIP_BOMB',
  'INGEST_ZIP_TOO_DEEP',
  'INGEST_WITHDRAWN_CONTENT',
  /** A symbolic link: kept as a link item (its target text), never followed. */
  'INGEST_SYMLINK_NOT_FOLLOWED',
  /** On procfs, sysfs, devtmpfs and the like: kernel state, not delivered files. Not read. */
  'INGEST_PSEUDO_FILESYSTEM',
  /** The same file (device, inode) as one of the archive's own: not read. */
  'INGEST_ARCHIVE_FILE',
  /** The path named another file (or a link) by the time it was opened: not read. */
  'INGEST_FILE_REPLACED',
  /** The container's members would expand beyond the limit: kept whole, not extracted. */
  'INGEST_ZIP_EXPANSION_LIMIT',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export interface Problem {
  code: ProblemCode;
  path: string;
  message: string;
  /** The item kept despite the problem, when one was. */
  item: string | null;
}

export interface ManifestCheck {
  manifest_sha256: string;
  format: 'sha256sum' | 'csv';
  listed: number;
  matched: number;
  mismatched: { path: string; expected: string; received: string }[];
  missing: string[];
  unlisted: string[];
}

export interface IngestSummary {
  files_seen: number;
  items_added: number;
  already_present: number;
  objects_added: number;
  objects_shared: number;
  bytes_read: number;
  containers: number;
  members_added: number;
  problems: number;
  by_code: Partial<Record<ProblemCode, number>>;
}

export interface IngestReport {
  delivery: string;
  source: string;
  /** 'new', 'resumed' (an interrupted run over the same roots), or 'continued' (--delivery). */
  mode: 'new' | 'resumed' | 'continued';
  /** Remarks that are not problems, e.g. the same paths received before in another delivery. */
  notes: string[];
  summary: IngestSummary;
  problems: Problem[];
  manifest: ManifestCheck | null;
  ledger: { size: number; root: string };
}

export function emptySummary(): IngestSummary {
  return {
    files_seen: 0,
    items_added: 0,
    already_present: 0,
    objects_added: 0,
    objects_shared: 0,
    bytes_read: 0,
    containers: 0,
    members_added: 0,
    problems: 0,
    by_code: {},
  };
}
