// Actor names: who did something, as recorded in every ledger entry and compared wherever a rule
// depends on who acts (an examiner may not adjudicate their own case). Untrusted input: names come
// from --actor, CUSTODY_ACTOR, the OS user name, --examiners lists and import files.
//
// The recorded form is NFC (Unicode Standard Annex #15) with surrounding white space trimmed.
// Comparison uses one key: that form case-folded (upper-cased, then lower-cased, which folds ß to
// ss and final sigma to σ as full case folding does), then NFC again. So ' dr-a', 'DR-A' and
// 'dr-a' are one actor, and so are the composed and decomposed spellings of 'Dr. Müller'.
import { CustodyError } from './errors.js';

export type ActorErrorCode = 'ACTOR_INVALID';
export class ActorError extends CustodyError<ActorErrorCode> {}

export const MAX_ACTOR_LENGTH = 200;

// C0/C1 controls and DEL, line and paragraph separators, and the bidirectional overrides and
// isolates (which reorder what a reader sees). Joiners (U+200C/D) stay: Persian names use them.
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * The recorded form of an actor name, or ACTOR_INVALID (empty, over 200 characters, or holding a
 * control character).
 *
 * @example
 *   normaliseActor('  dr-a ') // 'dr-a'
 */
export function normaliseActor(raw: string, what = 'the actor name'): string {
  const name = raw.normalize('NFC').trim();
  if (name === '') throw new ActorError('ACTOR_INVALID', `${what} is empty`);
  if ([...name].length > MAX_ACTOR_LENGTH)
    throw new ActorError('ACTOR_INVALID', `${what} is longer than ${MAX_ACTOR_LENGTH} characters`);
  if (FORBIDDEN.test(name))
    throw new ActorError('ACTOR_INVALID', `${what} holds a control character (${JSON.stringify(name)})`);
  return name;
}

/**
 * The comparison key: equal keys are the same actor. Never recorded, only compared.
 *
 * @example
 *   actorKey(' DR-A') === actorKey('dr-a') // true
 */
export function actorKey(name: string): string {
  return name.normalize('NFC').trim().toUpperCase().toLowerCase().normalize('NFC');
}

/** Whether two names denote the same actor. */
export function sameActor(a: string, b: string): boolean {
  return actorKey(a) === actorKey(b);
}
