import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  dismissReminderIn,
  imageModeFor,
  readRevealDay,
  readSettings,
  recordRevealIn,
  reminderDue,
  utcDay,
  writeSettings,
  type KeyValueStore,
} from './safeguards';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
  };
}

const at = (iso: string): Date => new Date(iso);

describe('image settings', () => {
  it('default to blurred, no colour in examination, a reminder every 50', () => {
    expect(readSettings(memoryStore(), 'acc-1')).toEqual({
      imageMode: 'blurred',
      examinationColour: false,
      reminderEvery: 50,
    });
  });

  it('are kept per account', () => {
    const store = memoryStore();
    writeSettings(store, 'acc-1', {
      imageMode: 'colour',
      examinationColour: true,
      reminderEvery: 20,
    });
    expect(readSettings(store, 'acc-1')).toEqual({
      imageMode: 'colour',
      examinationColour: true,
      reminderEvery: 20,
    });
    expect(readSettings(store, 'acc-2')).toEqual(DEFAULT_SETTINGS);
  });

  it('fall back to the safe default when the stored value is malformed or unknown', () => {
    const store = memoryStore();
    store.setItem('custody.safeguards.acc-1', '{"imageMode":"naked","examinationColour":"yes"');
    expect(readSettings(store, 'acc-1')).toEqual(DEFAULT_SETTINGS);
    store.setItem(
      'custody.safeguards.acc-1',
      JSON.stringify({ imageMode: 'naked', examinationColour: 'yes', reminderEvery: 'x' }),
    );
    expect(readSettings(store, 'acc-1')).toEqual(DEFAULT_SETTINGS);
  });

  it('keep the reminder threshold within 5..500', () => {
    const store = memoryStore();
    writeSettings(store, 'a', { ...DEFAULT_SETTINGS, reminderEvery: 1 });
    expect(readSettings(store, 'a').reminderEvery).toBe(5);
    writeSettings(store, 'a', { ...DEFAULT_SETTINGS, reminderEvery: 10_000 });
    expect(readSettings(store, 'a').reminderEvery).toBe(500);
    writeSettings(store, 'a', { ...DEFAULT_SETTINGS, reminderEvery: Number.NaN });
    expect(readSettings(store, 'a').reminderEvery).toBe(50);
  });
});

describe('the image mode', () => {
  it('follows the default everywhere, and colour inside examination only for an examiner who opted in', () => {
    const greyscale = { ...DEFAULT_SETTINGS, imageMode: 'greyscale' as const };
    expect(imageModeFor(DEFAULT_SETTINGS, 'general')).toBe('blurred');
    expect(imageModeFor(DEFAULT_SETTINGS, 'examination')).toBe('blurred');
    expect(imageModeFor(greyscale, 'examination')).toBe('greyscale');
    const optedIn = { ...DEFAULT_SETTINGS, examinationColour: true };
    expect(imageModeFor(optedIn, 'examination')).toBe('colour');
    expect(imageModeFor(optedIn, 'general')).toBe('blurred');
  });
});

describe('images revealed today', () => {
  it('counts each image once per UTC day, per account', () => {
    const store = memoryStore();
    const now = at('2026-03-05T10:00:00Z');
    recordRevealIn(store, 'acc-1', 'item-a', now);
    recordRevealIn(store, 'acc-1', 'item-b', now);
    recordRevealIn(store, 'acc-1', 'item-a', now);
    recordRevealIn(store, 'acc-2', 'item-a', now);
    expect(readRevealDay(store, 'acc-1', now).items).toEqual(['item-a', 'item-b']);
    expect(readRevealDay(store, 'acc-2', now).items).toEqual(['item-a']);
  });

  it('starts again at 00:00 UTC, whatever the local time zone', () => {
    const store = memoryStore();
    recordRevealIn(store, 'acc-1', 'item-a', at('2026-03-05T23:59:59Z'));
    // 02:00 in Damascus (UTC+3) on the 6th is still the 5th in UTC.
    expect(readRevealDay(store, 'acc-1', at('2026-03-06T02:00:00+03:00')).items).toHaveLength(1);
    expect(readRevealDay(store, 'acc-1', at('2026-03-06T00:00:00Z')).items).toHaveLength(0);
    recordRevealIn(store, 'acc-1', 'item-a', at('2026-03-06T00:00:01Z'));
    expect(readRevealDay(store, 'acc-1', at('2026-03-06T12:00:00Z')).items).toEqual(['item-a']);
    expect(utcDay(at('2026-03-06T02:00:00+03:00'))).toBe('2026-03-05');
  });
});

describe('the break reminder', () => {
  const now = at('2026-03-05T10:00:00Z');
  const reveal = (store: KeyValueStore, n: number, from = 0): void => {
    for (let i = from; i < from + n; i++) recordRevealIn(store, 'acc-1', `item-${i}`, now);
  };

  it('is due once the count reaches the threshold, not before', () => {
    const store = memoryStore();
    reveal(store, 4);
    expect(reminderDue(readRevealDay(store, 'acc-1', now), 5)).toBe(false);
    reveal(store, 1, 4);
    expect(reminderDue(readRevealDay(store, 'acc-1', now), 5)).toBe(true);
  });

  it('once dismissed, comes back at the next multiple of the threshold', () => {
    const store = memoryStore();
    reveal(store, 6);
    expect(reminderDue(dismissReminderIn(store, 'acc-1', now), 5)).toBe(false);
    reveal(store, 3, 6);
    expect(reminderDue(readRevealDay(store, 'acc-1', now), 5)).toBe(false);
    reveal(store, 1, 9);
    expect(reminderDue(readRevealDay(store, 'acc-1', now), 5)).toBe(true);
  });

  it('defaults to 50 reveals', () => {
    const store = memoryStore();
    reveal(store, 49);
    const every = readSettings(store, 'acc-1').reminderEvery;
    expect(reminderDue(readRevealDay(store, 'acc-1', now), every)).toBe(false);
    reveal(store, 1, 49);
    expect(reminderDue(readRevealDay(store, 'acc-1', now), every)).toBe(true);
  });
});
