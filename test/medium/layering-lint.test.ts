// The module layering (layering.config.js) catches what it claims to catch: each rule is shown
// a planted violation, linted as if it were a file under src/, and must report it under its
// rule id; the same import written the allowed way must lint clean, so that a rule that
// reports everything cannot pass either. Then representative files of src/ (every module's entry
// point, the composition root, the CLI, both ratchets) must satisfy the layering (the whole tree
// is `npm run lint`'s job, run by CI right after the tests), and
// each ratchet may list only files that still break their rule.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const RULE = 'boundaries/dependencies';

interface LayeringConfig {
  MODULE_LAYERS: string[][];
  APP_IMPORT_RATCHET: string[];
  SERVICE_ADAPTER_RATCHET: string[];
}

// Only the layering rules, and without type information: a planted file does not exist on
// disk, so the type-checked parser could not open it. The boundaries rules need only paths.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: false } },
  },
  ruleFilter: ({ ruleId }) => ruleId.startsWith('boundaries/'),
});

/** Files with imports across many modules, each allowed by one rule or ratchet (see their use). */
const REPRESENTATIVE = [
  'src/*/index.ts', // every module's entry point: imports down the layers only
  'src/app.ts', // the composition root: imports adapters of every module
  'src/cli/main.ts',
  'src/cli/ingest.command.ts', // cli/ imports src/app.ts and services
  'src/cli/export.command.ts',
  'src/ingest/ingest.service.ts', // on the service-adapter ratchet
  'src/integrity/archive-verify.service.ts', // on both ratchets
  'src/reports/export/export.service.ts', // on the app-import ratchet, top layer
  'src/examination/blind/examination.service.ts',
  'src/ledger/ledger.service.ts',
  'src/catalogue/sources/identity-crypto.ts',
];

function moduleEntryPoints(): string[] {
  return readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(ROOT, 'src', d.name, 'index.ts')))
    .map((d) => d.name);
}

/** The layering problems of `text` linted as the file `filePath` (relative to the repository). */
async function layeringProblems(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, filePath) });
  if (result === undefined) throw new Error(`ESLint returned no result for ${filePath}`);
  return result.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

describe('the module layering (layering.config.js)', () => {
  let config: LayeringConfig;

  beforeAll(async () => {
    // A computed specifier: the config is plain JavaScript, with no types for tsc to resolve.
    config = (await import(pathToFileURL(join(ROOT, 'layering.config.js')).href)) as LayeringConfig;
  });

  it("refuses a deep import past another module's entry point", async () => {
    const deep =
      "import { LedgerError } from '../ledger/errors.js';\nexport const e = LedgerError;\n";
    const viaIndex =
      "import { LedgerError } from '../ledger/index.js';\nexport const e = LedgerError;\n";
    const problems = await layeringProblems('src/reports/planted.ts', deep);
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${RULE}: Entry point:`))]);
    expect(await layeringProblems('src/reports/planted.ts', viaIndex)).toEqual([]);
    // A service is imported by its own file, so that a command loads only what it calls.
    const service =
      "import { Ledger } from '../ledger/ledger.service.js';\nexport const l = Ledger;\n";
    expect(await layeringProblems('src/reports/planted.ts', service)).toEqual([]);
  });

  it('refuses an import that would close a cycle between modules (db -> ledger)', async () => {
    // ledger/ imports db/ (its projection writes db's Mutation), so db/ importing ledger/ is
    // the ledger <-> db cycle that was removed.
    const text =
      "import { projectEntry } from '../ledger/index.js';\nexport const p = projectEntry;\n";
    const problems = await layeringProblems('src/db/planted.ts', text);
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^${RULE}: Module cycle risk: db/ may import only`)),
    ]);
    // The edge the layering allows, the other way round, is clean.
    const down = "import { INDEX_TABLES } from '../db/index.js';\nexport const t = INDEX_TABLES;\n";
    expect(await layeringProblems('src/ledger/planted.ts', down)).toEqual([]);
  });

  it('refuses a service that imports an adapter, its own module or another', async () => {
    const own = "import { walkRoots } from './walk.adapter.js';\nexport const w = walkRoots;\n";
    const foreign =
      "import { FsStore } from '../store/fs-store.adapter.js';\nexport const s = FsStore;\n";
    const direction = new RegExp(`^${RULE}: Direction: a service gets its adapters through`);
    expect(await layeringProblems('src/ingest/planted.service.ts', own)).toEqual([
      expect.stringMatching(direction),
    ]);
    expect(await layeringProblems('src/catalogue/planted.service.ts', foreign)).toEqual([
      expect.stringMatching(direction),
    ]);
    // The port, a type, is what a service may take.
    const port =
      "import type { FsStore } from '../store/fs-store.adapter.js';\nexport type S = FsStore;\n";
    expect(await layeringProblems('src/catalogue/planted.service.ts', port)).toEqual([]);
  });

  it("refuses another module's adapter outside adapters, cli/ and the composition root", async () => {
    const text =
      "import { LedgerLock } from '../ledger/ledger-lock.adapter.js';\nexport const l = LedgerLock;\n";
    expect(await layeringProblems('src/examination/planted.ts', text)).toEqual([
      expect.stringMatching(new RegExp(`^${RULE}: Direction: another module's adapter`)),
    ]);
    expect(await layeringProblems('src/cli/planted.command.ts', text)).toEqual([]);
  });

  it('refuses a module that imports cli/', async () => {
    const text = "import { runCli } from '../cli/main.js';\nexport const r = runCli;\n";
    expect(await layeringProblems('src/catalogue/planted.ts', text)).toEqual([
      expect.stringMatching(new RegExp(`^${RULE}: Direction: cli/ and http/ call the modules`)),
    ]);
  });

  it('refuses a new file under a module that imports src/app.ts', async () => {
    const text = "import type { Archive } from '../app.js';\nexport type A = Archive;\n";
    expect(await layeringProblems('src/catalogue/planted.service.ts', text)).toEqual([
      expect.stringMatching(new RegExp(`^${RULE}: Only cli/, http/ and the composition root`)),
    ]);
    expect(await layeringProblems('src/cli/planted.command.ts', text)).toEqual([]);
  });

  it('holds on representative files of src/ as they are', async () => {
    // The whole of src/ is linted by `npm run lint` (which CI runs after the tests, with these
    // same rules); here a sample that crosses every layer and every rule's allowed edges: each
    // module's entry point, the composition root, the CLI and HTTP entry points, and files on
    // both ratchets. A broken layering config (a module out of place, a rule that reports what
    // it should allow, a ratchet that no longer spares) fails on these as it would on the tree.
    const results = await eslint.lintFiles(REPRESENTATIVE);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(ROOT.length + 1)}:${m.line} ${m.ruleId}`),
    );
    expect(problems).toEqual([]);
    // It did lint them: every module's index.ts, plus the files named below.
    expect(results.length).toBe(REPRESENTATIVE.length - 1 + moduleEntryPoints().length);
  });

  it('lists in each ratchet only files that exist and still break its rule', () => {
    const importsApp = /from '(\.\.\/)+app\.js'/;
    for (const file of config.APP_IMPORT_RATCHET) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toMatch(importsApp);
    }
    const importsAdapter = /^import (?!type )[^;]*from '[^']*\.(adapter|repository)\.js'/m;
    for (const file of config.SERVICE_ADAPTER_RATCHET) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toMatch(importsAdapter);
    }
  });

  it('places every folder under src/ in exactly one layer, or among the entry layers', () => {
    const placed = config.MODULE_LAYERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    const entries = ['cli', 'http'];
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.filter((f) => !placed.includes(f) && !entries.includes(f))).toEqual([]);
  });
});
