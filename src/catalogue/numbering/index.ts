// Numbering schemes: how the numbers written on bodies and cards are declared, read and
// normalised. README.md in this folder documents the config and every decision.
export { CatalogueError, type CatalogueErrorCode } from './errors.js';
export {
  defineNumberingScheme,
  type FieldConfig,
  type FieldSpec,
  type IntegerFieldConfig,
  type NumberingScheme,
  type NumberingSchemeConfig,
  type Segment,
  type TextFieldConfig,
  type YearFieldConfig,
} from './scheme.js';
export {
  formatCatalogueNumber,
  MAX_NUMBER_LENGTH,
  parseCatalogueNumber,
  type ParsedNumber,
  type Registries,
} from './parse.js';
export { parseWithSchemes } from './match.js';
export { SEPARATOR_CHARACTERS, type DigitSystem, type SeparatorKind } from './text.js';
