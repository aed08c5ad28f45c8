// Moved to ui/src/safeguards (shared by every page that shows images).
export { useRevealed } from '../../safeguards';
