// custody interval --successes K --trials N [--population M] [--json]
//
// 95% intervals for "K of N examined showed the finding": Wilson score and Clopper–Pearson exact
// for the proportion, and, with --population M (the N were drawn without replacement from M),
// the exact hypergeometric interval for the number affected in the population. No archive needed.
// Exit 0; 2 for a usage error (missing or non-integer counts, K > N, N > M) and for counts past
// the range computed exactly (STATS_OUT_OF_RANGE: N > 10^9, M > 10^15; see stats/hypergeometric).
//
// JSON (--json):
//   {
//     "successes": 93, "trials": 150, "proportion": 0.62, "confidence": 0.95,
//     "wilson":          { "method": "Wilson score", "lower": 0.5402…, "upper": 0.6937… },
//     "clopper_pearson": { "method": "Clopper–Pearson exact", "lower": 0.5372…, "upper": 0.6979… },
//     "population": null
//       | { "size": 2000, "estimated_count": 1240,
//           "hypergeometric": { "method": "exact hypergeometric (…)", "count_lower": 1081,
//                               "count_upper": 1390, "proportion_lower": 0.5405,
//                               "proportion_upper": 0.695 } }
//   }
import {
  clopperPearsonInterval,
  hypergeometricInterval,
  MAX_EXACT_POPULATION,
  MAX_TRIALS,
  requireWithinExactRange,
  wilsonInterval,
  type ProportionInterval,
} from '../stats/index.js';
import {
  parseNonNegativeInt,
  printJson,
  requireStr,
  str,
  UsageError,
  type Command,
  type Io,
} from './command.js';
import { wantsJson } from './context.js';

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;

export const intervalCommand: Command = {
  name: 'interval',
  summary:
    '95% intervals for K of N (Wilson, Clopper–Pearson; exact hypergeometric with --population)',
  usage: `custody interval --successes K --trials N [--population M] [--json]   (N <= ${MAX_TRIALS}, M <= ${MAX_EXACT_POPULATION})`,
  options: {
    successes: { type: 'string' },
    trials: { type: 'string' },
    population: { type: 'string' },
  },
  run(args, io) {
    const k = parseNonNegativeInt(requireStr(args, 'successes', this), '--successes');
    const n = parseNonNegativeInt(requireStr(args, 'trials', this), '--trials');
    const populationText = str(args, 'population');
    const m =
      populationText === undefined ? null : parseNonNegativeInt(populationText, '--population');
    if (n === 0) throw new UsageError(`--trials must be at least 1\nusage: ${this.usage}`);
    if (k > n) throw new UsageError(`--successes (${k}) cannot exceed --trials (${n})`);
    if (m !== null && m < n)
      throw new UsageError(`--population (${m}) cannot be smaller than --trials (${n})`);
    // Past these the answers would be slow or inexact: refused with STATS_OUT_OF_RANGE (exit 2).
    requireWithinExactRange(m ?? n, n);

    const wilson = wilsonInterval(k, n);
    const exact = clopperPearsonInterval(k, n);
    const hyper = m === null ? null : hypergeometricInterval(k, n, m);
    if (wantsJson(args)) {
      printJson(io, {
        successes: k,
        trials: n,
        proportion: k / n,
        confidence: 0.95,
        wilson,
        clopper_pearson: exact,
        population:
          m === null || hyper === null
            ? null
            : {
                size: m,
                estimated_count: (k / n) * m,
                hypergeometric: {
                  method: hyper.method,
                  count_lower: hyper.countLower,
                  count_upper: hyper.countUpper,
                  proportion_lower: hyper.proportionLower,
                  proportion_upper: hyper.proportionUpper,
                },
              },
      });
      return Promise.resolve(0);
    }
    printText(io, k, n, [wilson, exact]);
    if (m !== null && hyper !== null) {
      io.stdout(
        `population of ${m}: about ${Math.round((k / n) * m)} affected; 95% exact hypergeometric interval ` +
          `${hyper.countLower}–${hyper.countUpper} (${percent(hyper.proportionLower)}–${percent(hyper.proportionUpper)})\n`,
      );
    }
    return Promise.resolve(0);
  },
};

function printText(io: Io, k: number, n: number, intervals: ProportionInterval[]): void {
  io.stdout(`${k} of ${n} (${percent(k / n)})\n`);
  const width = Math.max(...intervals.map((i) => i.method.length));
  for (const i of intervals) {
    io.stdout(`95% CI, ${i.method.padEnd(width)}  ${percent(i.lower)}–${percent(i.upper)}\n`);
  }
}
