// Check 6 on the reference bag built by hand to LAYOUT.md (test/support/export-bag.fixture.ts):
// full, partial with ledger-proofs.jsonl, with withheld entries, and a ledger file that cannot be
// read whole (a finding, never a crash).
import { describe, expect, it } from 'vitest';
import { openBagDir } from '../../src/verify/bagit/bag-dir.adapter.js';
import type { BagSource } from '../../src/verify/bagit/source.js';
import { parsePinnedKey, verifyExport, type ExportReport } from '../../src/verify/index.js';
import { buildExportBag, type BuildOptions, type FixtureBag } from '../support/export-bag.fixture.js';
import { makeTempDir } from '../support/tmp.js';

async function check(opts: BuildOptions, wrap: (s: BagSource) => BagSource = (s) => s): Promise<{ bag: FixtureBag; report: ExportReport }> {
  const bag = await buildExportBag(await makeTempDir('ledger-proof-bag'), opts);
  const source = await openBagDir(bag.dir);
  try {
    return { bag, report: await verifyExport(wrap(source), { pinnedKey: parsePinnedKey(bag.verifierKey) }) };
  } finally {
    await source.close();
  }
}
const codes = (r: ExportReport) => r.findings.map((f) => [f.code, f.severity]);

describe('check 6 on the reference bag', () => {
  it('a full ledger: every line proven by the recomputed root', async () => {
    const { bag, report } = await check({});
    expect(report.findings).toEqual([]);
    expect(report.ledger.full).toBe(true);
    expect(report.ledger.proven.size).toBe(bag.entries.length);
  });

  it('a full ledger with withheld entries: the root recomputes through their leaf hashes', async () => {
    const { report } = await check({ withheldSeqs: [1] });
    expect(report.findings).toEqual([]);
    expect([report.ledger.full, report.ledger.withheld.get(1)]).toEqual([true, { type: 'ingestion start', action: null }]);
  });

  it('a partial ledger: each line proven by ledger-proofs.jsonl, and EXPORT_PROCESS_INCOMPLETE', async () => {
    const { bag, report } = await check({ fullLedger: false });
    expect(codes(report)).toEqual([['EXPORT_PROCESS_INCOMPLETE', 'warning']]);
    expect(report.valid).toBe(true);
    expect([report.ledger.full, report.ledger.proven.size]).toEqual([false, bag.entries.length - 1]);
  });

  it('a ledger.jsonl that cannot be read whole is EXPORT_LAYOUT_INVALID, and nothing is proven', async () => {
    const tooLarge = (s: BagSource): BagSource => ({
      ...s,
      list: () => s.list(),
      digest: (p, a) => s.digest(p, a),
      close: () => s.close(),
      read: (p) => (p === 'custody/ledger.jsonl' ? Promise.reject(new Error('larger than the limit')) : s.read(p)),
    });
    const { report } = await check({}, tooLarge);
    // Nothing can be derived from an unread ledger, so check 7 fails too (its rows are not derived).
    expect(report.steps.find((x) => x.step === 7)?.ok).toBe(false);
    expect(codes({ ...report, findings: report.findings.filter((f) => f.step !== 7) })).toEqual([
      ['EXPORT_LAYOUT_INVALID', 'error'],
      ['EXPORT_ENTRY_UNPROVEN', 'error'],
    ]);
    expect(report.ledger.proven.size).toBe(0);
  });
});
