import { describe, expect, it } from 'vitest';
import { greyStepNote, objectGreyStepNote } from './grey-step-note.js';

describe('objectGreyStepNote', () => {
  const skipped = {
    ran: false,
    objects_needing_it: 26_948,
    limit: 5_000,
    needed_by_this_object: true,
  };

  it('speaks only when the step did not run and this image needed it', () => {
    expect(objectGreyStepNote(null)).toBeNull();
    expect(objectGreyStepNote({ ...skipped, ran: true })).toBeNull();
    expect(objectGreyStepNote({ ...skipped, needed_by_this_object: false })).toBeNull();
    expect(objectGreyStepNote(skipped)).toBe(
      'this image is linked to at most two others, and the grey-descriptor step did not run ' +
        '(26,948 images needed it, more than the 5,000 it takes): a crop of it cut unevenly and also ' +
        'turned or flipped may be missing (README: Near-duplicates)',
    );
  });
});

describe('greyStepNote', () => {
  it('is silent when the grey step ran, and names the counts and what may be missing when it did not', () => {
    expect(greyStepNote({ needing: 4_999, limit: 5_000, ran: true, objects: [] })).toBeNull();
    const note = greyStepNote({ needing: 26_948, limit: 5_000, ran: false, objects: [] });
    expect(note).toBe(
      'the grey-descriptor step did not run: 26,948 analysed images are linked to at most two others, ' +
        'more than the 5,000 it takes; a crop cut unevenly and also turned or flipped may be missing ' +
        'from the near-duplicates (README: Near-duplicates)',
    );
  });
});
