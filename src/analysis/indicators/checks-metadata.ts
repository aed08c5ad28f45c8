import { type CheckContext, listInWords, modelStatsOf } from './check-context.js';
import { datesEqual, folderKeys, patternKeys, softwareKey } from './collection-index.js';
import { editorNamedIn } from './editing-software.js';
import { missingCameraFields, modelLabel, parseExifDateTime } from './facts-keys.js';
import type { Indicator } from './image-facts.js';
import { othersShare, othersWith } from './tally.js';
import {
  EXIF_PEER_MIN,
  EXIF_PEER_SHARE,
  FIRMWARE_SHARE,
  MIN_MODEL_OTHERS,
  MODIFY_EQUAL_SHARE,
} from './thresholds.js';

/** True when the model's other images mostly carry this exact Software string: firmware, not an editor. */
function isRoutineSoftware(ctx: CheckContext, software: string): boolean {
  const m = modelStatsOf(ctx);
  if (m === undefined) return false;
  const others = m.images - 1;
  const same = othersWith(m.software, software, softwareKey(ctx.target));
  return others >= MIN_MODEL_OTHERS && same / others >= FIRMWARE_SHARE;
}

/** EDITING_SOFTWARE: an image editor is named in Software, XMP CreatorTool or XMP History. */
export function checkEditingSoftware(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const fields: [string, string | null][] = [
    ['Software', softwareKey(f)],
    ['XMP CreatorTool', f.xmpCreatorTool],
    ...[...new Set(f.xmpHistorySoftware)].map((s): [string, string] => [
      'XMP History softwareAgent',
      s,
    ]),
  ];
  const found: string[] = [];
  const editors = new Set<string>();
  let routine: string | null = null;
  for (const [field, value] of fields) {
    const editor = value === null ? null : editorNamedIn(value);
    if (value === null || editor === null) continue;
    if (field === 'Software' && isRoutineSoftware(ctx, value)) {
      routine = value;
      continue;
    }
    found.push(`${field}: ${value}`);
    editors.add(editor);
  }
  if (found.length === 0) return null;
  return {
    code: 'EDITING_SOFTWARE',
    explanation:
      `The image's metadata names ${listInWords([...editors])} (${found.join('; ')}), compared with a list of ` +
      `known image editors. Software that opened or exported a file is not proof its content was changed.`,
    evidence: { fields: found, editors: [...editors], routineSoftwareNotCounted: routine },
  };
}

/** MODIFY_DATE_DIFFERS: ModifyDate ≠ DateTimeOriginal while the model's other images have them equal. */
export function checkModifyDate(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const m = modelStatsOf(ctx);
  if (datesEqual(f) !== false || m === undefined) return null;
  const others = othersShare(m.datesEqual, false);
  if (others.images < MIN_MODEL_OTHERS || others.yes / others.images < MODIFY_EQUAL_SHARE)
    return null;
  const diff =
    ((parseExifDateTime(f.modifyDate) ?? 0) - (parseExifDateTime(f.dateTimeOriginal) ?? 0)) / 1000;
  return {
    code: 'MODIFY_DATE_DIFFERS',
    explanation:
      `ModifyDate (${f.modifyDate ?? ''}) differs from DateTimeOriginal (${f.dateTimeOriginal ?? ''}) by ` +
      `${diff} s, while ${others.yes} of the ${others.images} other images from the ${modelLabel(f)} in the ` +
      `collection have the two equal. Software that rewrites a file usually updates ModifyDate.`,
    evidence: {
      dateTimeOriginal: f.dateTimeOriginal,
      modifyDate: f.modifyDate,
      differenceSeconds: diff,
      model: modelLabel(f),
      otherImagesCompared: others.images,
      otherImagesEqual: others.yes,
    },
  };
}

/** EXIF_MISSING: no camera EXIF, while images of the same name pattern or folder mostly have it. */
export function checkExifMissing(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const missing = missingCameraFields(f);
  if (missing.length === 0) return null;
  const groups: [string, Map<string, { images: number; yes: number }>, string[]][] = [
    ['file-name pattern', ctx.index.patterns, patternKeys(f)],
    ['folder', ctx.index.folders, folderKeys(f)],
  ];
  const peers: string[] = [];
  for (const [kind, map, keys] of groups) {
    for (const key of keys) {
      const s = othersShare(map.get(key), false);
      if (s.images >= EXIF_PEER_MIN && s.yes / s.images >= EXIF_PEER_SHARE) {
        peers.push(
          `${kind} ${key}: ${s.yes} of ${s.images} other images have Make, Model and DateTimeOriginal`,
        );
      }
    }
  }
  if (peers.length === 0) return null;
  return {
    code: 'EXIF_MISSING',
    explanation:
      `The image lacks ${listInWords(missing)}, compared with other images received under the same ` +
      `file-name pattern or in the same folder, which mostly have them (${peers.join('; ')}). Metadata is ` +
      `removed by many editors, but also by messaging apps, social networks and some transfer tools.`,
    evidence: { missing, peers },
  };
}
