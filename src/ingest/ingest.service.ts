import { resolve } from 'node:path';
import { mediaTypeOf, SNIFF_HEAD_BYTES } from './media-type.js';
import type { Config } from '../config/index.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { JobRepository } from '../jobs/job.repository.js';
import type { Ledger } from '../ledger/ledger.service.js';
import type { FsObjectStore } from '../store/fs-store.adapter.js';
import { canonicalize, type JsonValue, CustodyError, hint, sha256, toHex } from '../core/index.js';
import { type EntryDraft, type IngestionExtra, originKey } from '../ledger/index.js';
import { isAnalysable } from '../jobs/index.js';
import {
  checkManifest,
  itemRawName,
  parseSourceManifest,
  rawName,
  type RawName,
  type SourceManifest,
} from './manifest.js';
import {
  emptySummary,
  type IngestReport,
  type IngestSummary,
  type Problem,
  type ProblemCode,
} from './report.js';
import { CopyInPool } from './copy-in.adapter.js';
import { archivePathConflict, IntakeGuard } from './intake-guard.adapter.js';
import { readSmallFile, SourceError } from './source-reader.adapter.js';
import { walkRoots, type FoundFile, type FoundLink } from './walk.adapter.js';
import { expansionLimit, ZIP_EXPANSION, type ExpansionBudget } from './zip-expansion.js';
import { ZipError, ZipReader, type ZipMemberInfo } from './zip-reader.adapter.js';

export type IngestErrorCode =
  | 'INGEST_NO_SUCH_DELIVERY'
  | 'INGEST_BAD_REQUEST'
  /** A path to ingest is the archive folder, or lies inside it. */
  | 'INGEST_ARCHIVE_PATH'
  /** A path to ingest contains the archive folder. */
  | 'INGEST_DELIVERY_CONTAINS_ARCHIVE';
export class IngestError extends CustodyError<IngestErrorCode> {}

export interface IngestRequest {
  paths: string[];
  source: string;
  receivedBy: string | null;
  medium: string | null;
  note: string | null;
  manifestPath: string | null;
  deliveryId: string | null;
  /** Extract ZIPs whatever their expansion (`--allow-zip-expansion`); recorded in the ledger. */
  allowZipExpansion?: boolean;
  onProgress?: (p: { files: number; bytes: number }) => void;
  /** Runs once every refusal that writes nothing has passed, before the delivery is opened (ingest --new-source registers the source here). */
  beforeFirstWrite?: () => Promise<void>;
  /**
   * Items per ingestion commit (256 by default). `ingest --analyze` commits smaller batches, so
   * that the analysis, which takes only objects the ledger already names, starts early.
   */
  commitEvery?: number;
  /**
   * A resumed or continued delivery with at most this many items (default 250,000, about 100 MB)
   * has them read in one query when the run starts; a larger one is looked up file by file.
   */
  knownItemsLimit?: number;
  /** Called after each commit of ingestion entries, once their objects' analysis jobs are queued. */
  onCommitted?: () => void;
}

/** What intake reads and writes: the store, the index's lookups, the job queue, the ledger commit. */
export interface IngestPorts {
  readonly config: Pick<Config, 'actor' | 'archiveDir'>;
  readonly store: Pick<FsObjectStore, 'adopt' | 'openWriter' | 'pathOf' | 'tempPath'>;
  readonly index: Pick<
    ArchiveIndexRepository,
    | 'findItemsByOrigin'
    | 'findOpenDelivery'
    | 'getDelivery'
    | 'getObject'
    | 'itemsOfDeliveryByOrigin'
    | 'listDeliveries'
    | 'listItems'
  >;
  readonly jobs: Pick<JobRepository, 'enqueue'>;
  readonly ledger: Pick<Ledger, 'size' | 'root'>;
  newId(): string;
  /** Objects durable → ledger append → index (Archive.commit). */
  commit(drafts: readonly EntryDraft[]): Promise<unknown>;
}

/** Containers inside containers are opened this deep, no deeper. */
const MAX_CONTAINER_DEPTH = 4;
const BATCH = 256;
const KNOWN_ITEMS_LIMIT = 250_000;
// Files in flight. Intake waits on fsync far more than on the CPU, so more than the 2 cores'
// worth keeps the disk busy (measured on the 2,000-JPEG bench corpus; see the closing note).
const CONCURRENCY = Number(process.env.CUSTODY_INGEST_CONCURRENCY ?? '4');

interface KnownItem {
  id: string;
  sha256: string;
  media_type: string;
}

interface ItemContext {
  delivery: string;
  actor: string;
}

/**
 * Intake: walk → stream each file into the store (hashing on the way) → one ledger entry per
 * item → index. Resumable and idempotent on (delivery, original path, SHA-256).
 */
export class IngestService {
  private readonly summary: IngestSummary = emptySummary();
  private readonly problems: Problem[] = [];
  private readonly batch: EntryDraft[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Top-level files of this run: relative path as raw bytes → SHA-256 (for the manifest check). */
  private readonly received = new Map<RawName, string>();
  private readonly seenOrigins = new Set<string>();
  /** The delivery's items when this run began, by origin; null: ask the index file by file. */
  private known: Map<string, KnownItem[]> | null = null;
  private readonly notes: string[] = [];
  private readonly toAnalyse = new Map<string, string>();
  /** Plain files are read, hashed, written and fsynced on worker threads during `run`; files already
   * received are read and hashed there too. */
  private copyInPool: CopyInPool | null = null;
  private allowZipExpansion = false;
  private commitEvery = BATCH;
  private onCommitted: (() => void) | undefined;

  constructor(private readonly archive: IngestPorts) {}

  private get copyIn(): CopyInPool {
    this.copyInPool ??= new CopyInPool();
    return this.copyInPool;
  }

  async run(req: IngestRequest): Promise<IngestReport> {
    if (req.paths.length === 0)
      throw new IngestError('INGEST_BAD_REQUEST', 'name at least one file or folder to ingest');
    if (req.source.trim() === '')
      throw new IngestError('INGEST_BAD_REQUEST', 'a source codename is required', { details: hint({ field: 'source' }) });
    const rootsAbs = [...new Set(req.paths.map((p) => resolve(p)))].sort();
    // Before anything is written: the archive never ingests itself, nor a folder holding it.
    const guard = await IntakeGuard.forArchive(this.archive.config.archiveDir);
    for (const root of rootsAbs) {
      const conflict = await archivePathConflict(root, guard.archiveDir);
      if (conflict === 'inside')
        throw new IngestError('INGEST_ARCHIVE_PATH', `${root} is the archive folder or inside it: an archive never ingests itself`);
      if (conflict === 'contains')
        throw new IngestError(
          'INGEST_DELIVERY_CONTAINS_ARCHIVE',
          `${root} contains the archive folder (${guard.archiveDir}): name the delivery's own folders instead`,
        );
    }
    this.allowZipExpansion = req.allowZipExpansion === true;
    this.commitEvery = Math.max(1, req.commitEvery ?? BATCH);
    this.onCommitted = req.onCommitted;
    const manifest = req.manifestPath === null ? null : await this.loadManifest(req.manifestPath, guard);
    await req.beforeFirstWrite?.();
    const { delivery, mode } = await this.openDelivery(req, rootsAbs, manifest);
    const ctx: ItemContext = { delivery, actor: this.archive.config.actor };
    // A new delivery holds nothing yet: no file needs a lookup.
    if (mode === 'new') this.known = new Map();
    else {
      const limit = req.knownItemsLimit ?? KNOWN_ITEMS_LIMIT;
      const rows = await this.archive.index.itemsOfDeliveryByOrigin(delivery, limit);
      if (rows !== null) {
        this.known = new Map();
        for (const { origin_key, ...item } of rows) {
          const same = this.known.get(origin_key);
          if (same === undefined) this.known.set(origin_key, [item]);
          else same.push(item);
        }
      }
    }

    const walker = walkRoots(rootsAbs, guard);
    const next = async (): Promise<FoundFile | FoundLink | null> => {
      for (;;) {
        const r = await walker.next();
        if (r.done === true) return null;
        if (r.value.kind !== 'problem') return r.value;
        this.problem(r.value.code, displayPath(r.value.rawPath), r.value.message, null);
      }
    };
    // A fault (store or ledger out of space, database error) stops every worker before the
    // error goes up: the archive is closed and its lock released after this, and nothing may
    // still be writing then. Items whose objects are already stored are committed first, so
    // that the store holds no object the ledger does not name.
    let failed = false;
    let outcomes: PromiseSettledResult<void>[];
    try {
      outcomes = await Promise.allSettled(
        Array.from({ length: CONCURRENCY }, async () => {
          try {
            for (let f = await next(); f !== null; f = failed ? null : await next()) {
              if (f.kind === 'link') await this.ingestLink(f, ctx);
              else await this.ingestFile(f, ctx);
              req.onProgress?.({ files: this.summary.files_seen, bytes: this.summary.bytes_read });
            }
          } catch (e) {
            failed = true;
            throw e;
          }
        }),
      );
    } finally {
      await this.copyInPool?.close();
      this.copyInPool = null;
    }
    const fault = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (fault !== undefined) {
      await this.flush().catch(() => undefined);
      throw fault.reason;
    }
    await this.flush();
    // Analysis is queued, not run: `custody analyze` (or `ingest --analyze`) takes the queue.
    await this.archive.jobs.enqueue(
      [...this.toAnalyse].map(([sha256, mediaType]) => ({
        name: 'analyze-image',
        sha256,
        mediaType,
      })),
    );

    const manifestCheck =
      manifest === null
        ? null
        : checkManifest(
            manifest.parsed,
            manifest.sha256,
            await this.receivedInDelivery(delivery),
            rootsAbs.map((r) => r.split('/').pop() ?? ''),
          );
    const problemsForLedger = this.problems.slice(0, 10_000);
    await this.archive.commit([
      {
        actor: ctx.actor,
        type: 'ingestion end',
        items: [],
        objects: [],
        details: {
          delivery,
          mode,
          summary: this.summary as unknown as JsonValue,
          problems: problemsForLedger as unknown as JsonValue,
          problems_not_listed: this.problems.length - problemsForLedger.length,
          manifest_check: manifestCheck as unknown as JsonValue,
        },
      },
    ]);
    return {
      delivery,
      source: req.source,
      mode,
      notes: this.notes,
      summary: this.summary,
      problems: this.problems,
      manifest: manifestCheck,
      ledger: { size: this.archive.ledger.size, root: toHex(this.archive.ledger.root()) },
    };
  }

  private async loadManifest(path: string, guard: IntakeGuard): Promise<{ parsed: SourceManifest; sha256: string }> {
    const bytes = await readSmallFile(path, guard);
    const parsed = parseSourceManifest(bytes); // bytes, not text: names are compared as bytes
    // The source's manifest is kept as an object too: it is part of what was handed over.
    const w = await this.archive.store.openWriter();
    await w.write(bytes);
    const stored = await w.finish();
    return { parsed, sha256: stored.sha256 };
  }

  private async openDelivery(
    req: IngestRequest,
    roots: string[],
    manifest: { sha256: string } | null,
  ): Promise<{ delivery: string; mode: IngestReport['mode'] }> {
    const { index, config } = this.archive;
    let delivery: string;
    let mode: IngestReport['mode'];
    if (req.deliveryId !== null) {
      const d = await index.getDelivery(req.deliveryId);
      if (d === undefined)
        throw new IngestError(
          'INGEST_NO_SUCH_DELIVERY',
          `no delivery ${req.deliveryId} in this archive`,
        );
      if (d.source !== req.source) {
        throw new IngestError(
          'INGEST_BAD_REQUEST',
          `delivery ${d.id} came from source ${d.source}, not ${req.source}`,
        );
      }
      delivery = d.id;
      mode = 'continued';
    } else {
      const open = await index.findOpenDelivery(req.source, canonicalize(roots));
      delivery = open?.id ?? this.archive.newId();
      mode = open === undefined ? 'new' : 'resumed';
      if (open === undefined) {
        // A finished delivery over the same paths from the same source: this run is a new
        // delivery (the same files again become new items). Say so, in case it was not meant.
        const earlier = (await index.listDeliveries()).filter(
          (d) => d.source === req.source && d.roots_json === canonicalize(roots),
        );
        for (const d of earlier) {
          this.notes.push(
            `delivery ${d.id} already received these paths from ${req.source}; this run opens a new delivery (use --delivery ${d.id} to add to that one instead)`,
          );
        }
      }
    }
    await this.archive.commit([
      {
        actor: config.actor,
        type: 'ingestion start',
        items: [],
        objects: manifest === null ? [] : [manifest.sha256],
        details: {
          delivery,
          continued: mode !== 'new',
          mode,
          source: req.source,
          received_by: req.receivedBy,
          medium: req.medium,
          note: req.note,
          roots,
          manifest: manifest === null ? null : { sha256: manifest.sha256 },
          zip_expansion: {
            allowed: this.allowZipExpansion,
            max_ratio: ZIP_EXPANSION.maxRatio,
            ratio_applies_above_bytes: ZIP_EXPANSION.ratioFloorBytes,
            max_bytes: ZIP_EXPANSION.maxBytes,
          },
        },
      },
    ]);
    return { delivery, mode };
  }

  /** The items this delivery already holds from `origin` (earlier runs; none when it is new). */
  private async receivedFrom(delivery: string, origin: string): Promise<readonly KnownItem[]> {
    if (this.known !== null) return this.known.get(origin) ?? [];
    return this.archive.index.findItemsByOrigin(delivery, origin);
  }

  private async ingestFile(f: FoundFile, ctx: ItemContext): Promise<void> {
    const path = displayPath(f.rawPath);
    const relative = displayPath(f.relativeRaw);
    const rawHex = isUtf8(f.rawPath) ? null : toHex(f.rawPath);
    const origin = originKey(null, rawHex ?? path, null);
    if (this.seenOrigins.has(origin)) return; // overlapping roots name the same file twice
    this.seenOrigins.add(origin);
    this.summary.files_seen++;
    try {
      const existing = await this.receivedFrom(ctx.delivery, origin);
      if (existing.length > 0) {
        const digest = await this.copyIn.hash(f.rawPath, f.identity);
        const match = existing.find((e) => e.sha256 === digest);
        if (match !== undefined) {
          this.summary.already_present++;
          this.received.set(rawName(f.relativeRaw), digest);
          if (isZip(match.media_type)) {
            await this.openContainer(
              this.archive.store.pathOf(digest),
              { id: match.id, relative, isNew: false },
              ctx,
              1,
              null,
            );
          }
          return;
        }
      }
      const tmp = this.archive.store.tempPath();
      const copy = await this.copyIn.copy(f.rawPath, tmp, f.identity);
      const stored = await this.archive.store.adopt(tmp, copy.sha256, copy.size);
      this.countObject(stored.existed, copy.size);
      this.received.set(rawName(f.relativeRaw), stored.sha256);
      const id = this.archive.newId();
      const flags: string[] = [];
      if (rawHex !== null) flags.push('name-not-utf8');
      if (copy.size === 0) {
        flags.push('empty');
        this.problem('INGEST_EMPTY_FILE', path, 'zero-byte file: kept as an item and flagged', id);
      }
      if (copy.changed) {
        flags.push('changed-during-read');
        this.problem(
          'INGEST_CHANGED_WHILE_READ',
          path,
          `the file changed while it was read; the recorded SHA-256 ${stored.sha256} is that of the bytes stored`,
          id,
        );
      }
      const mediaType = await mediaTypeOf(copy.head);
      await this.addItem({
        ctx,
        id,
        sha256: stored.sha256,
        size: stored.size,
        mediaType,
        flags,
        ...topLevelFields(path, rawHex, relative, copy.mtimeMs),
        extra: {},
      });
      this.summary.items_added++;
      if (isZip(mediaType)) {
        await this.openContainer(
          this.archive.store.pathOf(stored.sha256),
          { id, relative, isNew: true },
          ctx,
          1,
          null,
        );
      }
    } catch (e) {
      if (e instanceof SourceError) {
        this.problem(problemCodeOf(e), path, e.message, null);
        return;
      }
      throw e;
    }
  }

  /**
   * A symbolic link is an item of its own kind: its object is the link's target text (the raw
   * bytes readlink(2) gives), its media type `inode/symlink`, and the target is never read.
   */
  private async ingestLink(f: FoundLink, ctx: ItemContext): Promise<void> {
    const path = displayPath(f.rawPath);
    const relative = displayPath(f.relativeRaw);
    const rawHex = isUtf8(f.rawPath) ? null : toHex(f.rawPath);
    const origin = originKey(null, rawHex ?? path, null);
    if (this.seenOrigins.has(origin)) return;
    this.seenOrigins.add(origin);
    this.summary.files_seen++;
    const digest = toHex(sha256(f.target));
    const existing = await this.receivedFrom(ctx.delivery, origin);
    if (existing.some((e) => e.sha256 === digest)) {
      this.summary.already_present++;
      this.received.set(rawName(f.relativeRaw), digest);
      return;
    }
    const w = await this.archive.store.openWriter();
    await w.write(f.target);
    const stored = await w.finish();
    this.countObject(stored.existed, stored.size);
    this.received.set(rawName(f.relativeRaw), stored.sha256);
    const id = this.archive.newId();
    const target = displayPath(f.target);
    const flags = ['symlink'];
    if (rawHex !== null) flags.push('name-not-utf8');
    this.problem(
      'INGEST_SYMLINK_NOT_FOLLOWED',
      path,
      `symbolic link to ${JSON.stringify(target)}: not followed; kept as a link item (its target text, media type ${LINK_MEDIA_TYPE})`,
      id,
    );
    await this.addItem({
      ctx,
      id,
      sha256: stored.sha256,
      size: stored.size,
      mediaType: LINK_MEDIA_TYPE,
      flags,
      ...topLevelFields(path, rawHex, relative, f.mtimeMs),
      extra: { link_target: target, link_target_raw_hex: isUtf8(f.target) ? null : toHex(f.target) },
    });
    this.summary.items_added++;
  }

  private async openContainer(
    objectPath: string,
    parent: { id: string; relative: string; isNew: boolean },
    ctx: ItemContext,
    depth: number,
    outer: ExpansionBudget | null,
  ): Promise<void> {
    this.summary.containers++;
    if (depth > MAX_CONTAINER_DEPTH) {
      this.problem(
        'INGEST_ZIP_TOO_DEEP',
        parent.relative,
        `container nested deeper than ${MAX_CONTAINER_DEPTH}: kept whole, not opened`,
        parent.id,
      );
      return;
    }
    let reader: ZipReader;
    try {
      reader = await ZipReader.open(objectPath);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.problem(
        'INGEST_ZIP_CORRUPT',
        parent.relative,
        `ZIP cannot be opened (${msg}); the container is kept bit for bit as an item`,
        parent.id,
      );
      return;
    }
    try {
      // Limits on what the container may expand to, decided before a member is written: on the
      // sizes it declares, then (declared sizes lie) on the bytes actually inflated.
      const budget = this.allowZipExpansion ? null : (outer ?? { limit: expansionLimit(reader.fileSize), used: 0 });
      const declared = reader.declaredExtractedBytes();
      if (budget !== null && budget.used + declared > budget.limit) {
        this.problem(
          'INGEST_ZIP_EXPANSION_LIMIT',
          parent.relative,
          `its members declare ${declared} bytes from ${reader.fileSize} (${expansionText(declared, reader.fileSize)}), above the limit of ${budget.limit - budget.used} bytes: the container is kept bit for bit as an item and not extracted (ingest --allow-zip-expansion extracts it)`,
          parent.id,
        );
        return;
      }
      for await (const m of reader.members()) {
        if (m.isDirectory) continue;
        await this.ingestMember(reader, m, parent, ctx, depth, budget);
      }
    } catch (e) {
      if (e instanceof ExpansionExceeded) {
        this.problem(
          'INGEST_ZIP_EXPANSION_LIMIT',
          parent.relative,
          `extraction stopped at ${e.used} bytes, above the limit of ${e.limit} bytes (the members inflate to more than they declare); the container is kept bit for bit as an item, the rest not extracted`,
          parent.id,
        );
        return;
      }
      // Store, ledger and database faults met while taking in members go up: reported as a
      // corrupt ZIP they would be swallowed, and a failed ledger batch silently lost.
      if (!(e instanceof ZipError)) throw e;
      this.problem(
        'INGEST_ZIP_CORRUPT',
        parent.relative,
        `ZIP could not be read to the end (${e.message})`,
        parent.id,
      );
    } finally {
      await reader.close();
    }
  }

  private async ingestMember(
    reader: ZipReader,
    m: ZipMemberInfo,
    parent: { id: string; relative: string; isNew: boolean },
    ctx: ItemContext,
    depth: number,
    budget: ExpansionBudget | null,
  ): Promise<void> {
    const relative = `${parent.relative}!/${m.path}`;
    if (m.skipReason !== null) {
      this.problem(
        'INGEST_ZIP_BOMB',
        relative,
        `member not extracted: ${m.skipReason} (the container itself is kept bit for bit)`,
        parent.id,
      );
      return;
    }
    const rawHex = m.pathEncoding === 'utf8' ? null : toHex(m.pathRaw);
    const origin = originKey(parent.id, rawHex ?? m.path, m.index);
    const existing = parent.isNew
      ? []
      : await this.receivedFrom(ctx.delivery, origin);
    const writer = await this.archive.store.openWriter();
    let head: Buffer | null = null;
    let crcOk = true;
    try {
      const read = await reader.openMember(m);
      for await (const chunk of read.stream as AsyncIterable<Buffer>) {
        if (budget !== null) {
          budget.used += chunk.length;
          if (budget.used > budget.limit) {
            read.stream.destroy();
            throw new ExpansionExceeded(budget.used, budget.limit);
          }
        }
        head ??= Buffer.from(chunk.subarray(0, SNIFF_HEAD_BYTES));
        await writer.write(chunk);
      }
      crcOk = (await read.done).crcOk;
    } catch (e) {
      await writer.abort();
      if (e instanceof ExpansionExceeded) throw e;
      // Only the member's own bytes make it corrupt; a store fault (out of space) is not its doing.
      if (!(e instanceof ZipError)) throw e;
      const msg = e.message;
      this.problem(
        'INGEST_ZIP_MEMBER_CORRUPT',
        relative,
        `member could not be extracted (${msg}); the container is kept bit for bit`,
        parent.id,
      );
      return;
    }
    const stored = await writer.finish();
    this.countObject(stored.existed, stored.size);
    const known = existing.find((e) => e.sha256 === stored.sha256);
    const id = known?.id ?? this.archive.newId();
    const mediaType = await mediaTypeOf(head ?? Buffer.alloc(0));
    if (known !== undefined) {
      this.summary.already_present++;
    } else {
      const flags = [...m.flags];
      if (!crcOk) {
        flags.push('crc-mismatch');
        this.problem(
          'INGEST_ZIP_CRC_MISMATCH',
          relative,
          'CRC-32 of the extracted bytes differs from the one in the ZIP; the bytes are kept as extracted',
          id,
        );
      }
      if (m.encrypted)
        this.problem(
          'INGEST_ZIP_ENCRYPTED_MEMBER',
          relative,
          'encrypted member: kept as opaque (still encrypted) bytes',
          id,
        );
      const hostile = m.flags.filter(
        (x) => x === 'zip-slip-path' || x === 'absolute-path' || x === 'nul-in-name',
      );
      if (hostile.length > 0)
        this.problem(
          'INGEST_ZIP_HOSTILE_PATH',
          relative,
          `hostile member path (${hostile.join(', ')}): recorded as written, never used as a path`,
          id,
        );
      if (stored.size === 0) {
        flags.push('empty');
        this.problem(
          'INGEST_EMPTY_FILE',
          relative,
          'zero-byte member: kept as an item and flagged',
          id,
        );
      }
      await this.addItem({
        ctx,
        id,
        sha256: stored.sha256,
        size: stored.size,
        mediaType,
        flags,
        parent: parent.id,
        memberIndex: m.index,
        path: m.path,
        rawHex,
        encoding: m.pathEncoding,
        relative,
        mtime: m.mtimeUtc,
        extra: { zip_dos_time: m.dosTime, zip_crc32: m.crc32, zip_method: m.method },
      });
      this.summary.items_added++;
      this.summary.members_added++;
    }
    if (isZip(mediaType) && !m.encrypted) {
      await this.openContainer(
        this.archive.store.pathOf(stored.sha256),
        { id, relative, isNew: known === undefined },
        ctx,
        depth + 1,
        budget,
      );
    }
  }

  private async addItem(a: {
    ctx: ItemContext;
    id: string;
    sha256: string;
    size: number;
    mediaType: string;
    flags: string[];
    parent: string | null;
    memberIndex: number | null;
    path: string;
    rawHex: string | null;
    encoding: string;
    relative: string;
    mtime: string | null;
    extra: IngestionExtra;
  }): Promise<void> {
    if (isAnalysable(a.mediaType)) this.toAnalyse.set(a.sha256, a.mediaType);
    const known = await this.archive.index.getObject(a.sha256);
    if (known !== undefined && known.withdrawn_seq !== null) {
      a.flags.push('withdrawn-content');
      this.problem(
        'INGEST_WITHDRAWN_CONTENT',
        a.relative,
        `these bytes were withdrawn by entry ${known.withdrawn_seq}; run \`custody purge --withdrawn\` to remove them again`,
        a.id,
      );
    }
    this.batch.push({
      actor: a.ctx.actor,
      type: 'ingestion',
      items: [a.id],
      objects: [a.sha256],
      details: {
        delivery: a.ctx.delivery,
        parent: a.parent,
        member_index: a.memberIndex,
        path: a.path,
        path_raw_hex: a.rawHex,
        path_encoding: a.encoding,
        relative_path: a.relative,
        name: a.path.split(/[\\/]/).pop() ?? a.path,
        size: a.size,
        mtime: a.mtime,
        media_type: a.mediaType,
        flags: [...new Set(a.flags)].sort(),
        ...a.extra,
      },
    });
    if (this.batch.length >= this.commitEvery) await this.flush();
  }

  /**
   * Commits queued entries in order; concurrent callers wait on the same chain. The analysis jobs
   * of the objects just committed are queued at once (the end of the run queues them all again,
   * harmlessly), so that an analysis running beside intake can take them.
   */
  private flush(): Promise<void> {
    const drafts = this.batch.splice(0, this.batch.length);
    this.flushing = this.flushing.then(async () => {
      if (drafts.length === 0) return;
      await this.archive.commit(drafts);
      const jobs = new Map<string, string>();
      for (const d of drafts) {
        const sha256 = d.objects[0];
        const mediaType = this.toAnalyse.get(sha256 ?? '');
        if (sha256 !== undefined && mediaType !== undefined) jobs.set(sha256, mediaType);
      }
      if (jobs.size > 0) {
        await this.archive.jobs.enqueue([...jobs].map(([sha256, mt]) => ({ name: 'analyze-image', sha256, mediaType: mt })));
      }
      this.onCommitted?.();
    });
    return this.flushing;
  }

  private countObject(existed: boolean, size: number): void {
    this.summary.bytes_read += size;
    if (existed) this.summary.objects_shared++;
    else this.summary.objects_added++;
  }

  private problem(code: ProblemCode, path: string, message: string, item: string | null): void {
    this.problems.push({ code, path, message, item });
    this.summary.problems++;
    this.summary.by_code[code] = (this.summary.by_code[code] ?? 0) + 1;
  }

  private async receivedInDelivery(delivery: string): Promise<Map<RawName, string>> {
    const out = new Map<RawName, string>();
    for (const item of await this.archive.index.listItems({ deliveryId: delivery })) {
      if (item.parent_id === null) out.set(itemRawName(item.relative_path, item.path_raw_hex), item.sha256);
    }
    for (const [k, v] of this.received) out.set(k, v);
    return out;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

function isUtf8(b: Buffer): boolean {
  try {
    utf8.decode(b);
    return true;
  } catch {
    return false;
  }
}

/** Display form of a raw file name: UTF-8 where valid, else with U+FFFD (the raw bytes are kept). */
function displayPath(raw: Buffer): string {
  return lenient.decode(raw);
}


function isZip(mediaType: string): boolean {
  return mediaType === 'application/zip';
}

/** What an item that is a symbolic link is filed as (the shared-mime-info name). */
export const LINK_MEDIA_TYPE = 'inode/symlink';

function problemCodeOf(e: SourceError): ProblemCode {
  switch (e.code) {
    case 'SOURCE_VANISHED':
      return 'INGEST_VANISHED';
    case 'SOURCE_REPLACED':
      return 'INGEST_FILE_REPLACED';
    case 'SOURCE_NOT_REGULAR':
      return 'INGEST_NOT_REGULAR_FILE';
    case 'INGEST_ARCHIVE_FILE':
    case 'INGEST_PSEUDO_FILESYSTEM':
    case 'INGEST_FILE_REPLACED':
      return e.code;
    case 'SOURCE_UNREADABLE':
      return 'INGEST_UNREADABLE';
  }
}

/** Thrown out of a member's stream when the container's inflated bytes pass its budget. */
class ExpansionExceeded extends Error {
  constructor(
    readonly used: number,
    readonly limit: number,
  ) {
    super(`expansion limit ${limit} passed`);
  }
}

function expansionText(declared: number, size: number): string {
  return size === 0 ? 'an unbounded ratio' : `${Math.round(declared / size)}×`;
}

/** The fields of an item received from the delivery's folders (not from inside a container). */
function topLevelFields(path: string, rawHex: string | null, relative: string, mtimeMs: number) {
  return {
    parent: null,
    memberIndex: null,
    path,
    rawHex,
    encoding: rawHex === null ? 'utf8' : 'unknown',
    relative,
    mtime: new Date(Math.floor(mtimeMs)).toISOString(),
  } as const;
}
