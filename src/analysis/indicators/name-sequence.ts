import { cameraKey, namePattern, originalTimeMs } from './facts-keys.js';
import type { ImageFacts } from './image-facts.js';

/** One image in one camera's file-name counter sequence. */
export interface SequenceEntry {
  sha256: string;
  name: string;
  /** E.g. 'DSC_####'. */
  pattern: string;
  number: number;
  timeMs: number;
  dateTimeOriginal: string;
}

export interface SequenceIndex {
  /** Entries in counter order (rotated at a counter wrap), per camera body and name pattern. */
  sequences: Map<string, SequenceEntry[]>;
  /** Where each image sits: sequence key and index, one per distinct counter name it was received under. */
  positions: Map<string, { key: string; index: number }[]>;
}

export interface SequenceBreak {
  entry: SequenceEntry;
  previous: SequenceEntry | null;
  next: SequenceEntry | null;
  /** The image is earlier than the one before it, or later than the one after it. */
  direction: 'earlier-than-previous' | 'later-than-next';
}

/** Groups every image with a camera, a DateTimeOriginal and a counter-style name into sequences. */
export function buildSequences(images: readonly ImageFacts[]): SequenceIndex {
  const groups = new Map<string, { entries: SequenceEntry[]; digits: number }>();
  for (const f of images) {
    const camera = cameraKey(f);
    const timeMs = originalTimeMs(f);
    if (camera === null || timeMs === null || f.dateTimeOriginal === null) continue;
    const seen = new Set<string>();
    for (const item of f.items) {
      const p = namePattern(item.name);
      if (p === null || seen.has(`${p.key}:${p.number}`)) continue;
      seen.add(`${p.key}:${p.number}`);
      const key = `${camera}|${p.key}`;
      const group = groups.get(key) ?? { entries: [], digits: p.digits };
      group.entries.push({
        sha256: f.sha256,
        name: item.name,
        pattern: p.key,
        number: p.number,
        timeMs,
        dateTimeOriginal: f.dateTimeOriginal,
      });
      groups.set(key, group);
    }
  }
  const index: SequenceIndex = { sequences: new Map(), positions: new Map() };
  for (const [key, { entries, digits }] of groups) {
    const ordered = rotateAtWrap(entries.sort(byCounter), 10 ** digits - 1);
    index.sequences.set(key, ordered);
    ordered.forEach((e, i) => {
      const list = index.positions.get(e.sha256) ?? [];
      list.push({ key, index: i });
      index.positions.set(e.sha256, list);
    });
  }
  return index;
}

function byCounter(a: SequenceEntry, b: SequenceEntry): number {
  return (
    a.number - b.number ||
    a.timeMs - b.timeMs ||
    (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0)
  );
}

/**
 * Camera counters run 0001…9999 and then start again at 0001 (DCF 2.0 §3.2.1). Treating the numbers
 * as a circle, the sequence starts after the widest gap: for 9990…9999, 0001…0010 that gap is
 * 0010→9990, so the order becomes 9990…9999, 0001…0010. When the widest gap is the one across the
 * wrap itself (the usual case), the order is unchanged.
 */
function rotateAtWrap(sorted: SequenceEntry[], modulus: number): SequenceEntry[] {
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return sorted;
  let widest = first.number + modulus - last.number;
  let cut = 0;
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i] as SequenceEntry).number - (sorted[i - 1] as SequenceEntry).number;
    if (gap > widest) [widest, cut] = [gap, i];
  }
  return cut === 0 ? sorted : [...sorted.slice(cut), ...sorted.slice(0, cut)];
}

/**
 * Whether the image at `index` runs against time while its neighbours agree with each other.
 * Requiring the neighbours to be in time order themselves keeps one displaced image from also
 * implicating the images around it, and makes a counter wrap or reset (where the neighbours
 * disagree) raise nothing. At either end of a sequence the two nearest images on the one side serve.
 */
export function findSequenceBreak(
  entries: readonly SequenceEntry[],
  index: number,
): SequenceBreak | null {
  const entry = entries[index];
  if (entry === undefined) return null;
  const prev = entries[index - 1] ?? null;
  const next = entries[index + 1] ?? null;
  const t = entry.timeMs;
  const brk = (direction: SequenceBreak['direction']): SequenceBreak => ({
    entry,
    previous: prev,
    next,
    direction,
  });
  if (prev !== null && next !== null) {
    if (prev.timeMs > next.timeMs) return null;
    if (t < prev.timeMs) return brk('earlier-than-previous');
    return t > next.timeMs ? brk('later-than-next') : null;
  }
  if (next !== null) {
    const next2 = entries[index + 2];
    return next2 !== undefined && next.timeMs <= next2.timeMs && t > next.timeMs
      ? brk('later-than-next')
      : null;
  }
  if (prev !== null) {
    const prev2 = entries[index - 2];
    return prev2 !== undefined && prev2.timeMs <= prev.timeMs && t < prev.timeMs
      ? brk('earlier-than-previous')
      : null;
  }
  return null;
}
