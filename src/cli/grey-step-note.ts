import type {
  GreyStepCoverage,
  GreyStepOfObject,
} from '../analysis/similarity/archive-similarity.service.js';

/**
 * What to tell the reader of one image when the grey-descriptor step did not run and the image is
 * one that needed it (null otherwise): `similar` and `show` print it on standard error.
 */
export function objectGreyStepNote(g: GreyStepOfObject | null): string | null {
  if (g === null || g.ran || !g.needed_by_this_object) return null;
  return (
    `this image is linked to at most two others, and the grey-descriptor step did not run ` +
    `(${g.objects_needing_it.toLocaleString('en')} images needed it, more than the ${g.limit.toLocaleString('en')} it takes): ` +
    'a crop of it cut unevenly and also turned or flipped may be missing (README: Near-duplicates)'
  );
}

/**
 * What to tell the reader when the grey-descriptor step did not run (null when it ran): the
 * clusters may lack the crops that only it finds.
 */
export function greyStepNote(grey: GreyStepCoverage): string | null {
  if (grey.ran) return null;
  return (
    `the grey-descriptor step did not run: ${grey.needing.toLocaleString('en')} analysed images are ` +
    `linked to at most two others, more than the ${grey.limit.toLocaleString('en')} it takes; a crop ` +
    'cut unevenly and also turned or flipped may be missing from the near-duplicates (README: Near-duplicates)'
  );
}
