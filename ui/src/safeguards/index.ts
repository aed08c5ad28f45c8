// Graphic-content safeguards (issue 13): settings, reveal memory, today's count, break reminder.
export {
  DEFAULT_SETTINGS,
  IMAGE_MODES,
  imageModeFor,
  REMINDER_MAX,
  REMINDER_MIN,
  type ImageContext,
  type ImageMode,
  type SafeguardSettings,
} from './safeguards';
export { useRevealed } from './reveal-memory';
export {
  recordReveal,
  revealedToday,
  useImageMode,
  useRevealedToday,
  useSafeguardSettings,
} from './store';
