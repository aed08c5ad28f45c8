import type { CheckContext } from './check-context.js';
import { cameraKey, cameraLabel, DAY_MS, parseExifDateTime } from './facts-keys.js';
import type { Indicator } from './image-facts.js';
import { findSequenceBreak, type SequenceBreak } from './name-sequence.js';
import { FUTURE_SLACK_MS, RANGE_MIN_OTHERS, RANGE_SLACK_DAYS } from './thresholds.js';

function futureFindings(ctx: CheckContext): string[] {
  const f = ctx.target;
  const fields: [string, string | null][] = [
    ['DateTimeOriginal', f.dateTimeOriginal],
    ['CreateDate', f.createDate],
    ['ModifyDate', f.modifyDate],
  ];
  const found: string[] = [];
  for (const [field, literal] of fields) {
    const ms = parseExifDateTime(literal);
    if (ms !== null && ms > ctx.nowMs + FUTURE_SLACK_MS) {
      found.push(`${field} ${literal ?? ''} is more than a day after the analysis time ${ctx.now}`);
    }
  }
  return found;
}

/** The camera body's first and last DateTimeOriginal among its other images, when it has enough. */
function cameraRange(
  ctx: CheckContext,
): { first: string; last: string; firstMs: number; lastMs: number } | null {
  const key = cameraKey(ctx.target);
  const times = key === null ? undefined : ctx.index.cameras.get(key)?.times;
  if (times === undefined || times.length - 1 < RANGE_MIN_OTHERS) return null;
  // times is sorted and holds each image once, the target included: skip it at either end.
  const self = ctx.target.sha256;
  const first = times[0]?.sha256 === self ? times[1] : times[0];
  const last =
    times[times.length - 1]?.sha256 === self ? times[times.length - 2] : times[times.length - 1];
  if (first === undefined || last === undefined) return null;
  return { first: first.literal, last: last.literal, firstMs: first.ms, lastMs: last.ms };
}

/** TIMESTAMP_OUT_OF_RANGE: a date in the future, or far outside the camera body's own range. */
export function checkTimestampRange(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const found = futureFindings(ctx);
  const original = parseExifDateTime(f.dateTimeOriginal);
  const range = original === null ? null : cameraRange(ctx);
  if (range !== null && original !== null) {
    const days = (ms: number): number => Math.floor(ms / DAY_MS);
    const slack = RANGE_SLACK_DAYS * DAY_MS;
    const camera = cameraLabel(f);
    if (original < range.firstMs - slack) {
      found.push(
        `DateTimeOriginal is ${days(range.firstMs - original)} days before the ${camera}'s first other image (${range.first})`,
      );
    } else if (original > range.lastMs + slack) {
      found.push(
        `DateTimeOriginal is ${days(original - range.lastMs)} days after the ${camera}'s last other image (${range.last})`,
      );
    }
  }
  if (found.length === 0) return null;
  return {
    code: 'TIMESTAMP_OUT_OF_RANGE',
    explanation:
      `The image's timestamps were compared with the analysis time and with the dates of the other images ` +
      `from the same camera body in the collection: ${found.join('; ')}. A camera clock set wrongly, or reset ` +
      `by a flat battery, produces the same.`,
    evidence: {
      findings: found,
      dateTimeOriginal: f.dateTimeOriginal,
      createDate: f.createDate,
      modifyDate: f.modifyDate,
      offsetTimeOriginal: f.offsetTimeOriginal,
      now: ctx.now,
      cameraFirstOther: range?.first ?? null,
      cameraLastOther: range?.last ?? null,
    },
  };
}

function describeBreak(b: SequenceBreak): string {
  const at = (e: SequenceBreak['previous']): string =>
    e === null ? 'none' : `${e.name} (${e.dateTimeOriginal})`;
  const what =
    b.direction === 'earlier-than-previous'
      ? 'earlier than the image before it'
      : 'later than the image after it';
  return `${b.entry.name} (${b.entry.dateTimeOriginal}) is ${what}; before: ${at(b.previous)}, after: ${at(b.next)}`;
}

/** NAME_SEQUENCE_VS_TIME: the camera's file-name counter and its clock disagree about this image. */
export function checkNameSequence(ctx: CheckContext): Indicator | null {
  const positions = ctx.index.sequences.positions.get(ctx.target.sha256) ?? [];
  const breaks: SequenceBreak[] = [];
  for (const { key, index } of positions) {
    const brk = findSequenceBreak(ctx.index.sequences.sequences.get(key) ?? [], index);
    if (brk !== null) breaks.push(brk);
  }
  const first = breaks[0];
  if (first === undefined) return null;
  return {
    code: 'NAME_SEQUENCE_VS_TIME',
    explanation:
      `The ${cameraLabel(ctx.target)}'s images in the collection were put in order of the number in their file ` +
      `names (pattern ${first.entry.pattern}) and their DateTimeOriginal compared: ${breaks.map(describeBreak).join('; ')}. ` +
      `Renaming or a re-set clock produces the same; so does a second card with its own counter.`,
    evidence: {
      name: first.entry.name,
      dateTimeOriginal: first.entry.dateTimeOriginal,
      previousName: first.previous?.name ?? null,
      previousDateTimeOriginal: first.previous?.dateTimeOriginal ?? null,
      nextName: first.next?.name ?? null,
      nextDateTimeOriginal: first.next?.dateTimeOriginal ?? null,
      findings: breaks.map(describeBreak),
    },
  };
}
