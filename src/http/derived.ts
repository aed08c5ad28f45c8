// What the server computes once and reuses across requests, each keyed on what it depends on:
// the collection-wide facts the indicators and near-duplicate clusters are judged against (keyed
// on the index's item, analysis and withdrawal counts), the custody-trail index (caught up with
// the ledger), the latest signed checkpoint (found again when the ledger grows or is signed), and
// each plan's statistics at each signed checkpoint (a signed size never changes).
import type { Archive } from '../app.js';
import { loadImageFacts } from '../analysis/authenticity.service.js';
import { indicatorEvaluator, type ImageFacts, type Indicator } from '../analysis/indicators/index.js';
import {
  archiveSimilarity,
  type ArchiveSimilarity,
} from '../analysis/similarity/archive-similarity.service.js';
import { TrailIndex } from '../catalogue/index.js';
import { latestSignedCheckpoint } from '../ledger/index.js';

export interface CollectionFacts {
  facts: ImageFacts[];
  similarity: ArchiveSimilarity;
  indicators: (sha256: string, opts: { now: string }) => Indicator[] | null;
  /** Objects raising each indicator, judged at `at` (made on first use, again after an hour). */
  raising?: { at: number; byCode: Map<string, string[]> };
}

export class ServerDerived {
  private collection: { key: string; value: Promise<CollectionFacts> } | null = null;
  private readonly trail = new TrailIndex();
  private trailCatchUp: Promise<void> = Promise.resolve();
  readonly statistics = new Map<string, Promise<unknown>>();
  private signed: { key: string; value: Promise<number | null> } | null = null;

  constructor(private readonly archive: Archive) {}

  async collectionFacts(): Promise<CollectionFacts> {
    const key = await this.archive.index.queries.generation();
    if (this.collection?.key !== key) {
      const value = (async () => {
        // One search: the facts' crop originals come from the same pairs.
        const similarity = await archiveSimilarity(this.archive);
        const facts = await loadImageFacts(this.archive, { pairs: similarity.pairs });
        return {
          facts,
          similarity,
          indicators: indicatorEvaluator(facts),
        };
      })();
      this.collection = { key, value };
      value.catch(() => {
        if (this.collection?.value === value) this.collection = null;
      });
    }
    return this.collection.value;
  }

  /**
   * The latest signed checkpoint's size (latestSignedCheckpoint), found again only when the ledger
   * grows or its writer signs: what was verified against this ledger's tree stays verified while
   * the tree and the signatures this process made are unchanged.
   */
  latestSigned(): Promise<number | null> {
    const { ledger, verifierKey, manifest } = this.archive;
    const key = `${ledger.size}:${ledger.signedSize}`;
    if (this.signed?.key !== key) {
      const value = latestSignedCheckpoint({ ledger, verifierKey, origin: manifest.origin });
      const entry = { key, value };
      this.signed = entry;
      value.catch(() => {
        if (this.signed === entry) this.signed = null;
      });
    }
    return this.signed.value;
  }

  /** The objects raising indicator `code` now (judged at most an hour ago). */
  async objectsRaising(code: string): Promise<string[]> {
    const c = await this.collectionFacts();
    const now = Date.now();
    if (c.raising === undefined || now - c.raising.at > 3_600_000) {
      const byCode = new Map<string, string[]>();
      const at = new Date(now).toISOString();
      for (const f of c.facts)
        for (const i of c.indicators(f.sha256, { now: at }) ?? []) {
          const list = byCode.get(i.code);
          if (list === undefined) byCode.set(i.code, [f.sha256]);
          else list.push(f.sha256);
        }
      c.raising = { at: now, byCode };
    }
    return c.raising.byCode.get(code) ?? [];
  }

  /** The seqs of the entries naming any of `ids`, after catching up with the ledger. */
  async trailSeqs(ids: ReadonlySet<string>): Promise<number[]> {
    const run = this.trailCatchUp.then(() => this.trail.catchUp(this.archive.ledger));
    this.trailCatchUp = run.catch(() => undefined);
    await run;
    return this.trail.seqsNaming(ids);
  }
}

const perServer = new WeakMap<object, ServerDerived>();

/** The derived state of the server whose state object is `key` (request.server.custody). */
export function derivedOf(key: { archive: Archive }): ServerDerived {
  let d = perServer.get(key);
  if (d === undefined) {
    d = new ServerDerived(key.archive);
    perServer.set(key, d);
  }
  return d;
}
