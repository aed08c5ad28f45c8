// The agreement intervals' bootstrap: Fleiss' and Cohen's kappa over 2,000 resamples, each
// resample's rows copied and read from scratch (fleissKappa, cohenKappa on the resampled matrix,
// as agreementReport did before; the reading itself is now prepareFleiss's, numbering the
// categories afresh each time) and the ratings read once for all resamples (prepareFleiss,
// prepareCohen: what agreementReport does), in the same run, on the same seeded ratings. The two
// intervals must be identical, bit for bit; the script fails otherwise.
//
//   npm run build && node dist/bench/agreement-bootstrap.js
import { bootstrapUnits } from '../src/stats/bootstrap.js';
import {
  cohenKappa,
  cohenOfResample,
  fleissKappa,
  fleissOfResample,
  prepareCohen,
  prepareFleiss,
} from '../src/stats/kappa.js';
import { seededPrng } from '../src/stats/prng.js';
import type { Rating } from '../src/stats/ratings.js';

const UNITS = 150;
const ROUNDS = 5;

function ratings(coders: number): Rating[][] {
  const prng = seededPrng(`agreement-bench-${coders}`);
  const categories = ['absent', 'present', 'cannot_assess'];
  return Array.from({ length: UNITS }, () =>
    Array.from({ length: coders }, () => categories[prng.nextInt(3)] ?? 'absent'),
  );
}

function best(run: () => unknown): { ms: number; result: unknown } {
  let ms = Infinity;
  let result: unknown;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    result = run();
    ms = Math.min(ms, performance.now() - t0);
  }
  return { ms, result };
}

const two = ratings(2);
const three = ratings(3);
const cases = [
  {
    name: "Fleiss' kappa, 3 examiners",
    plain: () => bootstrapUnits(UNITS, (idx) => fleissKappa(idx.map((i) => three[i] ?? [])).kappa),
    prepared: () => {
      const p = prepareFleiss(three);
      return bootstrapUnits(UNITS, (idx) => fleissOfResample(p, idx).kappa);
    },
  },
  {
    name: "Cohen's kappa, 2 examiners",
    plain: () => bootstrapUnits(UNITS, (idx) => cohenKappa(idx.map((i) => two[i] ?? [])).kappa),
    prepared: () => {
      const p = prepareCohen(two);
      return bootstrapUnits(UNITS, (idx) => cohenOfResample(p, idx).kappa);
    },
  },
];

console.log(`agreement bootstrap: ${UNITS} units, 2,000 resamples, best of ${ROUNDS}`);
let failed = false;
for (const c of cases) {
  const plain = best(c.plain);
  const prepared = best(c.prepared);
  const same = JSON.stringify(plain.result) === JSON.stringify(prepared.result);
  failed ||= !same;
  console.log(
    `${c.name}: from scratch ${plain.ms.toFixed(1)} ms, read once ${prepared.ms.toFixed(1)} ms ` +
      `(${(plain.ms / prepared.ms).toFixed(1)}x), intervals ${same ? 'identical' : 'DIFFER'}`,
  );
}
if (failed) process.exitCode = 1;
