// A clock the test sets and a ticker the test fires by hand: the ledger writer's time cadence,
// tested without timing (timing never goes into a CI test).
import type { Ticker } from '../../src/ledger/ledger-writer.js';

export interface ManualTime {
  ticker: Ticker;
  /** Runs every registered tick once. */
  fire: () => void;
  now: { t: number };
  clock: () => number;
  /** The intervals the ticker was asked for. */
  intervals: number[];
}

export function manualTime(): ManualTime {
  const ticks: (() => void)[] = [];
  const intervals: number[] = [];
  const now = { t: 1_000_000 };
  return {
    ticker: (ms, tick) => {
      intervals.push(ms);
      ticks.push(tick);
      return () => ticks.splice(0, ticks.length);
    },
    fire: () => {
      for (const t of ticks) t();
    },
    now,
    clock: () => now.t,
    intervals,
  };
}
