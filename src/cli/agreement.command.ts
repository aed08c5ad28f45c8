// custody agreement --from-csv FILE [--level nominal|ordinal|interval|ratio]
//                   [--resamples N] [--seed TEXT] [--json]
//
// Inter-rater agreement from raw answers. The CSV: a header row naming the coders (an optional
// first column headed `unit` holds unit labels); one row per unit; an empty cell where a coder
// gave no value. Prints Krippendorff's alpha always; Fleiss' kappa when the level is nominal and
// every unit has the same number of values; Cohen's kappa when the level is nominal and exactly two
// coders rated every unit. Each with a 95% percentile-bootstrap interval over units (default 2,000
// resamples, seed 'custody-bootstrap-v1', generator named in the output). No archive needed.
// Exit 0; 1 when the CSV is refused (wrong number of columns, a non-number at the ordinal,
// interval or ratio level, broken quoting, not UTF-8): the error names the row and column;
// 2 for a usage error (missing or unreadable file, unknown level).
//
// JSON (--json):
//   {
//     "level": "nominal", "units": 12, "coders": 4, "coder_names": ["A", "B", "C", "D"],
//     "pairable_units": 11, "pairable_values": 40,
//     "coefficients": [
//       { "name": "krippendorff_alpha", "value": 0.7434, "units": 11,
//         "interval": { "method": "percentile bootstrap over units", "confidence": 0.95,
//                       "lower": 0.4235, "upper": 1, "valid_resamples": 2000 } }
//     ],                        // then "fleiss_kappa" and "cohen_kappa" where they apply
//     "not_applicable": [ { "name": "fleiss_kappa", "reason": "needs the same number of values on every unit" } ],
//     "bootstrap": { "resamples": 2000, "seed": "custody-bootstrap-v1", "prng": "xoshiro128** (…)" }
//   }
import { parseCsv as parseCsvRecords, type CsvRecord, CustodyError } from '../core/index.js';
import { readFile, stat } from 'node:fs/promises';
import {
  agreementReport,
  MEASUREMENT_LEVELS,
  type AgreementReport,
  type MeasurementLevel,
  type Rating,
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
import { atOption, wantsJson, withArchive } from './context.js';
import { loadSample } from '../examination/blind/index.js';
import { computeStatistics } from '../examination/statistics/statistics.service.js';
import type { ParsedArgs } from './command.js';

/** Agreement per finding on a sample's raw (revealed, not adjudicated) answers. */
async function sampleAgreement(args: ParsedArgs, io: Io, plan: string): Promise<number> {
  const r = await withArchive(args, io, 'read', 'agreement', async (a) => computeStatistics(a, await loadSample(a, plan)), { at: atOption(args) });
  const out = {
    plan: r.sample.name,
    checkpoint: r.checkpoint,
    codebook: r.codebook,
    revealed_cases: r.cases.revealed,
    note: 'present/absent at the nominal level, cannot assess as no value; age band ordinal (undetermined as no value)',
    findings: r.findings.map((f) => ({ code: f.code, label: f.label, agreement: f.agreement })),
    age_band: r.age_band_agreement,
  };
  if (wantsJson(args)) printJson(io, out);
  else {
    io.stdout(`plan ${out.plan}: ${out.revealed_cases} revealed cases, tree size ${out.checkpoint.tree_size}\n`);
    for (const f of out.findings) {
      const cs = f.agreement?.coefficients ?? [];
      io.stdout(`  ${f.label}: ${cs.length === 0 ? 'not computable' : cs.map((c) => `${NAMES[c.name] ?? c.name} ${c.value === null ? 'undefined' : c.value.toFixed(3)}`).join(', ')}\n`);
    }
  }
  return 0;
}

export type AgreementErrorCode = 'AGREEMENT_CSV_INVALID';
/** The CSV was read but refused: a finding about the input (exit 1), not a usage error. */
export class AgreementInputError extends CustodyError<AgreementErrorCode> {
  constructor(message: string) {
    super('AGREEMENT_CSV_INVALID', message);
  }
}

const MAX_CSV_BYTES = 64 * 1024 * 1024;
const NAMES: Record<string, string> = {
  krippendorff_alpha: "Krippendorff's alpha",
  fleiss_kappa: "Fleiss' kappa",
  cohen_kappa: "Cohen's kappa",
};

export const agreementCommand: Command = {
  name: 'agreement',
  summary:
    "inter-rater agreement from a CSV of raw answers (Krippendorff's alpha, Fleiss', Cohen's kappa)",
  usage:
    'custody agreement --from-csv FILE [--level nominal|ordinal|interval|ratio] [--resamples N] [--seed TEXT] [--json] | ' +
    'custody agreement --sample PLAN [--at TREE-SIZE] [--json]   (per finding, on the raw revealed answers)',
  options: {
    sample: { type: 'string' },
    at: { type: 'string' },
    'from-csv': { type: 'string' },
    level: { type: 'string' },
    resamples: { type: 'string' },
    seed: { type: 'string' },
  },
  async run(args, io) {
    const plan = str(args, 'sample');
    if (plan !== undefined) return sampleAgreement(args, io, plan);
    const file = requireStr(args, 'from-csv', this);
    const level = (str(args, 'level') ?? 'nominal') as MeasurementLevel;
    if (!MEASUREMENT_LEVELS.includes(level)) {
      throw new UsageError(
        `--level must be one of ${MEASUREMENT_LEVELS.join(', ')}\nusage: ${this.usage}`,
      );
    }
    const resamplesText = str(args, 'resamples');
    const resamples =
      resamplesText === undefined ? undefined : parseNonNegativeInt(resamplesText, '--resamples');
    if (resamples !== undefined && (resamples < 1 || resamples > 1_000_000)) {
      throw new UsageError('--resamples must be between 1 and 1000000');
    }
    const seed = str(args, 'seed');
    const { coders, matrix } = parseReliabilityCsv(await readCsv(file), level);
    const report = agreementReport(matrix, level, { resamples, seed });
    if (wantsJson(args)) printJson(io, toJson(report, coders));
    else printText(io, report);
    return 0;
  },
};

async function readCsv(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    if ((await stat(file)).size > MAX_CSV_BYTES)
      throw new UsageError(`${file} is larger than ${MAX_CSV_BYTES} bytes`);
    bytes = await readFile(file);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read --from-csv ${file}: ${(e as Error).message}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes); // also drops a leading BOM
  } catch {
    throw new AgreementInputError(`${file} is not UTF-8 text`);
  }
}

/** Shows an untrusted cell in a message: quoted, shortened, with control and bidi characters replaced. */
function quote(s: string): string {
  const short = s.length > 40 ? `${s.slice(0, 40)}…` : s;
  return JSON.stringify(short).replace(
    /[\u0080-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    '\ufffd',
  );
}

/** RFC 4180 records (core/csv), with errors reported as refused agreement input. */
export function parseCsv(text: string): CsvRecord[] {
  return parseCsvRecords(text, (message) => new AgreementInputError(message));
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The reliability data in a CSV (untrusted input, parsed here at the boundary): coder names from
 * the header, one row of values per unit. Surrounding spaces are not significant; an empty cell
 * is no value. Above the nominal level every value must be a plain decimal number.
 */
export function parseReliabilityCsv(
  text: string,
  level: MeasurementLevel,
): { coders: string[]; matrix: (Rating | null)[][] } {
  const [header, ...rows] = parseCsv(text);
  if (header === undefined)
    throw new AgreementInputError('the CSV is empty: expected a header row naming the coders');
  const hasUnit = header.cells[0]?.trim().toLowerCase() === 'unit';
  const coders = header.cells.slice(hasUnit ? 1 : 0).map((c) => c.trim());
  coders.forEach((name, i) => {
    const column = i + (hasUnit ? 2 : 1);
    if (name === '')
      throw new AgreementInputError(`row 1 (the header), column ${column}: a coder needs a name`);
    if (coders.indexOf(name) !== i)
      throw new AgreementInputError(
        `row 1 (the header), column ${column}: coder ${quote(name)} is named twice`,
      );
  });
  if (coders.length < 2)
    throw new AgreementInputError(
      `the header names ${coders.length} coder(s); agreement needs at least two`,
    );
  if (rows.length === 0) throw new AgreementInputError('the CSV has a header but no units');
  const width = header.cells.length;
  const matrix = rows.map((record, r) => {
    const where = `row ${r + 2} (line ${record.line})`;
    if (record.cells.length !== width) {
      const detail =
        record.cells.length > width
          ? `column ${width + 1} is one too many`
          : `column ${record.cells.length + 1} (${quote(header.cells[record.cells.length] ?? '')}) is missing`;
      throw new AgreementInputError(
        `${where} has ${record.cells.length} columns but the header has ${width}: ${detail}`,
      );
    }
    return record.cells.slice(hasUnit ? 1 : 0).map((raw, c): Rating | null => {
      const cell = raw.trim();
      if (cell === '') return null;
      if (level === 'nominal') return cell;
      const place = `${where}, column ${c + (hasUnit ? 2 : 1)} (coder ${quote(coders[c] ?? '')})`;
      const value = Number(cell);
      if (!NUMBER.test(cell) || !Number.isFinite(value)) {
        throw new AgreementInputError(
          `${place}: ${quote(cell)} is not a number; the ${level} level needs numbers (leave the cell empty for no value)`,
        );
      }
      if (level === 'ratio' && value < 0)
        throw new AgreementInputError(
          `${place}: ${cell} is negative; ratio data start at an absolute zero`,
        );
      return value;
    });
  });
  return { coders, matrix };
}

function toJson(report: AgreementReport, coders: string[]): unknown {
  const first = report.coefficients[0]?.interval;
  return {
    level: report.level,
    units: report.units,
    coders: coders.length,
    coder_names: coders,
    pairable_units: report.pairableUnits,
    pairable_values: report.pairableValues,
    coefficients: report.coefficients.map((c) => ({
      name: c.name,
      value: c.value,
      units: c.units,
      interval: {
        method: c.interval.method,
        confidence: 0.95,
        lower: c.interval.lower,
        upper: c.interval.upper,
        valid_resamples: c.interval.validResamples,
      },
    })),
    not_applicable: report.notApplicable,
    bootstrap: { resamples: first?.resamples, seed: first?.seed, prng: first?.prng },
  };
}

function printText(io: Io, r: AgreementReport): void {
  const f = (x: number | null): string => (x === null ? 'undefined' : x.toFixed(3));
  io.stdout(
    `${r.units} units, ${r.coders} coders, level ${r.level}; ` +
      `${r.pairableUnits} units with two or more values (${r.pairableValues} values)\n`,
  );
  for (const c of r.coefficients) {
    const i = c.interval;
    io.stdout(
      `${(NAMES[c.name] ?? c.name).padEnd(21)} ${f(c.value).padStart(9)}   95% CI ${f(i.lower)} – ${f(i.upper)}` +
        `   (${i.validResamples} of ${i.resamples} resamples defined)\n`,
    );
  }
  for (const n of r.notApplicable)
    io.stdout(`${(NAMES[n.name] ?? n.name).padEnd(21)} not applicable: ${n.reason}\n`);
  const i = r.coefficients[0]?.interval;
  if (i !== undefined)
    io.stdout(`bootstrap: ${i.method}, seed ${JSON.stringify(i.seed)}, ${i.prng}\n`);
}
