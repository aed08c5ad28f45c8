import { CustodyError } from '../../core/index.js';

export type CatalogueErrorCode =
  /** A numbering-scheme config is itself wrong (unknown key, bad range, pattern vs fields). */
  | 'NUMBER_SCHEME_INVALID'
  /** The text is not shaped like the pattern: wrong number of parts, stray characters, empty. */
  | 'NUMBER_MALFORMED'
  /** One field mixes two digit systems (e.g. Arabic-Indic ٤ with Eastern Arabic-Indic ۴). */
  | 'NUMBER_MIXED_DIGITS'
  /** The separators between fields are not all of one kind (e.g. '12/34-56'). */
  | 'NUMBER_MIXED_SEPARATORS'
  /** An integer or year is outside the field's [min, max]. */
  | 'NUMBER_OUT_OF_RANGE'
  /** The field names a registry (e.g. units) and the registry does not know the value. */
  | 'NUMBER_UNKNOWN_REGISTRY_VALUE'
  /** The field names a registry that the caller did not supply: a caller fault, never skipped. */
  | 'NUMBER_REGISTRY_MISSING'
  /** parseWithSchemes: no scheme accepted the text (details.failures says why, per scheme). */
  | 'NUMBER_NO_SCHEME_MATCHES'
  /** parseWithSchemes: more than one scheme accepted the text; we do not pick one. */
  | 'NUMBER_AMBIGUOUS';

/**
 * Raised by the catalogue. For number errors `details` carries `schemeId`, `reason`, and
 * `field` whenever one field is to blame (always, for every code but NUMBER_MALFORMED on
 * surplus parts, NUMBER_MIXED_SEPARATORS and the parseWithSchemes codes).
 */
export class CatalogueError extends CustodyError<CatalogueErrorCode> {}
