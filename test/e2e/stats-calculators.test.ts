// The two archive-free calculators, run as a person would: `custody interval` and
// `custody agreement`. Published values are reproduced through the CLI, and hostile or malformed
// CSVs are refused with their row and column. The CLI runs in-process (runCli: the output and the
// exit code the binary gives; test/e2e/cli-contract.test.ts runs the binary itself), which spares
// each of these runs a process that loads Node and the CLI anew.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCustodyInProcess as runCustody } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

interface IntervalJson {
  successes: number;
  trials: number;
  proportion: number;
  confidence: number;
  wilson: { method: string; lower: number; upper: number };
  clopper_pearson: { method: string; lower: number; upper: number };
  population: null | {
    size: number;
    estimated_count: number;
    hypergeometric: {
      count_lower: number;
      count_upper: number;
      proportion_lower: number;
      proportion_upper: number;
    };
  };
}

interface AgreementJson {
  level: string;
  units: number;
  coders: number;
  coder_names: string[];
  pairable_units: number;
  pairable_values: number;
  coefficients: {
    name: string;
    value: number | null;
    units: number;
    interval: {
      lower: number | null;
      upper: number | null;
      valid_resamples: number;
      confidence: number;
    };
  }[];
  not_applicable: { name: string; reason: string }[];
  bootstrap: { resamples: number; seed: string; prng: string };
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: coders A–D as
// columns, twelve units as rows, empty cells for missing values. Published alpha: nominal 0.743,
// ordinal 0.815, interval 0.849, ratio 0.797.
const KRIPPENDORFF_CSV = [
  'unit,A,B,C,D',
  'u1,1,1,,1',
  'u2,2,2,3,2',
  'u3,3,3,3,3',
  'u4,3,3,3,3',
  'u5,2,2,2,2',
  'u6,1,2,3,4',
  'u7,4,4,4,4',
  'u8,1,1,2,1',
  'u9,2,2,2,2',
  'u10,,5,5,5',
  'u11,,,1,1',
  'u12,,,3,',
].join('\r\n');

describe('custody interval', () => {
  it('93 of 150: Wilson and Clopper–Pearson (values checked against SciPy in src/stats)', async () => {
    const r = await runCustody(['interval', '--successes', '93', '--trials', '150', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as IntervalJson;
    expect([j.successes, j.trials, j.proportion, j.confidence]).toEqual([93, 150, 0.62, 0.95]);
    expect(j.wilson.lower).toBeCloseTo(0.5402444138161206, 12);
    expect(j.clopper_pearson.upper).toBeCloseTo(0.6979228157458209, 11);
    expect(j.population).toBeNull();
  });

  it('Newcombe (1998) Table I, 81/263, and the text form', async () => {
    const r = await runCustody(['interval', '--successes', '81', '--trials', '263', '--json']);
    const j = JSON.parse(r.stdout) as IntervalJson;
    expect([j.wilson.lower.toFixed(4), j.wilson.upper.toFixed(4)]).toEqual(['0.2553', '0.3662']);
    expect([j.clopper_pearson.lower.toFixed(4), j.clopper_pearson.upper.toFixed(4)]).toEqual([
      '0.2527',
      '0.3676',
    ]);
    const text = await runCustody(['interval', '--successes', '81', '--trials', '263']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('81 of 263 (30.8%)');
    expect(text.stdout).toMatch(/Wilson score\s+25\.5%–36\.6%/);
  });

  it('with --population: the exact hypergeometric interval for the number affected', async () => {
    const r = await runCustody([
      'interval',
      '--successes',
      '93',
      '--trials',
      '150',
      '--population',
      '2000',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as IntervalJson;
    expect(j.population?.size).toBe(2000);
    expect(j.population?.estimated_count).toBeCloseTo(1240, 9);
    expect(j.population?.hypergeometric).toMatchObject({
      count_lower: 1081,
      count_upper: 1390,
      proportion_lower: 0.5405,
    });
  });

  it('usage errors exit 2', async () => {
    for (const args of [
      ['interval', '--trials', '10'],
      ['interval', '--successes', '11', '--trials', '10'],
      ['interval', '--successes', '1', '--trials', '10', '--population', '5'],
      ['interval', '--successes', '-1', '--trials', '10'],
      ['interval', '--successes', '1.5', '--trials', '10'],
    ]) {
      const r = await runCustody(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('[USAGE]');
    }
  });
});

describe('custody agreement', () => {
  let dir = '';
  const csv = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  beforeAll(async () => {
    dir = await makeTempDir('stats-calculators');
  });

  it('reproduces Krippendorff (2011) at every level, with a reproducible bootstrap', async () => {
    const file = await csv('krippendorff.csv', KRIPPENDORFF_CSV);
    const published = { nominal: '0.743', ordinal: '0.815', interval: '0.849', ratio: '0.797' };
    for (const [level, alpha] of Object.entries(published)) {
      const r = await runCustody(['agreement', '--from-csv', file, '--level', level, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as AgreementJson;
      expect(j.coefficients[0]?.name).toBe('krippendorff_alpha');
      expect(j.coefficients[0]?.value?.toFixed(3), level).toBe(alpha);
      expect([j.units, j.coders, j.pairable_units, j.pairable_values]).toEqual([12, 4, 11, 40]);
      expect(j.coder_names).toEqual(['A', 'B', 'C', 'D']);
      expect(j.not_applicable.map((n) => n.name)).toEqual(['fleiss_kappa', 'cohen_kappa']);
    }
    const once = await runCustody(['agreement', '--from-csv', file, '--json']);
    const again = await runCustody(['agreement', '--from-csv', file, '--json']);
    expect(once.stdout).toBe(again.stdout);
    const j = JSON.parse(once.stdout) as AgreementJson;
    expect(j.bootstrap).toMatchObject({ resamples: 2000, seed: 'custody-bootstrap-v1' });
    expect(j.coefficients[0]?.interval.lower).toBe(0.42352834598590405);
    const text = await runCustody(['agreement', '--from-csv', file]);
    expect(text.stdout).toMatch(/Krippendorff's alpha\s+0\.743\s+95% CI 0\.424 – 1\.000/);
  });

  it('two coders, every unit rated: Cohen and Fleiss too; RFC 4180 quoting; formulas are values', async () => {
    // Wikipedia, "Cohen's kappa": 20 Yes/Yes, 5 Yes/No, 10 No/Yes, 15 No/No -> κ = 0.4.
    const rows = [
      ...Array<string>(20).fill('Yes,Yes'),
      ...Array<string>(5).fill('Yes,No'),
      ...Array<string>(10).fill('No,Yes'),
      ...Array<string>(15).fill('No,No'),
    ];
    const file = await csv('cohen.csv', `\ufeff"Reader ""A""",Reader B\n${rows.join('\n')}\n`);
    const r = await runCustody(['agreement', '--from-csv', file, '--json', '--resamples', '300']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as AgreementJson;
    expect(j.coder_names).toEqual(['Reader "A"', 'Reader B']);
    expect(j.coefficients.map((c) => c.name)).toEqual([
      'krippendorff_alpha',
      'fleiss_kappa',
      'cohen_kappa',
    ]);
    expect(j.coefficients[2]?.value).toBeCloseTo(0.4, 14);
    expect(j.bootstrap.resamples).toBe(300);

    const formulas = await csv('formulas.csv', 'A,B\n=1+1,=1+1\n"@SUM(A1)","x,y"\n+2,+2\n');
    const f = await runCustody(['agreement', '--from-csv', formulas, '--json']);
    expect(f.code, f.stderr).toBe(0);
    expect((JSON.parse(f.stdout) as AgreementJson).units).toBe(3);
  });

  it('refuses a row with the wrong number of columns, naming the row and column (exit 1)', async () => {
    const file = await csv('short-row.csv', 'unit,A,B,C\nu1,1,2,3\nu2,1,2\n');
    const r = await runCustody(['agreement', '--from-csv', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'row 3 (line 3) has 3 columns but the header has 4: column 4 ("C") is missing',
    );
    expect(r.stderr).toContain('[AGREEMENT_CSV_INVALID]');
    const long = await runCustody([
      'agreement',
      '--from-csv',
      await csv('long-row.csv', 'A,B\n1,2,3\n'),
    ]);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain(
      'row 2 (line 2) has 3 columns but the header has 2: column 3 is one too many',
    );
  });

  it('refuses non-numbers at the interval level and broken quoting (exit 1)', async () => {
    const file = await csv('text.csv', 'A,B\n1,2\n3,"=HYPERLINK(""x"")"\n');
    const r = await runCustody(['agreement', '--from-csv', file, '--level', 'interval']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'row 3 (line 3), column 2 (coder "B"): "=HYPERLINK(\\"x\\")" is not a number',
    );
    const quote = await runCustody([
      'agreement',
      '--from-csv',
      await csv('quote.csv', 'A,B\n1,ab"c\n'),
    ]);
    expect(quote.code).toBe(1);
    expect(quote.stderr).toContain('row 2 (line 2), column 2: a quote inside an unquoted field');
    const open = await runCustody([
      'agreement',
      '--from-csv',
      await csv('open.csv', 'A,B\n1,"2\n3,4\n'),
    ]);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain('a quoted field is never closed');
  });

  it('usage errors exit 2: no file, a missing file, an unknown level', async () => {
    const file = await csv('ok.csv', 'A,B\n1,1\n2,2\n');
    for (const args of [
      ['agreement'],
      ['agreement', '--from-csv', join(dir, 'does-not-exist.csv')],
      ['agreement', '--from-csv', file, '--level', 'cardinal'],
      ['agreement', '--from-csv', file, '--resamples', '0'],
    ]) {
      const r = await runCustody(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('[USAGE]');
    }
  });
});
