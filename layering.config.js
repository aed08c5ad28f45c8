// The module layering of STYLE.md, enforced with eslint-plugin-boundaries. The four rules
// below are policies of one ESLint rule, boundaries/dependencies; each message says which.
//
//   1. Entry points. A module (a folder under src/) is imported from outside only through an
//      index.ts (its own or one of its sub-folders') or one of its services (*.service.ts), the
//      operations cli/ and http/ call. Services are not re-exported from index.ts, so that a
//      command loads only the services it calls (`custody key` must not load sharp). Adapters
//      and repositories are importable too, and rule 3 says by whom.
//   2. No cycles between modules. The modules sit in MODULE_LAYERS, lowest first, and a module
//      imports only modules of a lower layer. A cycle would need an import from a lower layer
//      to a higher one, which is refused. To add such an edge, move the shared type down to
//      where it belongs instead.
//   3. Direction: cli/ and http/ -> services -> ports <- adapters.
//      Nothing under a module imports cli/ or http/. A service never imports an adapter or a
//      repository as a value (a type, the port, is fine): the composition root builds it.
//      Across modules, only src/app.ts, cli/, http/ and other adapters import adapters.
//   4. Only cli/, http/ and the composition root (src/app.ts) import src/app.ts.
//
// Rules 3 and 4 are ratchets today: the files that break them are listed below, by name, and
// only those are spared (a file on the rule-3 list is spared both of rule 3's policies). Any
// other file that breaks them fails `npm run lint`. Take a file off its list when it stops
// breaking the rule (the test checks that each listed file still does); never add one.
// test/medium/layering-lint.test.ts plants a violation of each rule and checks that it is
// reported.
import boundaries from 'eslint-plugin-boundaries';

/** The modules under src/, lowest layer first. Modules of one layer do not import each other. */
export const MODULE_LAYERS = [
  ['core'],
  ['config', 'stats', 'store', 'db'],
  ['ledger'],
  ['analysis'],
  ['archive', 'catalogue', 'jobs'],
  ['ingest', 'accounts'],
  // Above accounts: the examination and sampling services enforce the permission matrix (requireActing).
  ['examination'],
  ['integrity', 'demo', 'identification'],
  ['reports', 'verify'],
];

/**
 * Rule 4's ratchet (0 files): services, and the helpers they hand it to, that still take the
 * whole `Archive` handle (a type import of src/app.ts). Each goes when its service takes the
 * ports it uses plus a request context {actor, clock, newId} (issue 12, "Architecture first").
 */
export const APP_IMPORT_RATCHET = [];

/**
 * Rule 3's ratchet (6 files): services that still build or call an adapter themselves, of
 * their own module or another. Each goes when the composition root hands it in through a port.
 */
export const SERVICE_ADAPTER_RATCHET = [
  'src/analysis/image/image-analysis.service.ts',
  'src/archive/key-rewrap.service.ts',
  'src/archive/purge.service.ts',
  'src/ingest/ingest.service.ts',
  'src/integrity/archive-verify.service.ts',
  'src/reports/export/export.service.ts',
];

const ADAPTER_FILES = ['**/*.adapter.ts', '**/*.repository.ts'];
const SERVICE_FILES = '**/*.service.ts';

const elements = [
  { type: 'entry', pattern: 'src/{cli,http}', capture: ['entry'] },
  { type: 'module', pattern: 'src/*', capture: ['module'] },
];

const files = [
  { category: 'composition-root', pattern: 'src/app.ts' },
  { category: 'adapter', pattern: ADAPTER_FILES },
  { category: 'service', pattern: SERVICE_FILES },
];

const moduleIs = (names) => ({ element: { type: 'module', captured: { module: names } } });

const ALL_MODULES = MODULE_LAYERS.flat();

const entryPointMessage =
  "Entry point: import another module only through its index.ts (or a sub-folder's) or one of " +
  'its services; add what you need to that index.ts (scripts/entry-point-imports.mjs does it).';

/** Rule 1: past another module's index.ts only to its services and adapters (rule 3 says who may). */
const entryPointPolicies = [
  ...ALL_MODULES.map((name) => ({
    from: moduleIs(name),
    disallow: { to: moduleIs(ALL_MODULES.filter((other) => other !== name)) },
    message: entryPointMessage,
  })),
  {
    from: [{ element: { type: 'entry' } }, { file: { categories: 'composition-root' } }],
    disallow: { to: { element: { type: 'module' } } },
    message: entryPointMessage,
  },
  {
    allow: {
      to: {
        element: {
          type: 'module',
          fileInternalPath: ['**/index.ts', SERVICE_FILES, ...ADAPTER_FILES],
        },
      },
    },
  },
];

/** Rule 2: each module may not import a module of its own layer or of a higher one. */
const layerPolicies = MODULE_LAYERS.flatMap((layer, rank) => {
  const notBelow = MODULE_LAYERS.slice(rank).flat();
  return layer.map((name) => ({
    from: moduleIs(name),
    disallow: { to: moduleIs(notBelow.filter((other) => other !== name)) },
    message:
      `Module cycle risk: ${name}/ may import only modules of a lower layer (MODULE_LAYERS in ` +
      `layering.config.js). Move the shared type down to where it belongs instead.`,
  }));
});

const noEntryFromModules = {
  from: { element: { type: 'module' } },
  disallow: { to: { element: { type: 'entry' } } },
  message: 'Direction: cli/ and http/ call the modules, never the other way round.',
};

const appOnlyFromEntries = {
  from: { element: { type: 'module' } },
  disallow: { to: { file: { categories: 'composition-root' } } },
  message:
    'Only cli/, http/ and the composition root import src/app.ts. A service takes the ports it ' +
    'uses plus a request context, not the Archive handle.',
};

const servicesNeverImportAdapters = {
  from: { file: { categories: 'service' } },
  disallow: {
    to: { file: { categories: 'adapter' } },
    dependency: { kind: 'value' },
  },
  message:
    'Direction: a service gets its adapters through its ports (types), built by the ' +
    'composition root (src/app.ts); it never imports an adapter or a repository as a value.',
};

const foreignAdapterMessage =
  "Direction: another module's adapter is imported only by src/app.ts, cli/, http/ and other " +
  'adapters; services receive it through a port.';

/** Rule 3, across modules: another module's adapter only from adapters (cli/ and app.ts are not modules). */
const foreignAdapterPolicies = [
  ...ALL_MODULES.map((name) => ({
    from: moduleIs(name),
    disallow: {
      to: {
        ...moduleIs(ALL_MODULES.filter((other) => other !== name)),
        file: { categories: 'adapter' },
      },
      dependency: { kind: 'value' },
    },
    message: foreignAdapterMessage,
  })),
  {
    from: { file: { categories: 'adapter' } },
    allow: { to: { file: { categories: 'adapter' } } },
  },
];

/** The options of boundaries/dependencies, leaving out the policies a ratcheted file is spared. */
function dependencyOptions({ app = true, serviceAdapters = true } = {}) {
  return {
    default: 'allow',
    checkInternals: true, // a service importing its own module's adapter is still refused
    policies: [
      // Order matters: a later matching policy overrides an earlier one.
      ...entryPointPolicies,
      ...(serviceAdapters ? foreignAdapterPolicies : []),
      ...layerPolicies,
      noEntryFromModules,
      ...(app ? [appOnlyFromEntries] : []),
      ...(serviceAdapters ? [servicesNeverImportAdapters] : []),
    ],
  };
}

/** One block per ratcheted file (the last matching block sets a rule's options outright). */
const ratchetBlocks = [...new Set([...APP_IMPORT_RATCHET, ...SERVICE_ADAPTER_RATCHET])]
  .sort()
  .map((file) => ({
    files: [file],
    rules: {
      'boundaries/dependencies': [
        'error',
        dependencyOptions({
          app: !APP_IMPORT_RATCHET.includes(file),
          serviceAdapters: !SERVICE_ADAPTER_RATCHET.includes(file),
        }),
      ],
    },
  }));

export const layering = [
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': elements,
      'boundaries/files': files,
      'import/resolver': { typescript: { project: 'tsconfig.json' }, node: true },
    },
    rules: {
      'boundaries/dependencies': ['error', dependencyOptions()],
    },
  },
  ...ratchetBlocks,
];
