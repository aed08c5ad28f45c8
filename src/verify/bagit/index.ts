// The BagIt validator (RFC 8493): pure validation over the BagSource port, plus the adapters
// that read a bag from a directory or a zip file.
export * from './findings.js';
export * from './source.js';
export { validateBag, type BagitResult } from './validate.js';
export { parseDeclaration, parseTagElements, valuesOf, decodeTagText, type TagElement } from './tag-text.js';
export { checkPath, decodeManifestPath } from './paths.js';
export { parseManifest, manifestName, type Manifest } from './manifest.js';
