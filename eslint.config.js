// ESLint flat config: typescript-eslint's type-checked rules plus the import
// boundaries of STYLE.md ("Pure core, thin adapters") and the module layering
// (eslint-plugin-boundaries, see layering.config.js).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { layering } from './layering.config.js';

/** Libraries that do I/O or wrap heavy native code: adapters, repositories and wiring only. */
const HEAVY_LIBRARIES = ['sharp', 'exiftool-vendored', 'kysely', 'pg', 'better-sqlite3'];
/** Node built-ins that touch the outside world; the pure modules never import them. */
const IO_BUILTINS = ['fs', 'fs/promises', 'child_process', 'net', 'http', 'https'];

// Anchored regexes rather than gitignore-style groups, so that a relative path
// such as '../http/index.js' is not mistaken for the `http` built-in.
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const HEAVY_REGEX = `^(${HEAVY_LIBRARIES.map(escape).join('|')})(/.*)?$`;
const IO_REGEX = `^(node:)?(${IO_BUILTINS.map(escape).join('|')})$`;

const heavyOnlyInAdapters = {
  regex: HEAVY_REGEX,
  message:
    'Only *.adapter.ts, *.repository.ts, src/app.ts, src/cli/** and src/db/** may import ' +
    'sharp, exiftool-vendored, kysely, pg or better-sqlite3 (STYLE.md: wrap the heavy libraries once).',
};

const pureMessage =
  'src/core, src/stats and src/verify are pure: no file system, processes, network or ' +
  'database here, so an outsider can audit them (STYLE.md). Take data in, return data out.';
const pureModules = [
  { regex: HEAVY_REGEX, message: pureMessage },
  { regex: IO_REGEX, message: pureMessage },
];

export default defineConfig(
  {
    ignores: ['dist/', 'bench/.corpus/', 'web/dist/', 'coverage/'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  // Import boundaries. In flat config the last matching block sets a rule's
  // options outright, so the order below is: general rule, exemptions, pure modules.
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [heavyOnlyInAdapters] }] },
  },
  {
    files: [
      'src/**/*.adapter.ts',
      'src/**/*.repository.ts',
      'src/app.ts',
      'src/cli/**',
      'src/db/**',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/core/**', 'src/stats/**', 'src/verify/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: pureModules }] },
  },
  // verify/'s only I/O: the adapters that open a bag (a directory or a zip) behind the pure
  // BagSource port. Everything else in verify/ stays pure.
  {
    files: ['src/verify/**/*.adapter.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [heavyOnlyInAdapters] }] },
  },
  ...layering,
);
