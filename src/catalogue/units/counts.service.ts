// Subjects counted by unit and by month (of death, else of photography), tied to the checkpoint
// they were computed at: the same figures come back from `custody unit counts --at <tree-size>`.
import type { IndexReads } from '../ports.js';
import { toHex } from '../../core/index.js';
import { isSignedCheckpoint, type SignedCheckpointContext } from '../../ledger/index.js';
import { codeOf } from './registry.js';

export interface CatalogueCounts {
  checkpoint: { tree_size: number; root: string; signed: boolean };
  subjects: number;
  /** What by_unit counts: each subject's unit as attributed at this tree size (not as sampled). */
  attribution?: string;
  by_unit: {
    unit: string;
    code?: number | string | null;
    name_en: string | null;
    name_ar: string | null;
    count: number;
  }[];
  by_month: { month: string; count: number }[];
  /** `by_photograph`: how many of `count` have no date of death and are placed by their photograph's date. */
  by_unit_month: { unit: string; month: string; count: number; by_photograph?: number }[];
}

const UNATTRIBUTED = 'unattributed';
const UNDATED = 'undated';

/** What the counts read: the index, and the ledger to name (and check) the checkpoint they rest on. */
export type CountsPorts = IndexReads<'listSubjects' | 'listUnits'> & {
  readonly treeSize: number;
  readonly ledger: SignedCheckpointContext['ledger'];
  readonly verifierKey: string;
  readonly manifest: { readonly origin: string };
};

export async function catalogueCounts(archive: CountsPorts): Promise<CatalogueCounts> {
  const subjects = (await archive.index.listSubjects()).filter((s) => s.status === 'active');
  const units = new Map((await archive.index.listUnits()).map((u) => [u.id, u]));
  const tally = (keys: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
    return new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };
  const unitOf = (s: (typeof subjects)[number]): string => s.unit_id ?? UNATTRIBUTED;
  const monthOf = (s: (typeof subjects)[number]): string => {
    const d = s.date_of_death ?? s.date_of_photography;
    return d !== null && d.length >= 7 ? d.slice(0, 7) : UNDATED;
  };
  const byPhotograph = tally(
    subjects
      .filter((s) => s.date_of_death === null && monthOf(s) !== UNDATED)
      .map((s) => `${unitOf(s)}\u0000${monthOf(s)}`),
  );
  const size = archive.treeSize;
  return {
    checkpoint: {
      tree_size: size,
      root: toHex(archive.ledger.root(size)),
      signed: await isSignedCheckpoint(
        {
          ledger: archive.ledger,
          verifierKey: archive.verifierKey,
          origin: archive.manifest.origin,
        },
        size,
      ),
    },
    subjects: subjects.length,
    attribution: `current attribution at tree size ${size}`,
    by_unit: [...tally(subjects.map(unitOf))].map(([unit, count]) => {
      const u = units.get(unit);
      return {
        unit,
        code: u === undefined ? null : codeOf(u),
        name_en: u?.name_en ?? null,
        name_ar: u?.name_ar ?? null,
        count,
      };
    }),
    by_month: [...tally(subjects.map(monthOf))].map(([month, count]) => ({ month, count })),
    by_unit_month: [...tally(subjects.map((s) => `${unitOf(s)}\u0000${monthOf(s)}`))].map(
      ([k, count]) => {
        const [unit = '', month = ''] = k.split('\u0000');
        return { unit, month, count, by_photograph: byPhotograph.get(k) ?? 0 };
      },
    ),
  };
}
