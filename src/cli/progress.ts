// Progress for long commands: one line on stderr, overwritten in place, at most every 250 ms, and
// only for a person at a terminal. Nothing at all with --json or when stderr is not a TTY, so
// scripts and pipes see exactly what they saw before.
import type { Io, ParsedArgs } from './command.js';
import { wantsJson } from './context.js';

/** What services call: a stage, how many are done, and of how many when known. */
export type ProgressFn = (stage: string, done: number, total?: number) => void;

export interface ProgressLine {
  readonly report: ProgressFn;
  /** Clears the line (call before printing the result). */
  end(): void;
}

/** A progress line for `io`, or undefined when none should be printed. */
export function progressLine(io: Io, args: ParsedArgs, now: () => number = Date.now, everyMs = 250): ProgressLine | undefined {
  if (!io.isTty || wantsJson(args)) return undefined;
  let last = -Infinity;
  let lastStage = '';
  let shown = false;
  return {
    report(stage, done, total) {
      const t = now();
      // A new stage always shows; within a stage, at most one line per interval.
      if (stage === lastStage && t - last < everyMs && done !== total) return;
      last = t;
      lastStage = stage;
      shown = true;
      io.stderr(`\r\x1b[K${stage} ${done}${total === undefined ? '' : ` of ${total}`}`);
    },
    end() {
      if (shown) io.stderr('\r\x1b[K');
      shown = false;
    },
  };
}
