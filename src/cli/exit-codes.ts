import { errorClassOf, type ErrorClass } from '../error-codes.js';
import { EXIT } from './command.js';

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The CLI contract (README "Error codes"): a request asked wrongly exits 2, a crash 70, and every
 * other refusal or finding 1. Relied on outside the repository: extend it, never change it.
 */
export const EXIT_FOR_CLASS: Readonly<Record<ErrorClass, ExitCode>> = {
  usage: EXIT.usage,
  not_found: EXIT.finding,
  forbidden: EXIT.finding,
  conflict: EXIT.finding,
  finding: EXIT.finding,
  unavailable: EXIT.finding,
  internal: EXIT.internal,
};

/** The exit code for a thrown value (a CustodyError by its code's class, anything else 70). */
export function exitCodeFor(e: unknown): ExitCode {
  return EXIT_FOR_CLASS[errorClassOf(e)];
}
