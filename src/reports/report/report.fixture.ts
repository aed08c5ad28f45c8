// A gathered report input and a StatisticsReport for the unit tests: synthetic, with an Arabic
// unit name, a hostile delivery codename and one sampling plan.
import { DEFAULT_CODEBOOK } from '../../examination/codebook/index.js';
import type { FindingStatistics, StatisticsReport } from '../../examination/statistics/index.js';
import type { ReportInput } from './input.js';

export const ARABIC_UNIT = 'فرع الأمن العسكري';

const emptyBreakdowns: FindingStatistics['breakdowns'] = {
  unit: [],
  month: [],
  sex: [],
  age_band: [],
};

export const STATISTICS_FIXTURE: StatisticsReport = {
  format: 'custody-statistics',
  version: 1,
  checkpoint: { tree_size: 812, root: 'ab'.repeat(32), signed: true },
  code_version: '0.1.0',
  sample: {
    id: 'S1',
    name: 'Autumn sample',
    unit: 'subjects',
    method: 'simple',
    stratify: null,
    size: 150,
    frame_size: 2000,
    frame_digest: 'cd'.repeat(32),
    seed: 'seed-2026-11-01',
    manifest_digest: 'ef'.repeat(32),
    procedure: 'PROCEDURE.md',
    entries: { frame: 700, seed: 701, manifest: 702 },
  },
  codebook: { version: 'custody-forensic-v1', digest: '12'.repeat(32) },
  cases: {
    sampled: 150,
    revealed: 150,
    final: 150,
    awaiting_submissions: 0,
    awaiting_adjudication: 0,
  },
  demographics: { sex: [{ key: 'male', count: 150 }], age_band: [] },
  findings: [
    {
      code: 'emaciation',
      label: 'Emaciation',
      present: 93,
      absent: 57,
      cannot_assess: 0,
      assessed: 150,
      proportion: 0.62,
      wilson: { method: 'wilson', lower: 0.5403, upper: 0.6937 },
      clopper_pearson: { method: 'clopper-pearson', lower: 0.5374, upper: 0.6976 },
      population: {
        size: 2000,
        estimated_count: 1240,
        count_interval: { method: 'hypergeometric', lower: 1085, upper: 1384 },
      },
      stratified: null,
      sentence: '93 of 150 examined individuals (62%; 95% CI 54–69%) showed emaciation',
      breakdowns: emptyBreakdowns,
      agreement: {
        level: 'nominal',
        units: 150,
        coders: 2,
        pairableUnits: 150,
        pairableValues: 300,
        coefficients: [
          {
            name: 'krippendorff_alpha',
            value: 0.81,
            units: 150,
            interval: {
              method: 'percentile bootstrap',
              lower: 0.7,
              upper: 0.9,
              resamples: 2000,
              validResamples: 2000,
              seed: 'custody-bootstrap-v1',
              prng: 'xoshiro128**',
            },
          },
        ],
        notApplicable: [],
      },
    },
  ],
  age_band_agreement: null,
};

export function inputFixture(overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    archive: { id: '01abc', origin: 'custody.invalid/archive/01abc' },
    checkpoint: {
      size: 812,
      root: 'ab'.repeat(32),
      note: `custody.invalid/archive/01abc\n812\n${Buffer.from('ab'.repeat(32), 'hex').toString('base64')}\n\n— custody.invalid/archive/01abc AAAA\n`,
      signed: true,
      lastEntryTime: '2026-11-29T10:00:00.000Z',
    },
    deliveries: [
      { id: 'D1', source: 'CEDAR', opened_at: '2026-11-01T09:00:00.000Z', closed: true, items: 40 },
      {
        id: 'D2',
        source: '<script>alert(1)</script>',
        opened_at: '2026-11-02T09:00:00.000Z',
        closed: false,
        items: 8,
      },
    ],
    itemCount: 48,
    duplicates: [{ sha256: '99'.repeat(32), items: 2 }],
    authenticity: {
      disclaimer:
        'Indicators point an expert at what to examine; none of them is a verdict that an image was altered.',
      cameras: [
        {
          make: 'Canon',
          model: 'EOS 5D',
          bodySerial: '0042',
          images: 46,
          first: '2013:05:02 10:00:00',
          last: '2013:05:04 11:00:00',
          dimensions: [],
          qualities: [],
          software: [],
        },
      ],
      perCameraPerDay: [
        { camera: 'Canon EOS 5D #0042', day: '2013-05-02', images: 30 },
        { camera: 'Canon EOS 5D #0042', day: '2013-05-04', images: 16 },
      ],
      flagged: [
        {
          sha256: '77'.repeat(32),
          items: ['I7'],
          indicators: [{ code: 'EDITING_SOFTWARE', explanation: 'Software names Photoshop.' }],
        },
      ],
    },
    clusters: [{ id: '55'.repeat(32), objects: 2, items: 3, max_distance: 12 }],
    greyStep: { ran: true, needing: 4, limit: 5000, example: '77'.repeat(32) },
    subjects: {
      checkpoint: { tree_size: 812, root: 'ab'.repeat(32), signed: true },
      subjects: 3,
      by_unit: [
        { unit: 'U1', name_en: 'Military Security Branch', name_ar: ARABIC_UNIT, count: 3 },
      ],
      by_month: [
        { month: '2013-05', count: 2 },
        { month: 'undated', count: 1 },
      ],
      by_unit_month: [
        { unit: 'U1', month: '2013-05', count: 2, by_photograph: 1 },
        { unit: 'U1', month: 'undated', count: 1, by_photograph: 0 },
      ],
    },
    verify: {
      ok: true,
      ledgerSize: 815,
      objectsHashed: 47,
      bytesHashed: 123456,
      checkpointsVerified: 4,
      checkpointsStored: 4,
      problems: [],
    },
    statistics: [STATISTICS_FIXTURE],
    unitChanges: { [STATISTICS_FIXTURE.sample.name]: [] },
    codebook: DEFAULT_CODEBOOK,
    exhibits: [
      {
        item: 'I7',
        name: 'IMG_0007.JPG',
        sha256: '77'.repeat(32),
        seq: 12,
        proof: ['01'.repeat(32), '02'.repeat(32)],
        thumbnail: null,
      },
    ],
    ...overrides,
  };
}
