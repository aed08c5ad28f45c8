/**
 * How far a delivered ZIP may expand before intake keeps it whole instead of extracting it:
 * more than 100 times its own size, or beyond 2 GiB in all (nested containers included). The
 * ratio is not applied below 64 MiB, where no expansion threatens the disk (ZIP_EXPANSION);
 * `ingest --allow-zip-expansion` lifts both, and the ingestion start entry records it.
 */
export const ZIP_EXPANSION = Object.freeze({
  maxRatio: 100,
  ratioFloorBytes: 64 * 1024 ** 2,
  maxBytes: 2 * 1024 ** 3,
});

/** Bytes a container (and the containers inside it) may inflate to, counted as they are written. */
export interface ExpansionBudget {
  readonly limit: number;
  used: number;
}

/**
 * @example
 *   expansionLimit(100_000) // 67_108_864: 100 × 100 kB is under the 64 MiB floor
 *   expansionLimit(1_200_000) // 120_000_000
 *   expansionLimit(100 * 1024 ** 2) // 2_147_483_648: 100 × 100 MiB is above 2 GiB
 */
export function expansionLimit(containerBytes: number): number {
  const byRatio = Math.max(ZIP_EXPANSION.ratioFloorBytes, ZIP_EXPANSION.maxRatio * containerBytes);
  return Math.min(ZIP_EXPANSION.maxBytes, byRatio);
}
