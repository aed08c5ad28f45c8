// The fixed vocabularies of a catalogued person's sex and estimated age at death. They belong to
// the catalogue (a subject's record); the examination codebook asks the same questions in the
// same terms and imports them from here, so that catalogue/ never reaches into examination/.

export type Sex = 'male' | 'female' | 'undetermined';
export const SEXES: readonly Sex[] = ['male', 'female', 'undetermined'];

/** Estimated age at death. The first six are ordered; 'undetermined' is missing, not a rank. */
export type AgeBand = '<18' | '18-29' | '30-39' | '40-49' | '50-59' | '60+' | 'undetermined';
export const AGE_BANDS: readonly AgeBand[] = [
  '<18',
  '18-29',
  '30-39',
  '40-49',
  '50-59',
  '60+',
  'undetermined',
];
