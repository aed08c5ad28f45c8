/**
 * What the BagIt validator reports. Codes are stable (tests and scripts branch on them); messages
 * are one line for a person. A bag is valid when there is no error; warnings never invalidate.
 */
export type BagitErrorCode =
  | 'BAGIT_DECLARATION_MISSING' // no bagit.txt (RFC 8493 §2.1.1)
  | 'BAGIT_DECLARATION_INVALID' // bagit.txt malformed: BOM, whitespace, missing line (§2.1.1)
  | 'BAGIT_VERSION_UNSUPPORTED' // well-formed version other than 0.97 or 1.0
  | 'BAGIT_ENCODING_UNSUPPORTED' // Tag-File-Character-Encoding we cannot decode
  | 'BAGIT_PAYLOAD_DIR_MISSING' // no data/ directory (§2.1.2)
  | 'BAGIT_MANIFEST_MISSING' // no payload manifest in a supported algorithm (§2.1.3)
  | 'BAGIT_MANIFEST_INVALID' // a manifest line that is not "<hex digest> <path>" (§2.1.3, §2.2.1)
  | 'BAGIT_MANIFEST_DUPLICATE' // one path listed twice in one manifest
  | 'BAGIT_FILE_MISSING' // a manifest lists a file that is not in the bag
  | 'BAGIT_FILE_UNLISTED' // a payload file absent from a payload manifest (§3 "complete")
  | 'BAGIT_DIGEST_MISMATCH' // a file's digest differs from its manifest line (§3 "valid")
  | 'BAGIT_OXUM_MISMATCH' // Payload-Oxum disagrees with the payload (§2.2.2)
  | 'BAGIT_BAG_INFO_INVALID' // bag-info.txt line without a label, or a malformed Payload-Oxum
  | 'BAGIT_PATH_UNSAFE' // a path escaping the bag ('..', absolute, '~', '\'), or not a regular file (§5)
  | 'BAGIT_FETCH_UNSUPPORTED' // fetch.txt lists files that are not here; we do not fetch (§2.2.3)
  | 'BAGIT_FETCH_INVALID' // a fetch.txt line that is not "<url> <length|-> <path>"
  | 'BAGIT_TAG_FILE_UNREADABLE'; // a tag file could not be read or decoded

export type BagitWarningCode =
  | 'BAGIT_ALGORITHM_UNSUPPORTED' // a manifest in an algorithm we cannot compute: skipped
  | 'BAGIT_MANIFEST_DUPLICATE_SAME_DIGEST' // 0.97: one path listed twice with the same digest
  | 'BAGIT_MANIFEST_MD5SUM_STYLE' // "<digest> *<path>" (md5sum binary marker) accepted
  | 'BAGIT_PATH_DOT_PREFIX' // "./data/..." accepted
  | 'BAGIT_PATH_CASE_COLLISION' // two listed paths differ only in case
  | 'BAGIT_PATH_NORMALIZATION_COLLISION' // two listed paths differ only in Unicode normalization
  | 'BAGIT_SPECIAL_FILE' // .DS_Store, Thumbs.db and similar operating-system files in the payload
  | 'BAGIT_FETCH_PRESENT'; // fetch.txt present, but every file it lists is already in the bag

export type BagitCode = BagitErrorCode | BagitWarningCode;

export interface BagitFinding<C extends string = BagitCode> {
  code: C;
  /** The bag-relative path concerned ('/'-separated), when there is one. */
  path?: string;
  message: string;
}

/** Collects findings in order of discovery; the validator's only mutable state. */
export class FindingList {
  readonly errors: BagitFinding<BagitErrorCode>[] = [];
  readonly warnings: BagitFinding<BagitWarningCode>[] = [];

  error(code: BagitErrorCode, message: string, path?: string): void {
    this.errors.push(path === undefined ? { code, message } : { code, path, message });
  }

  warn(code: BagitWarningCode, message: string, path?: string): void {
    this.warnings.push(path === undefined ? { code, message } : { code, path, message });
  }
}
