// Graphic-content safeguards (issue 13): the per-account image settings, the count of images
// revealed today and the break reminder. Pure functions over a Storage and an injected clock, so
// that the unit tests need neither a browser nor a real day. Everything here lives in this
// browser's localStorage, per account: it is a kindness to the person looking, not a record. The
// record of who saw what is the server's: every unblurred view is a ledger entry made on fetch.

/** How images are first shown. Only `blurred` loads nothing unblurred without a person's choice. */
export type ImageMode = 'blurred' | 'greyscale' | 'colour';
export const IMAGE_MODES: readonly ImageMode[] = ['blurred', 'greyscale', 'colour'];

export interface SafeguardSettings {
  /** The default on the item page (the evidence grid stays blurred whatever this says). */
  imageMode: ImageMode;
  /** Examiners: show a case's photographs in colour once revealed (read by the examination pages). */
  examinationColour: boolean;
  /** A break reminder after this many reveals in a day (and after each further as many). */
  reminderEvery: number;
}

export const DEFAULT_SETTINGS: SafeguardSettings = {
  imageMode: 'blurred',
  examinationColour: false,
  reminderEvery: 50,
};
export const REMINDER_MIN = 5;
export const REMINDER_MAX = 500;

/** Where images are shown: anywhere, or inside an examiner's own cases. */
export type ImageContext = 'general' | 'examination';

/**
 * How images are first shown. Inside their own cases an examiner who opted in sees them in colour
 * from the start (their choice, each a recorded unblurred view); elsewhere the default applies.
 */
export function imageModeFor(settings: SafeguardSettings, where: ImageContext): ImageMode {
  if (where === 'examination' && settings.examinationColour) return 'colour';
  return settings.imageMode;
}

/** The part of the Web Storage API used here (localStorage in the page, a Map in the tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const settingsKey = (account: string): string => `custody.safeguards.${account}`;
const revealsKey = (account: string): string => `custody.reveals.${account}`;

function readJson(store: KeyValueStore, key: string): unknown {
  try {
    return JSON.parse(store.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clampReminder(n: number): number {
  if (!Number.isFinite(n)) return DEFAULT_SETTINGS.reminderEvery;
  return Math.min(REMINDER_MAX, Math.max(REMINDER_MIN, Math.round(n)));
}

/** The account's settings; anything missing or malformed falls back to the safe default. */
export function readSettings(store: KeyValueStore, account: string): SafeguardSettings {
  const v = readJson(store, settingsKey(account));
  if (!isRecord(v)) return { ...DEFAULT_SETTINGS };
  return {
    imageMode: IMAGE_MODES.find((m) => m === v.imageMode) ?? DEFAULT_SETTINGS.imageMode,
    examinationColour: v.examinationColour === true,
    reminderEvery:
      typeof v.reminderEvery === 'number'
        ? clampReminder(v.reminderEvery)
        : DEFAULT_SETTINGS.reminderEvery,
  };
}

export function writeSettings(
  store: KeyValueStore,
  account: string,
  settings: SafeguardSettings,
): void {
  const clean: SafeguardSettings = {
    ...settings,
    reminderEvery: clampReminder(settings.reminderEvery),
  };
  store.setItem(settingsKey(account), JSON.stringify(clean));
}

/** The UTC day of an instant, as YYYY-MM-DD: the count starts again at 00:00 UTC. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The images revealed on one UTC day (each image once), and the count at the last dismissal. */
export interface RevealDay {
  day: string;
  items: string[];
  dismissedAt: number;
}

export function readRevealDay(store: KeyValueStore, account: string, now: Date): RevealDay {
  const day = utcDay(now);
  const v = readJson(store, revealsKey(account));
  if (!isRecord(v) || v.day !== day || !Array.isArray(v.items))
    return { day, items: [], dismissedAt: 0 };
  const items = v.items.filter((x): x is string => typeof x === 'string');
  const dismissedAt = typeof v.dismissedAt === 'number' ? v.dismissedAt : 0;
  return { day, items, dismissedAt };
}

/** Counts a reveal of `itemId` today (an image revealed twice in a day counts once). */
export function recordRevealIn(
  store: KeyValueStore,
  account: string,
  itemId: string,
  now: Date,
): RevealDay {
  const d = readRevealDay(store, account, now);
  if (d.items.includes(itemId)) return d;
  const next = { ...d, items: [...d.items, itemId] };
  store.setItem(revealsKey(account), JSON.stringify(next));
  return next;
}

/** Dismisses the reminder until the next multiple of the threshold. */
export function dismissReminderIn(store: KeyValueStore, account: string, now: Date): RevealDay {
  const d = readRevealDay(store, account, now);
  const next = { ...d, dismissedAt: d.items.length };
  store.setItem(revealsKey(account), JSON.stringify(next));
  return next;
}

/**
 * Whether to show the break reminder: once the day's count reaches a multiple of `every` that
 * has not been dismissed (50 reveals, then 100, …).
 */
export function reminderDue(d: RevealDay, every: number): boolean {
  const n = clampReminder(every);
  const reached = Math.floor(d.items.length / n) * n;
  return reached > 0 && d.dismissedAt < reached;
}
