/**
 * The port through which the validator sees a bag. The validator itself does no I/O, so it can be
 * audited on its own; `bag-dir.adapter.ts` (a directory) and `bag-zip.adapter.ts` (a .zip with
 * one top-level directory) implement it. Paths are bag-relative and '/'-separated.
 */
export interface BagEntry {
  path: string;
  /** Bytes; 0 for directories and other kinds. */
  size: number;
  /** Symbolic links, devices and the like are 'other': a bag holds only files and directories. */
  kind: 'file' | 'dir' | 'other';
}

export interface BagSource {
  /** For messages: the directory or zip file the bag was read from. */
  readonly location: string;
  /** Every file, directory and other entry under the bag's base directory (not the base itself). */
  list(): Promise<BagEntry[]>;
  /**
   * The whole content of a (small) file, or undefined when there is no regular file at `path`.
   * Throws when the file cannot be read or exceeds the adapter's size limit for whole reads.
   */
  read(path: string): Promise<Uint8Array | undefined>;
  /**
   * Lowercase hex digests of one file for each algorithm (streamed; evidence files can be large),
   * or undefined when there is no regular file at `path`.
   */
  digest(path: string, algorithms: readonly HashAlgorithm[]): Promise<Map<HashAlgorithm, string> | undefined>;
  /** Releases what the adapter holds open (a zip file); a no-op for directories. */
  close(): Promise<void>;
}

/**
 * The manifest algorithms we compute (RFC 8493 §2.4 names sha256 and sha512 and allows others;
 * the LoC suite uses md5, sha1 and sha224 too). Names are those of the manifest file names.
 */
export const HASH_ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** Hex length of each algorithm's digest, to reject malformed manifest lines early. */
export const DIGEST_HEX_LENGTH: Readonly<Record<HashAlgorithm, number>> = {
  md5: 32,
  sha1: 40,
  sha224: 56,
  sha256: 64,
  sha384: 96,
  sha512: 128,
};

export function isHashAlgorithm(name: string): name is HashAlgorithm {
  return (HASH_ALGORITHMS as readonly string[]).includes(name);
}
