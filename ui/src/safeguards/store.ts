import { useCallback, useSyncExternalStore } from 'react';
import { useSession } from '../session/session';
import {
  dismissReminderIn,
  imageModeFor,
  readRevealDay,
  readSettings,
  recordRevealIn,
  reminderDue,
  writeSettings,
  type ImageContext,
  type ImageMode,
  type SafeguardSettings,
} from './safeguards';

// The page's side of the safeguards: localStorage per account, and a change signal so that the
// shell's count and reminder follow a reveal made anywhere in the page (or in another tab).

const listeners = new Set<() => void>();
let version = 0;

/** Signals a change of the safeguards' storage (reveal memory, count, settings). */
export function changed(): void {
  version++;
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  const onStorage = (e: StorageEvent): void => {
    if (e.key === null || e.key.startsWith('custody.')) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
}

/** Re-renders on any change of the safeguards' storage. */
export function useVersion(): number {
  return useSyncExternalStore(subscribe, () => version);
}

/** Counts a reveal of an image by `account` today (UTC), in this browser. */
export function recordReveal(account: string, itemId: string, now = new Date()): void {
  const before = readRevealDay(window.localStorage, account, now).items.length;
  const after = recordRevealIn(window.localStorage, account, itemId, now).items.length;
  if (after !== before) changed();
}

/** How many images `account` revealed today (UTC), in this browser. */
export function revealedToday(account: string, now = new Date()): number {
  return readRevealDay(window.localStorage, account, now).items.length;
}

export function useSafeguardSettings(): [SafeguardSettings, (s: SafeguardSettings) => void] {
  const { session } = useSession();
  useVersion();
  const settings = readSettings(window.localStorage, session.account);
  const save = useCallback(
    (s: SafeguardSettings) => {
      writeSettings(window.localStorage, session.account, s);
      changed();
    },
    [session.account],
  );
  return [settings, save];
}

/** How images are first shown to this account, here or inside an examiner's own cases. */
export function useImageMode(where: ImageContext = 'general'): ImageMode {
  const [s] = useSafeguardSettings();
  return imageModeFor(s, where);
}

export interface RevealCount {
  count: number;
  reminder: boolean;
  dismiss(): void;
}

/** Today's count for the signed-in account and whether the break reminder is due. */
export function useRevealedToday(): RevealCount {
  const { session } = useSession();
  const [settings] = useSafeguardSettings();
  useVersion();
  const day = readRevealDay(window.localStorage, session.account, new Date());
  const dismiss = useCallback(() => {
    dismissReminderIn(window.localStorage, session.account, new Date());
    changed();
  }, [session.account]);
  return {
    count: day.items.length,
    reminder: reminderDue(day, settings.reminderEvery),
    dismiss,
  };
}
