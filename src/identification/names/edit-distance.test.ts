import { describe, expect, it } from 'vitest';
import { withinOneEdit } from './edit-distance.js';

/** [a, b, within one edit]: one row per kind of edit, and the edits too many. */
const CASES: readonly (readonly [string, string, boolean])[] = [
  ['khaled', 'khaled', true],
  ['khaled', 'khalod', true], // substitution
  ['khaled', 'khaed', true], // deletion
  ['khaed', 'khaled', true], // insertion
  ['khaled', 'khaeld', true], // transposition of neighbours
  ["'ly", "'ky", true], // علي with its middle letter mistyped, in key letters
  ['khaled', 'kahled', true],
  ['khaled', 'kaled', true],
  ['khaled', 'khalid', true],
  ['khaled', 'kheled2', false], // two edits
  ['khaled', 'dlehak', false],
  ['abc', 'bca', false], // a letter moved two places
  ['محمد', 'محمود', true],
  ['محمد', 'حمود', false],
];

describe('withinOneEdit: one test per case', () => {
  it.each(CASES)('%s / %s → %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
    expect(withinOneEdit(b, a)).toBe(expected);
  });
});
