import type { CollectionIndex, ModelStats } from './collection-index.js';
import { modelKey } from './facts-keys.js';
import type { ImageFacts, Indicator } from './image-facts.js';

/** Everything a check reads: the collection grouped once, the image under examination, the options. */
export interface CheckContext {
  index: CollectionIndex;
  target: ImageFacts;
  /** opts.now as given (RFC 3339) and as epoch ms. */
  now: string;
  nowMs: number;
  /** PDQ bit distance for THUMBNAIL_MISMATCH. */
  thumbnailDistance: number;
}

/** A check returns at most one indicator per image, folding several findings into its evidence. */
export type Check = (ctx: CheckContext) => Indicator | null;

/** The target's camera model's statistics (the target itself included; subtract it with tally.ts). */
export function modelStatsOf(ctx: CheckContext): ModelStats | undefined {
  const key = modelKey(ctx.target);
  return key === null ? undefined : ctx.index.models.get(key);
}

/** 'a, b and c' */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}
