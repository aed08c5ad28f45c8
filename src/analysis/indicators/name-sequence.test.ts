import { describe, expect, it } from 'vitest';
import { findSequenceBreak, type SequenceEntry } from './name-sequence.js';

/** [number, minute] pairs in counter order, as buildSequences would leave them. */
function seq(pairs: [number, number][]): SequenceEntry[] {
  return pairs.map(([number, minute]) => ({
    sha256: `s${number}`,
    name: `DSC_${String(number).padStart(4, '0')}.JPG`,
    pattern: 'DSC_####',
    number,
    timeMs: minute * 60_000,
    dateTimeOriginal: String(minute),
  }));
}

const flagged = (entries: SequenceEntry[]): number[] =>
  entries.flatMap((e, i) => (findSequenceBreak(entries, i) === null ? [] : [e.number]));

describe('findSequenceBreak', () => {
  it('flags one displaced image and not its neighbours', () => {
    expect(
      flagged(
        seq([
          [1, 1],
          [2, 2],
          [3, 30],
          [4, 4],
          [5, 5],
          [6, 6],
        ]),
      ),
    ).toEqual([3]);
    expect(
      flagged(
        seq([
          [1, 1],
          [2, 2],
          [3, 0],
          [4, 4],
          [5, 5],
        ]),
      ),
    ).toEqual([3]);
  });

  it('accepts equal times (bursts within one second)', () => {
    expect(
      flagged(
        seq([
          [1, 1],
          [2, 1],
          [3, 1],
          [4, 2],
        ]),
      ),
    ).toEqual([]);
  });

  it('flags an end of the sequence only when the two images beside it agree', () => {
    expect(
      flagged(
        seq([
          [1, 9],
          [2, 2],
          [3, 3],
          [4, 4],
        ]),
      ),
    ).toEqual([1]);
    expect(
      flagged(
        seq([
          [1, 1],
          [2, 2],
          [3, 3],
          [4, 0],
        ]),
      ),
    ).toEqual([4]);
    expect(
      flagged(
        seq([
          [1, 9],
          [2, 2],
        ]),
      ),
    ).toEqual([]);
  });

  it('raises nothing at a counter wrap or reset, where the neighbours themselves disagree', () => {
    // Unrotated wrap: 0001…0003 were taken after 9997…9999.
    expect(
      flagged(
        seq([
          [1, 100],
          [2, 101],
          [3, 102],
          [9997, 1],
          [9998, 2],
          [9999, 3],
        ]),
      ),
    ).toEqual([]);
  });

  it('raises nothing where the clock was put back an hour mid-series', () => {
    expect(
      flagged(
        seq([
          [1, 600],
          [2, 610],
          [3, 620],
          [4, 570],
          [5, 580],
          [6, 590],
        ]),
      ),
    ).toEqual([]);
  });
});
