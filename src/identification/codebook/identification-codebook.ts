// The identification codebook: ante-mortem (AM) fields, what a family reports about the person
// they look for, and post-mortem (PM) fields, what is seen of a subject's body in the photographs.
// After the INTERPOL Disaster Victim Identification forms (AM form, yellow; PM form, pink: body
// description, marks and scars, tattoos, dental, clothing and effects), reduced to what a family
// can tell and a photograph can show. It is separate from the examination codebook (prevalence of
// injuries); it borrows that codebook's body regions, so that an examiner and a family liaison
// put one mark in one region. Versioned and digested like the examination codebook: every AM or
// PM record names the version and the SHA-256 of the canonical JSON it was checked against.
import { canonicalBytes, sha256, toHex } from '../../core/index.js';
import { DEFAULT_CODEBOOK, type CodebookTerm } from '../../examination/codebook/index.js';

export type Side = 'am' | 'pm';
export type FieldType = 'integer' | 'term' | 'text' | 'marks';

export interface IdentificationField {
  readonly code: string;
  readonly label: string;
  readonly definition: string;
  /** Which form asks it: the family's report (am), the body (pm), or both. */
  readonly sides: readonly Side[];
  readonly type: FieldType;
  /** For 'term': the vocabulary's name in the codebook. */
  readonly vocabulary?: 'builds' | 'hairColours' | 'facialHair' | 'eyeColours';
  /** For 'integer': the accepted range. */
  readonly min?: number;
  readonly max?: number;
}

export interface IdentificationCodebook {
  readonly version: string;
  readonly title: string;
  readonly basis: string;
  /** The examination codebook's body regions, and 'unspecified' when a family does not know. */
  readonly regions: readonly CodebookTerm[];
  readonly markKinds: readonly CodebookTerm[];
  readonly builds: readonly CodebookTerm[];
  readonly hairColours: readonly CodebookTerm[];
  readonly facialHair: readonly CodebookTerm[];
  readonly eyeColours: readonly CodebookTerm[];
  readonly fields: readonly IdentificationField[];
}

export const IDENTIFICATION_CODEBOOK_VERSION = 'custody-identification-v1';

const t = (code: string, label: string, definition: string): CodebookTerm => ({ code, label, definition });
const UNDETERMINED = t('undetermined', 'Undetermined', 'Not known (AM) or not visible (PM).');

export const IDENTIFICATION_CODEBOOK: IdentificationCodebook = deepFreeze({
  version: IDENTIFICATION_CODEBOOK_VERSION,
  title: 'Custody identification codebook (ante-mortem and post-mortem)',
  basis:
    'After the INTERPOL Disaster Victim Identification AM and PM forms: physical description, ' +
    'distinguishing marks (scars, tattoos, birthmarks, amputations), dental notes, clothing and effects.',
  regions: [
    ...DEFAULT_CODEBOOK.regions,
    t('unspecified', 'Unspecified', 'The family knows the mark but not where it is, or it fits no region.'),
  ],
  markKinds: [
    t('scar', 'Scar', 'A healed wound or surgical scar (DVI: scars).'),
    t('tattoo', 'Tattoo', 'Any tattoo; describe its design and words in the description.'),
    t('birthmark', 'Birthmark', 'A birthmark or a large mole or naevus.'),
    t('amputation', 'Amputation', 'A missing limb, hand, foot, finger or toe, or part of one.'),
    t('deformity', 'Deformity', 'A visible malformation or a badly healed fracture.'),
    t('burn', 'Burn scar', 'An old, healed burn (not an injury around death: that is the examination codebook).'),
    t('piercing', 'Piercing', 'A piercing or its trace.'),
    t('other', 'Other', 'Any other lasting mark; describe it.'),
  ],
  builds: [t('slight', 'Slight', 'Thin, slender.'), t('medium', 'Medium', 'Average.'), t('heavy', 'Heavy', 'Stout, broad or heavy.'), UNDETERMINED],
  hairColours: [
    t('black', 'Black', ''),
    t('brown', 'Brown', ''),
    t('fair', 'Fair', 'Blond or light brown.'),
    t('red', 'Red', ''),
    t('grey', 'Grey or white', ''),
    t('bald', 'Bald', 'Bald or shaved.'),
    UNDETERMINED,
  ],
  facialHair: [t('none', 'None', 'Clean-shaven.'), t('moustache', 'Moustache', ''), t('beard', 'Beard', 'A beard, with or without a moustache.'), UNDETERMINED],
  eyeColours: [t('brown', 'Brown or dark', ''), t('hazel', 'Hazel', ''), t('green', 'Green', ''), t('blue', 'Blue or grey', ''), UNDETERMINED],
  fields: [
    { code: 'height_cm', label: 'Height (cm)', definition: 'AM: as the family knows it. PM: estimated.', sides: ['am', 'pm'], type: 'integer', min: 100, max: 230 },
    { code: 'build', label: 'Build', definition: 'The body build.', sides: ['am', 'pm'], type: 'term', vocabulary: 'builds' },
    { code: 'hair_colour', label: 'Hair colour', definition: 'AM: when last seen.', sides: ['am', 'pm'], type: 'term', vocabulary: 'hairColours' },
    { code: 'facial_hair', label: 'Facial hair', definition: 'AM: when last seen.', sides: ['am', 'pm'], type: 'term', vocabulary: 'facialHair' },
    { code: 'eye_colour', label: 'Eye colour', definition: '', sides: ['am', 'pm'], type: 'term', vocabulary: 'eyeColours' },
    { code: 'marks', label: 'Distinguishing marks', definition: 'Each mark: its region, its kind and a short description (region:kind:description; several separated by ";").', sides: ['am', 'pm'], type: 'marks' },
    { code: 'dental', label: 'Dental notes', definition: 'Missing, broken, gold or crowned teeth, braces, dentures (DVI dental form, in words).', sides: ['am', 'pm'], type: 'text' },
    { code: 'clothing', label: 'Clothing', definition: 'AM: what the person wore when taken. PM: what is seen.', sides: ['am', 'pm'], type: 'text' },
    { code: 'medical', label: 'Medical', definition: 'Old fractures, operations, prostheses, conditions a photograph may show.', sides: ['am', 'pm'], type: 'text' },
    { code: 'effects', label: 'Personal effects', definition: 'Rings, watches, papers seen with the body.', sides: ['pm'], type: 'text' },
  ],
});

/** SHA-256 (hex) of the codebook's RFC 8785 canonical JSON: what a record cites. */
export function identificationCodebookDigest(codebook: IdentificationCodebook = IDENTIFICATION_CODEBOOK): string {
  return toHex(sha256(canonicalBytes(codebook)));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
