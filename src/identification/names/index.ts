// Arabic-aware name handling (issue 15): normalisation, script-independent keys, compound-aware
// parts, comparison levels with a Jaro–Winkler similarity. Pure: no I/O.
export { ARABIC_NORMALISATION_RULES, normaliseArabic, hasArabic, type TextRule } from './arabic.js';
export {
  COMPOUND_RULES,
  COMPOUND_ARTICLES,
  tokens,
  type CompoundRule,
  type CompoundKind,
} from './tokens.js';
export {
  ARABIC_KEY_LETTERS,
  ARABIC_KEY_RULES,
  ARABIC_NAMES_WITHOUT_ARTICLE,
  KEY_TABLES,
  LATIN_KEY_RULES,
  SKELETON_RULES,
  nameKey,
  nameKeys,
  tokenKey,
  type KeyRule,
  type KeyTables,
} from './name-key.js';
export { jaro, jaroWinkler } from './jaro-winkler.js';
export {
  NAME_LEVELS,
  betterComparison,
  compareNames,
  comparePrepared,
  levelRank,
  prepareName,
  type NameComparison,
  type NameHandling,
  type NameLevel,
  type PreparedName,
} from './compare.js';
export {
  NAME_PARTS,
  NAME_PART_LAYOUTS,
  alignNameParts,
  bestParts,
  prepareParts,
  splitNameParts,
  type NamePart,
  type NameParts,
  type PartsAlignment,
  type PreparedParts,
} from './name-parts.js';
