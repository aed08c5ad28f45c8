import { parseCanonical, hashLeaf, RootAccumulator, toHex, CustodyError } from '../core/index.js';
import { fieldsOf, parseEntry, type LedgerEntry, MemoryIndex, projectEntry } from '../ledger/index.js';
import { ExaminationChecks } from './examination-checks.js';
import type { Finding } from './findings.js';

/** What one pass over the ledger establishes. */
export interface Replay {
  size: number;
  /** Root at every size in `rootSizes` that the replay reached. */
  roots: Map<number, Buffer>;
  referenced: Set<string>;
  withdrawn: Map<string, number>;
  purged: Map<string, number>;
  creationKey: string | null;
  index: MemoryIndex;
  findings: Finding[];
  /** False when the ledger could not be read to the end (the index comparison is skipped). */
  complete: boolean;
}

/**
 * Replays entries in order: checks each is canonical, well-formed and carries seq = index,
 * computes the RFC 9162 root at each requested size, and rebuilds the index in memory.
 */
export class LedgerReplayer {
  private readonly acc = new RootAccumulator();
  readonly state: Replay = {
    size: 0,
    roots: new Map(),
    referenced: new Set(),
    withdrawn: new Map(),
    purged: new Map(),
    creationKey: null,
    index: new MemoryIndex(),
    findings: [],
    complete: true,
  };

  private readonly examination = new ExaminationChecks(this.state.findings, this.state.roots);

  constructor(private readonly rootSizes: ReadonlySet<number>) {}

  /** Feeds the next entry's bytes. Returns false once the ledger is too broken to go on. */
  push(bytes: Buffer): boolean {
    if (!this.state.complete) return false;
    const index = this.acc.size;
    let entry: LedgerEntry;
    try {
      entry = parseEntry(parseCanonical(bytes), index);
      this.state.index.apply(projectEntry(entry, toHex(hashLeaf(bytes))));
    } catch (e) {
      const code = e instanceof CustodyError && e.code === 'LEDGER_SEQ_MISMATCH' ? 'LEDGER_SEQ_MISMATCH' : 'LEDGER_ENTRY_MALFORMED';
      this.state.findings.push({ code, severity: 'error', subject: `entry ${index}`, message: `ledger entry ${index}: ${(e as Error).message}` });
      this.state.complete = false;
      // Keep hashing so that checkpoint roots can still be compared: they will not match.
      this.advance(bytes);
      return false;
    }
    this.collect(entry);
    this.advance(bytes);
    return true;
  }

  /** After a failure, the remaining entries are still hashed for the checkpoint comparison. */
  pushRawOnly(bytes: Buffer): void {
    this.advance(bytes);
  }

  private advance(bytes: Buffer): void {
    this.acc.push(hashLeaf(bytes));
    this.state.size = this.acc.size;
    if (this.rootSizes.has(this.acc.size)) this.state.roots.set(this.acc.size, this.acc.root());
  }

  private collect(entry: LedgerEntry): void {
    switch (entry.type) {
      case 'creation': {
        const key = fieldsOf(entry, 'creation').verifier_key;
        if (typeof key === 'string') this.state.creationKey = key;
        break;
      }
      case 'ingestion':
      case 'ingestion start':
        for (const o of entry.objects) this.state.referenced.add(o);
        break;
      case 'withdrawal':
        for (const o of entry.objects) this.state.withdrawn.set(o, entry.seq);
        break;
      case 'deletion':
        for (const o of entry.objects) this.state.purged.set(o, entry.seq);
        break;
      case 'ingestion end':
      case 'fixity check':
      case 'metadata extraction':
      case 'examination':
        this.examination.collect(entry);
        break;
      case 'cataloguing':
        this.examination.collect(entry); // people's signing keys (account.key.*)
        break;
      case 'decision':
      case 'dissemination':
      case 'quarantine':
        break;
    }
  }
}
