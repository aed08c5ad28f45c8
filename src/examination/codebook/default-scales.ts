// The fixed scales of the default codebook (value scale, sex, age bands) and its body regions.
// Region boundaries follow surface anatomy so that two examiners put one injury in one region;
// every part of the body surface belongs to exactly one region (whole body aside).
import type { AgeBand, CodebookTerm, FindingValue, Sex } from './types.js';

/** One paragraph from sentences, so long definitions stay readable in source. */
export function paragraph(...sentences: string[]): string {
  return sentences.join(' ');
}

export const DEFAULT_INSTRUCTIONS = paragraph(
  'Examine only the photographs supplied for this person, independently and without sight of other',
  "examiners' answers or of information beyond what the examination protocol provides. Record what",
  'is visible, not what is suspected: answer present when the finding is seen, absent when the',
  'parts of the body where it would appear are visible and it is not seen, and cannot_assess',
  'otherwise. Findings are not exclusive: one injury may meet more than one definition (for',
  'example a patterned blunt-force injury) and is then recorded under each. For a present finding',
  'that takes regions, list every region in which it is seen. Do not record cause of death, timing',
  'or intent, and do not attribute responsibility. Notes may describe what is seen (number, size,',
  'shape, side, photograph reference); they are not compared between examiners.',
);

export const DEFAULT_VALUES: readonly CodebookTerm<FindingValue>[] = [
  {
    code: 'present',
    label: 'Present',
    definition: paragraph(
      'The finding is visible in the photographs clearly enough that the examiner would describe',
      'it in a report, meeting the definition of the finding. An appearance that is equivocal',
      'between the finding and one of its mimics is not present: answer cannot_assess.',
    ),
  },
  {
    code: 'absent',
    label: 'Absent',
    definition: paragraph(
      'The parts of the body where the finding would appear are shown in the photographs with',
      'enough clarity to see it, and it is not seen. Absent means not observed on the available',
      'images; it does not mean that the finding was not on the body.',
    ),
  },
  {
    code: 'cannot_assess',
    label: 'Cannot assess',
    definition: paragraph(
      'The photographs do not allow a decision: the relevant parts of the body are not shown, are',
      'covered, out of focus, badly lit or too small in the frame, or are obscured by',
      'decomposition, blood, soil or other material, or the appearance cannot be told apart from a',
      'mimic named in the definition. Answer this rather than guess.',
    ),
  },
];

export const DEFAULT_SEXES: readonly CodebookTerm<Sex>[] = [
  {
    code: 'male',
    label: 'Male',
    definition: paragraph(
      'Assessed as male from the external anatomy visible in the photographs: the external',
      'genitalia, or where these are not shown, a concordant combination of secondary sex',
      'characteristics. Record only a confident assessment; otherwise undetermined.',
    ),
  },
  {
    code: 'female',
    label: 'Female',
    definition: paragraph(
      'Assessed as female from the external anatomy visible in the photographs: the external',
      'genitalia, or where these are not shown, a concordant combination of secondary sex',
      'characteristics. Record only a confident assessment; otherwise undetermined.',
    ),
  },
  {
    code: 'undetermined',
    label: 'Undetermined',
    definition: paragraph(
      'Sex cannot be assessed with confidence from the photographs, for example because the',
      'relevant anatomy is not shown, the features conflict, or decomposition has altered them.',
    ),
  },
];

function band(code: AgeBand, label: string, range: string): CodebookTerm<AgeBand> {
  return {
    code,
    label,
    definition: paragraph(
      `The examiner's best estimate of age at death is ${range}, judged from external appearance`,
      '(skin, hair and its greying, dentition where visible, body habitus). Photographic age',
      'estimation is imprecise: choose the band that holds the best estimate.',
    ),
  };
}

export const DEFAULT_AGE_BANDS: readonly CodebookTerm<AgeBand>[] = [
  band(
    '<18',
    'Under 18',
    'under 18 years (a child, as in article 1 of the Convention on the Rights of the Child)',
  ),
  band('18-29', '18 to 29', '18 to 29 completed years'),
  band('30-39', '30 to 39', '30 to 39 completed years'),
  band('40-49', '40 to 49', '40 to 49 completed years'),
  band('50-59', '50 to 59', '50 to 59 completed years'),
  band('60+', '60 or over', '60 completed years or more'),
  {
    code: 'undetermined',
    label: 'Undetermined',
    definition: paragraph(
      'No age estimate can be defended from the photographs (for example advanced decomposition,',
      'or the face and body not shown). Treated as a missing value, not as a band, in agreement',
      'statistics.',
    ),
  },
];

function region(code: string, label: string, definition: string): CodebookTerm {
  return { code, label, definition };
}

export const DEFAULT_REGIONS: readonly CodebookTerm[] = [
  region(
    'head',
    'Head',
    paragraph(
      'The scalp and skull above and behind the face, including the ears; the face is a separate',
      'region.',
    ),
  ),
  region(
    'face',
    'Face',
    paragraph(
      'From the hairline to the chin and between the ears: forehead, eyes and eyelids, nose,',
      'cheeks, lips and mouth.',
    ),
  ),
  region(
    'neck',
    'Neck',
    paragraph(
      'From the lower border of the jaw and the base of the skull down to the collarbones in front',
      'and the top of the shoulders behind.',
    ),
  ),
  region(
    'chest',
    'Chest',
    paragraph(
      'The front and sides of the trunk from the collarbones to the lower margin of the rib cage,',
      'including the breasts and armpits.',
    ),
  ),
  region(
    'abdomen',
    'Abdomen',
    paragraph(
      'The front and sides of the trunk from the lower margin of the rib cage to the groin creases',
      'and the upper border of the pubic area, including the flanks.',
    ),
  ),
  region(
    'back',
    'Back',
    paragraph(
      'The back of the trunk from the top of the shoulders down, including the shoulder blades,',
      'loins and buttocks.',
    ),
  ),
  region(
    'upper_limbs',
    'Upper limbs',
    paragraph(
      'Either arm from the shoulder joint to the wrist, wrist included; the hands are a separate',
      'region.',
    ),
  ),
  region(
    'lower_limbs',
    'Lower limbs',
    paragraph(
      'Either leg from the hip and groin crease to the ankle, ankle included; the feet are a',
      'separate region.',
    ),
  ),
  region('hands', 'Hands', 'Beyond the wrist: palm, back of the hand, fingers and nails.'),
  region('feet', 'Feet', 'Beyond the ankle: sole, heel, top of the foot, toes and nails.'),
  region(
    'genital_region',
    'Genital region',
    'The pubic area, the external genitalia, the perineum and the area around the anus.',
  ),
  region(
    'whole_body',
    'Whole body',
    paragraph(
      'The finding is generalised over most of the body surface rather than in identifiable',
      'regions; record it instead of listing every region.',
    ),
  ),
];
