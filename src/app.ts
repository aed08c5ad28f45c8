import { createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { archiveLayout, type ArchiveManifest, ArchiveError } from './archive/index.js';
import { createSigningKey, loadSigningKey } from './archive/signing-key.adapter.js';
import { assertNotServed } from './archive/served-marker.adapter.js';
import { openExaminationKek, type ExaminationKek } from './archive/examination-kek.adapter.js';
import { createReportKek, openReportKek } from './archive/report-kek.adapter.js';
import { assertSigningKeyMatches, readManifest, readSmall } from './archive/signing-key-record.adapter.js';
import { ConfigError, type Config } from './config/index.js';
import type { AccountsPorts, Role } from './accounts/index.js';
import type { CandidatePorts, PmPorts, SubjectLinkPorts } from './identification/index.js';
import { ReportKeyFiles } from './identification/reports/report-keys.adapter.js';
import { openReportKeys } from './identification/reports/report-kek.service.js';
import type { ReportKeys } from './identification/index.js';
import type { LinkPorts } from './identification/reports/link.service.js';
import { linkRecordsFor } from './identification/linkage/index.js';
import type { IdentificationBagArchive } from './reports/export/identification-bag.service.js';
import type { BlindPorts } from './examination/blind/index.js';
import {
  createEd25519Signer,
  createEd25519Verifier,
  formatVerifierKey,
  createUlidFactory,
  toHex,
  hint,
} from './core/index.js';
import { ArchiveIndexRepository } from './db/archive-index.repository.js';
import { ExaminationRepository, type CaseLinkOpener } from './db/examination.repository.js';
import {
  openDatabase,
  openIndex,
  type DatabaseTarget,
  type IndexPolicy,
  type IndexProblem,
} from './db/connection.adapter.js';
import { DbError, indexMissingError, type Database } from './db/index.js';
import { acquirePgAdvisoryLock } from './ledger/pg-advisory-lock.adapter.js';
import {
  deriveIntentKey,
  type EntryDraft,
  LedgerError,
  projectEntry,
  latestSignedCheckpoint,
  COMMAND_CADENCE,
  LedgerWriter,
  type CheckpointCadence,
  type Ticker,
} from './ledger/index.js';
import { BatchIntentSlots } from './ledger/batch-intent.adapter.js';
import { CheckpointFiles } from './ledger/checkpoint-files.adapter.js';
import { LeafIndex } from './ledger/leaf-index.adapter.js';
import { LedgerFile } from './ledger/ledger-file.adapter.js';
import { LedgerLock } from './ledger/ledger-lock.adapter.js';
import {
  loadLedger,
  type Ledger,
  type LedgerCrashPoint,
  type StoredEntry,
} from './ledger/ledger.service.js';
import { FsObjectStore } from './store/fs-store.adapter.js';
import { JobRepository } from './jobs/job.repository.js';

export type CrashPoint =
  | 'object-written'
  | 'object-renamed'
  | 'ledger-appended'
  | 'checkpoint-signing'
  | 'examination-submitted'
  | LedgerCrashPoint;

/** An open archive: the composition root hands these parts to the services. */
export interface Archive {
  readonly config: Config;
  readonly manifest: ArchiveManifest;
  readonly ledger: Ledger;
  readonly store: FsObjectStore;
  readonly index: ArchiveIndexRepository;
  readonly jobs: JobRepository;
  readonly examinations: ExaminationRepository;
  /**
   * Write mode only: the AES-256-GCM key that seals examiners' answers until the reveal, derived
   * (HKDF-SHA256) from the signing key, so whoever can sign for the archive can unseal and no one
   * else can, and the sealed answers can live in the ledger itself.
   */
  readonly sealingKey: Buffer | null;
  /**
   * Write mode only (null otherwise): the examination key-encryption key, random and under the key
   * passphrase (archive/examination-kek.adapter.ts), made on first use. It wraps each plan's
   * answer key; plans assigned before it keep `sealingKey` above.
   */
  examinationKek(): Promise<ExaminationKek | null>;
  /**
   * The report KEK (archive/report-kek.adapter.ts), opened with the report passphrase, not the
   * archive's: rejects MISSING_REPORT_KEK_LOCKED without it. Made (and old key files rewrapped
   * under it) on first use in write mode (identification/reports/report-kek.service.ts).
   */
  reportKeys(): Promise<ReportKeys>;
  readonly publicKey: KeyObject;
  readonly verifierKey: string;
  readonly newId: () => string;
  readonly crash: (point: CrashPoint) => void;
  /** What opening found and let pass, for the command to print (an interrupted run's intent). */
  readonly warnings: readonly string[];
  /**
   * The tree size this archive is viewed at. Normally the whole ledger; with `openArchive(…,
   * { at: N })` the index is a snapshot rebuilt in memory from the first N entries, so every
   * query answers as it would have at checkpoint N (`--at N`).
   */
  readonly treeSize: number;
  /** Opened with `index: 'tolerate' | 'rebuild'`: what was wrong with the live index (missing, damaged). */
  readonly indexProblem: IndexProblem | null;
  /** Objects durable → ledger append (fsync) → index transaction. */
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
  /** Brings the index up to the ledger (after an interrupted run). Returns entries applied. */
  syncIndex(): Promise<number>;
  /** Resolves once the writer's queued commits and signatures (the timer's too) have finished. */
  writerIdle(): Promise<void>;
  /** Signs a checkpoint now for everything appended so far (a read-only archive: nothing). */
  signNow(): Promise<void>;
  /** Signs a checkpoint if this session appended, releases the lock, closes everything. */
  close(): Promise<void>;
}

export async function initArchive(
  config: Config,
  opts: { origin?: string } = {},
): Promise<{ manifest: ArchiveManifest; verifierKey: string; encrypted: boolean }> {
  const layout = archiveLayout(config.archiveDir);
  if (await exists(layout.manifest)) {
    throw new ArchiveError('ARCHIVE_EXISTS', `an archive already exists at ${config.archiveDir}`);
  }
  const id = createUlidFactory()().toLowerCase();
  const manifest: ArchiveManifest = {
    format: 'custody-archive',
    version: 1,
    id,
    origin: opts.origin ?? `custody.invalid/archive/${id}`,
    database: config.databaseUrl === null ? 'sqlite' : 'postgres',
    created: new Date().toISOString(),
  };
  await mkdir(config.archiveDir, { recursive: true });
  await FsObjectStore.create(layout.objects);
  await mkdir(layout.checkpoints, { recursive: true });
  await LedgerFile.create(layout.ledger);
  const publicKey = await createSigningKey(layout.privateKey, config.keyPassphrase);
  // The report KEK, under its own passphrase (or none in an archive without any); an encrypted
  // archive given no report passphrase gets it when one is first given.
  if (config.reportPassphrase !== null || config.keyPassphrase === null) await makeReportKek(config, id);
  const verifierKey = formatVerifierKey(manifest.origin, publicKey);
  await writeFile(layout.publicKey, `${verifierKey}\n`, { mode: 0o644 });
  const db = await openDatabase(databaseTarget(config, manifest));
  await db.destroy();
  await writeFile(layout.manifest, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  const archive = await openArchive(config, 'write', 'init');
  try {
    await archive.commit([
      {
        actor: config.actor,
        type: 'creation',
        items: [],
        objects: [],
        details: {
          archive: id,
          origin: manifest.origin,
          verifier_key: verifierKey,
          format_version: 1,
        },
      },
    ]);
  } finally {
    await archive.close();
  }
  return { manifest, verifierKey, encrypted: config.keyPassphrase !== null };
}

/**
 * Opens an archive. 'write' takes the writer lock and the signing key, and first brings the
 * index up to the ledger. 'read' needs neither; `lock` makes a reader wait for writers to
 * finish and keeps them out meanwhile (verification wants a still archive).
 */
export async function openArchive(
  config: Config,
  mode: 'read' | 'write',
  command: string,
  opts: {
    lock?: boolean;
    skipIndexSync?: boolean;
    at?: number | 'signed';
    index?: IndexPolicy;
    /**
     * 'published': cases of a plan assigned with sealed ids are linked to their subjects only once
     * the plan's close entry published the links (an export: its bag must not link them before).
     * By default the examination KEK, when it opens, links them before the close too.
     */
    caseLinks?: 'published';
    allowUnauthenticatedTail?: boolean;
    /** When a write-mode archive signs while open (default: a command's; the server passes SERVICE_CADENCE). */
    writerCadence?: CheckpointCadence;
    /** The writer's clock and ticker for its time cadence (tests set them by hand; no timing in tests). */
    writerTime?: { clock: () => number; ticker: Ticker };
  } = {},
): Promise<Archive> {
  if (opts.at !== undefined && mode !== 'read')
    throw new Error('an archive viewed at a past tree size is read-only');
  const layout = archiveLayout(config.archiveDir);
  const manifest = await readManifest(layout.manifest, config.archiveDir);
  const verifierKey = await readVerifierKeyFile(layout.publicKey);
  // A served archive has one writer, the server: refuse at once, naming it, rather than wait for its lock.
  if (mode === 'write' || opts.lock === true) await assertNotServed(layout.served, command);
  const lock =
    mode === 'write' || opts.lock === true
      ? await LedgerLock.acquire(
          { ledger: layout.ledger, holder: layout.lock },
          {
            timeoutMs: config.lockTimeoutMs,
            command,
            kind: mode === 'write' ? 'exclusive' : 'shared',
          },
        )
      : null;
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const target = databaseTarget(config, manifest);
    if (lock !== null && target.kind === 'postgres') {
      const pgLock = await acquirePgAdvisoryLock(target.url, manifest.id, config.lockTimeoutMs);
      cleanups.push(() => pgLock.release());
    }
    const crash = crashPoints(config.crashAt);
    let privateKey: KeyObject | null = null;
    if (mode === 'write')
      privateKey = await loadSigningKey(layout.privateKey, config.keyPassphrase, config.warn);
    if (privateKey !== null)
      await assertSigningKeyMatches(layout, privateKey, { allowEmptyLedger: command === 'init' });
    const publicKey =
      privateKey !== null ? createPublicKey(privateKey) : publicKeyFromVerifierKey(verifierKey);
    const checkpoints = new CheckpointFiles(layout.checkpoints, () => crash('checkpoint-signing'));
    const ledger = await loadLedger(
      (onLine, beforeScan) => LedgerFile.open(layout.ledger, mode, onLine, beforeScan),
      {
        checkpoints,
        origin: manifest.origin,
        clock: Date.now,
        signer: privateKey === null ? null : createEd25519Signer(manifest.origin, privateKey),
        verifier: createEd25519Verifier(manifest.origin, publicKey),
        leaves: LeafIndex.forLedger(layout.ledger),
      },
      privateKey === null
        ? null
        : {
            verifier: createEd25519Verifier(manifest.origin, publicKey),
            intents: BatchIntentSlots.forLedger(layout.ledger),
            intentKey: deriveIntentKey(privateKey, manifest.id),
            published:
              config.publishCheckpointsDir === null
                ? null
                : new CheckpointFiles(config.publishCheckpointsDir),
            crash,
            allowUnauthenticatedTail: opts.allowUnauthenticatedTail === true,
          },
    );
    cleanups.push(() => ledger.close());
    // The archive's writer, for as long as it is open: the lock and the ledger stay with the archive's cleanup.
    const writer =
      mode === 'write'
        ? new LedgerWriter({
            ledger,
            lock: null,
            clock: opts.writerTime?.clock ?? Date.now,
            cadence: opts.writerCadence ?? COMMAND_CADENCE,
            ...(opts.writerTime ? { ticker: opts.writerTime.ticker } : {}),
          })
        : null;
    // 'signed': the latest checkpoint whose signature and root verify, never the live index.
    const at =
      opts.at === 'signed'
        ? await latestSignedCheckpoint({ ledger, verifierKey, origin: manifest.origin })
        : opts.at;
    if (at === null) {
      throw new ArchiveError(
        'ARCHIVE_NOT_SIGNED',
        'no stored checkpoint verifies with the archive key and the ledger',
        { details: hint({ remedy: ['verify'] }) },
      );
    }
    if (at !== undefined && (!Number.isSafeInteger(at) || at < 1 || at > ledger.size)) {
      throw new ArchiveError(
        'ARCHIVE_TREE_SIZE_INVALID',
        `the ledger has ${ledger.size} entries; give a tree size from 1 to ${ledger.size}`,
        { details: hint({ field: 'at', value: at, remedy: ['list-checkpoints'] }) },
      );
    }
    // A snapshot is the same projection replayed into a private in-memory SQLite index.
    const opened =
      at === undefined
        ? await openIndex(target, opts.index ?? (mode === 'write' ? 'create' : 'require'))
        : { db: await openDatabase({ kind: 'sqlite', file: ':memory:' }), problem: null };
    const db: Kysely<Database> = opened.db;
    cleanups.push(() => db.destroy());
    const index = new ArchiveIndexRepository(db, {
      soleWriter: mode === 'write',
      // A snapshot, or the in-memory stand-in for a missing index, is SQLite whatever the target.
      dialect: at === undefined && opened.problem === null ? target.kind : 'sqlite',
    });
    // An index that records no entry of a ledger that has some was never built (or was emptied).
    if (
      at === undefined &&
      mode === 'read' &&
      opened.problem === null &&
      (opts.index ?? 'require') === 'require' &&
      ledger.size > 0 &&
      (await index.ledgerSize()) === 0
    ) {
      throw indexMissingError();
    }
    if (at !== undefined) {
      for (let from = 0; from < at; from += 5000) {
        const to = Math.min(at, from + 5000);
        const entries = await ledger.read(from, to);
        await index.applyEntries(
          entries.flatMap((s) => projectEntry(s.entry, toHex(s.leafHash))),
          to,
        );
      }
    }
    const store = new FsObjectStore(layout.objects, {
      afterWrite: () => crash('object-written'),
      afterRename: () => crash('object-renamed'),
    });
    const syncIndex = async (): Promise<number> => {
      const indexed = await index.ledgerSize();
      if (indexed > ledger.size) {
        throw new LedgerError(
          'LEDGER_DB_AHEAD',
          `the index reflects ${indexed} ledger entries but the ledger has ${ledger.size}: the ledger was truncated, or the database belongs to another archive`,
          { details: hint({ remedy: ['verify'] }) },
        );
      }
      for (let from = indexed; from < ledger.size; from += 2000) {
        const to = Math.min(ledger.size, from + 2000);
        const entries = await ledger.read(from, to);
        await index.applyEntries(
          entries.flatMap((s) => projectEntry(s.entry, toHex(s.leafHash))),
          to,
        );
      }
      return ledger.size - indexed;
    };
    if (mode === 'write') {
      if (opts.skipIndexSync !== true) await syncIndex();
      await store.cleanTemp();
      await checkpoints.cleanTemp();
    }
    let kek: Promise<ExaminationKek | null> | undefined;
    // Links a plan's codes to its cases before its close (issue 12, blinded cases): by opening the
    // sealed ids the ledger recorded with the examination KEK (opened, not made, in read mode;
    // none without the passphrase it is encrypted under).
    let readKek: Promise<ExaminationKek | null> | undefined;
    const linkKek = (): Promise<ExaminationKek | null> => {
      if (privateKey !== null) return archive.examinationKek();
      readKek ??= openExaminationKek(config.archiveDir, manifest.id, config.keyPassphrase, false).catch(() => null);
      return readKek;
    };
    const opener: CaseLinkOpener | null = opts.caseLinks === 'published' ? null : caseLinkOpener(linkKek, privateKey !== null);
    let reportKeys: Promise<ReportKeys> | undefined;
    const archive: Archive = {
      config,
      manifest,
      ledger,
      store,
      index,
      jobs: new JobRepository(db),
      examinations: new ExaminationRepository(db, opener),
      sealingKey: privateKey === null ? null : sealingKeyFrom(privateKey, manifest.id),
      examinationKek() {
        if (privateKey === null) return Promise.resolve(null);
        kek ??= openExaminationKek(config.archiveDir, manifest.id, config.keyPassphrase, true);
        return kek;
      },
      reportKeys() {
        const mayCreate = mode === 'write' && (config.reportPassphrase !== null || config.keyPassphrase === null);
        reportKeys ??= openReportKeys({
          open: () => openReportKek(config.archiveDir, manifest.id, config.reportPassphrase),
          create: mayCreate ? () => makeReportKek(config, manifest.id) : null,
          sealingKey: privateKey === null ? null : sealingKeyFrom(privateKey, manifest.id),
          keys: ReportKeyFiles.forArchive(config.archiveDir),
          ...(config.warn === undefined ? {} : { warn: config.warn }),
        }).catch((e: unknown) => {
          reportKeys = undefined;
          throw e;
        });
        return reportKeys;
      },
      publicKey,
      verifierKey,
      newId: createUlidFactory(),
      crash,
      warnings: ledger.warnings,
      indexProblem: opened.problem,
      get treeSize() {
        return at ?? ledger.size;
      },
      async commit(drafts) {
        if (writer === null) throw new Error('archive opened read-only');
        await store.syncDirs();
        const before = ledger.size;
        if (index.writesBesideAppend && (await index.ledgerSize()) === before) {
          // PostgreSQL: the index transaction writes while the entries are appended (its round
          // trips beside the fsyncs, not after them), and commits only once they are durable.
          let staged!: (s: readonly StoredEntry[]) => void;
          const onStaged = new Promise<readonly StoredEntry[]>((r) => (staged = r));
          const appended = writer.commit(drafts, staged).then((s) => {
            crash('ledger-appended');
            return s;
          });
          const indexed = Promise.race([onStaged, appended]).then((s) =>
            s.length === 0
              ? undefined
              : index.applyEntries(
                  s.flatMap((e) => projectEntry(e.entry, toHex(e.leafHash))),
                  before + s.length,
                  { commitAfter: appended },
                ),
          );
          // Both settle before the next batch: a rolled-back transaction is over, not in flight.
          const [a, i] = await Promise.allSettled([appended, indexed]);
          if (a.status === 'rejected') throw a.reason;
          if (i.status === 'rejected') throw i.reason;
          return a.value;
        }
        const stored = await writer.commit(drafts);
        crash('ledger-appended');
        if ((await index.ledgerSize()) === before) {
          await index.applyEntries(
            stored.flatMap((s) => projectEntry(s.entry, toHex(s.leafHash))),
            ledger.size,
          );
        } else {
          await syncIndex(); // the index lagged (opened without catching up): replay in order
        }
        return stored;
      },
      syncIndex,
      async writerIdle() {
        await writer?.idle();
      },
      async signNow() {
        await writer?.checkpoint();
      },
      async close() {
        try {
          // Also covers entries a killed run appended but never signed.
          await writer?.close();
        } finally {
          for (const c of cleanups.reverse()) await c().catch(() => undefined);
          await lock?.release();
        }
      },
    };
    // A case whose answers are all in but never revealed (a killed run) is revealed now.
    // Imported here: readers never reveal, and need not load the examination modules.
    if (mode === 'write' && opts.skipIndexSync !== true)
      await (await import('./examination/blind/index.js')).revealCompletedCases(archive);
    return archive;
  } catch (e) {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await lock?.release();
    throw e;
  }
}

/** Opens a plan's sealed case ids with the case-id key derived from its plan key (unwrapped by the KEK); what does not open stays unlinked. */
/**
 * `strict` (the archive opened for writing): a KEK that does not open a plan's key is a broken
 * seal (another archive's KEK file, say) and is refused (`SEAL_BROKEN`) before anything is
 * written, rather than leaving the plan's cases unlinked, which would name no case the writer
 * could act on. A reader keeps the cases by code only.
 */
function caseLinkOpener(kekOf: () => Promise<ExaminationKek | null>, strict: boolean): CaseLinkOpener {
  const cache = new Map<string, Map<string, string>>();
  return async (sample, sealed) => {
    const known = cache.get(sample.id);
    if (known !== undefined && known.size === sealed.length) return known;
    const kek = await kekOf();
    if (kek === null || sample.plan_key_json === null) return new Map();
    // Imported here: readers of archives without plans need not load the examination modules.
    const { caseIdKey, openCaseId, openPlanKey } = await import('./examination/blind/index.js');
    let idKey: Buffer;
    try {
      idKey = caseIdKey(openPlanKey(kek, sample.id, sample.plan_key_json));
    } catch (e) {
      if (strict) throw e;
      return new Map(); // a plan key this KEK does not open: its cases stay unlinked (and unsealable)
    }
    const links = new Map<string, string>();
    for (const s of sealed) {
      const id = openCaseId(idKey, sample.id, s.code, s.sealed);
      if (id !== null) links.set(s.code, id);
    }
    cache.set(sample.id, links);
    return links;
  };
}

function databaseTarget(config: Config, manifest: ArchiveManifest): DatabaseTarget {
  if (manifest.database === 'postgres') {
    if (config.databaseUrl === null) {
      throw new DbError(
        'DB_CONFIG_MISSING',
        'this archive keeps its index in PostgreSQL: set DATABASE_URL=postgres://…',
      );
    }
    return { kind: 'postgres', url: config.databaseUrl };
  }
  return { kind: 'sqlite', file: archiveLayout(config.archiveDir).sqlite };
}

/** The verifier key copy (bounded: never follows a link, never blocks on a FIFO). */
async function readVerifierKeyFile(path: string): Promise<string> {
  try {
    return (await readSmall(path, 4096)).toString('utf8').trim();
  } catch (e) {
    throw new ArchiveError(
      'ARCHIVE_INVALID',
      `cannot read the verifier key ${path}: ${(e as Error).message}`,
      { cause: e },
    );
  }
}

function publicKeyFromVerifierKey(vkey: string): KeyObject {
  // <name>+<hex id>+<base64(0x01 ‖ 32-byte Ed25519 key)>: wrap the raw key in its SPKI prefix.
  // The name holds no '+', the hex id neither; base64 may, so split at the first two only.
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  const raw = Buffer.from(vkey.slice(second + 1), 'base64').subarray(1);
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]);
  return createPublicKey({ key: spki, format: 'der', type: 'spki' });
}

/** The report KEK, made under the report passphrase; refused when it is the archive's own (it must not open with it). */
function makeReportKek(config: Config, archiveId: string): Promise<ExaminationKek> {
  if (config.reportPassphrase !== null && config.reportPassphrase === config.keyPassphrase)
    throw new ConfigError('CONFIG_INVALID', 'the report passphrase must not be the archive key passphrase: whoever writes to the archive must not be able to read family reports');
  return createReportKek(config.archiveDir, archiveId, config.reportPassphrase);
}

function sealingKeyFrom(privateKey: KeyObject, archiveId: string): Buffer {
  const { d } = privateKey.export({ format: 'jwk' });
  const raw = Buffer.from(d ?? '', 'base64url');
  return Buffer.from(
    hkdfSync(
      'sha256',
      raw,
      Buffer.from(archiveId, 'utf8'),
      'custody sealed examination answers v1',
      32,
    ),
  );
}

function crashPoints(spec: string | null): (point: CrashPoint) => void {
  if (spec === null) return () => undefined;
  const [name, nth] = spec.split(':');
  let remaining = Number(nth ?? '1');
  return (point) => {
    if (point === name && --remaining === 0) process.kill(process.pid, 'SIGKILL');
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The accounts service's ports over an open archive (write mode: names are sealed under its key).
 * `role` is the acting account's: a CLI command, run with file access and the archive key, acts
 * as the administrator; the server passes the signed-in account's role.
 */
export function accountsPorts(archive: Archive, role: Role = 'administrator'): AccountsPorts {
  return {
    actor: archive.config.actor,
    role,
    newId: archive.newId,
    sealingKey: archive.sealingKey,
    listAccounts: () => archive.index.listAccounts(),
    getPasswordHash: (id) => archive.index.getAccountPassword(id),
    setPasswordHash: (id, hash) => archive.index.setAccountPassword(id, hash),
    async commit(details) {
      const [e] = await archive.commit([
        { actor: archive.config.actor, type: 'cataloguing', items: [], objects: [], details },
      ]);
      return e?.entry.seq ?? -1;
    },
  };
}

/** What blindness reads (plans, assignments, submissions, subject ↔ item links), for the CLI and the server alike. */
export function blindPorts(archive: Archive): BlindPorts {
  const ex = archive.examinations;
  return {
    listAccounts: () => archive.index.listAccounts(),
    listSamples: () => ex.listSamples(),
    members: (id) => ex.members(id),
    assignments: (id) => ex.assignments(id),
    submissions: (id) => ex.submissions(id),
    allSubjectItems: () => ex.allSubjectItems(),
  };
}

/**
 * The identification services' ports over an open archive (write mode: the report key is derived
 * from its key). `viewerOrg` is the asking account's organisation on the server, where consent is
 * enforced; null at the CLI, whose user holds the archive key and has no authenticated account.
 */
export function missingPorts(
  archive: Archive,
  viewerOrg: string | null = null,
  actorNames: readonly string[] = [archive.config.actor],
): CandidatePorts & PmPorts & LinkPorts & SubjectLinkPorts {
  return {
    actor: archive.config.actor,
    actorNames,
    subjectItems: (id) => archive.index.subjectItems(id),
    listSubjectEvents: (id) => archive.index.listMissingSubjectEvents(id),
    newId: archive.newId,
    reportKeys: () => archive.reportKeys(),
    viewerOrg,
    keys: ReportKeyFiles.forArchive(archive.config.archiveDir),
    async ledgerDetails(seq) {
      if (!Number.isSafeInteger(seq) || seq < 0 || seq >= archive.ledger.size) return null;
      const [s] = await archive.ledger.read(seq, seq + 1);
      return s?.entry.details ?? null;
    },
    listReports: () => archive.index.listMissingReports(),
    getReport: (id) => archive.index.getMissingReport(id),
    listReads: () => archive.index.listMissingReportReads(),
    listLinkReviews: () => archive.index.listMissingLinkReviews(),
    link: (records, options) => linkRecordsFor(records, options),
    listUnits: () => archive.index.listUnits(),
    listSubjects: () => archive.index.listSubjects(),
    listSubjectPm: () => archive.index.listSubjectPm(),
    getSubject: (id) => archive.index.getSubject(id),
    getSubjectPm: (id) => archive.index.getSubjectPm(id),
    async commit(details) {
      const stored = await archive.commit(
        details.map((d) => ({ actor: archive.config.actor, type: 'cataloguing' as const, items: [], objects: [], details: d })),
      );
      return stored.map((s) => s.entry.seq);
    },
  };
}

/** The archive as `missing export` uses it (reports/export/identification-bag.service.ts). */
export function identificationBagArchive(
  archive: Archive,
  viewerOrg: string | null = null,
  actorNames?: readonly string[],
  writing: <T>(f: () => Promise<T>) => Promise<T> = (f) => f(),
): IdentificationBagArchive {
  return {
    writing,
    missing: missingPorts(archive, viewerOrg, actorNames),
    origin: archive.manifest.origin,
    verifierKey: archive.verifierKey,
    publicKeyPem: archive.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ledger: archive.ledger,
    commit: (drafts) => archive.commit(drafts),
    close: () => archive.close(),
  };
}
