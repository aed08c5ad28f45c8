import { createRequire } from 'node:module';

/**
 * kysely, from its CommonJS build. Its ES module build is some 980 files, each resolved and linked
 * by Node's ES module loader, which costs every command that opens an archive about 0.1 s of CPU
 * at start-up; the CommonJS build is the same code of the same package and loads in about half
 * that. The db layer takes kysely's values (classes, `sql`) from here only, so that one copy is
 * ever loaded; types still come from `import type … from 'kysely'`, which is erased.
 */
export const kysely = createRequire(import.meta.url)('kysely') as typeof import('kysely');
