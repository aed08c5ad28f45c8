import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Archive } from '../app.js';
import { loadSample } from '../examination/blind/index.js';
import { computeStatistics } from '../examination/statistics/statistics.service.js';
import type { StatisticsReport } from '../examination/statistics/index.js';
import { verifyArchive } from '../integrity/archive-verify.service.js';
import { latestSignedCheckpoint } from '../ledger/index.js';
import {
  bagCheckpointSize,
  buildReportModel,
  checkBagCitations,
  DEFAULT_CHROMIUM,
  exhibitThumbnail,
  findChromium,
  gatherReportInput,
  printPdf,
  readReportBag,
  REPORT_TEMPLATES,
  ReportError,
  reportHtml,
  type ReportInput,
  type ReportTemplate,
} from '../reports/report/index.js';
import { CODE_VERSION } from '../version.js';
import { flag, list, printJson, requireStr, str, UsageError, type Command, type Io } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { progressLine, type ProgressFn } from './progress.js';
import { countingHashFiles } from '../store/hash-files.adapter.js';

export const reportCommand: Command = {
  name: 'report',
  summary:
    'an evidence report (HTML or PDF) at a signed checkpoint; every figure footnoted with the command that reproduces it',
  usage:
    'custody report --template tribunal|summary [--bag DIR] [--at TREE-SIZE] --out FILE.html|FILE.pdf [--exhibits ITEM,…]… [--include-images [--unblurred-images]] [--json]   ' +
    "(--bag: drawn at the export bag's checkpoint, which must be one of this archive's; each figure the bag holds is footnoted with its place in the bag)",
  options: {
    template: { type: 'string' },
    at: { type: 'string' },
    bag: { type: 'string' },
    out: { type: 'string' },
    exhibits: { type: 'string', multiple: true },
    'include-images': { type: 'boolean' },
    'unblurred-images': { type: 'boolean' },
  },
  async run(args, io) {
    if (args.positionals.length > 0)
      throw new UsageError(`report takes no positional arguments\nusage: ${this.usage}`);
    const template = requireStr(args, 'template', this);
    if (!(REPORT_TEMPLATES as readonly string[]).includes(template))
      throw new UsageError(`--template is tribunal or summary, got "${template}"`);
    const out = requireStr(args, 'out', this);
    const ext = extname(out).toLowerCase();
    if (ext !== '.html' && ext !== '.pdf')
      throw new UsageError(`--out names a .html or .pdf file, got "${out}"`);
    const exhibits = list(args, 'exhibits')
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const includeImages = flag(args, 'include-images');
    if (includeImages && exhibits.length === 0)
      throw new UsageError(
        '--include-images shows thumbnails of the selected exhibits only: give --exhibits ITEM,…',
      );
    const unblurred = flag(args, 'unblurred-images');
    if (unblurred && !includeImages)
      throw new UsageError(
        '--unblurred-images shows the thumbnails of --include-images unblurred: give --include-images too',
      );
    const at = atOption(args);
    const bagDir = str(args, 'bag');
    const bag = bagDir === undefined ? null : await readReportBag(bagDir);

    const progress = progressLine(io, args);
    // The whole archive, still: verify it, and find the checkpoint (the bag's, else the latest
    // signed one by default).
    const { size, verify } = await withArchive(
      args,
      io,
      'read',
      'report',
      async (archive) => {
        const ctx = { ledger: archive.ledger, verifierKey: archive.verifierKey, origin: archive.manifest.origin };
        const bagSize = bag === null ? null : bagCheckpointSize(bag, { ...ctx, ledgerSize: archive.ledger.size, rootAt: (n) => archive.ledger.root(n) });
        if (bagSize !== null && at !== undefined && at !== bagSize)
          throw new UsageError(`--at ${at}: the bag is tied to checkpoint ${bagSize}, and a report with --bag is drawn at it (leave out --at)`);
        const n = bagSize ?? at ?? (await latestSignedCheckpoint(ctx)) ?? 0;
        return { size: n, verify: await runVerify(archive, progress?.report) };
      },
      { lock: true, index: 'tolerate' },
    );
    if (size === 0)
      throw new ReportError('REPORT_NO_CHECKPOINT', 'the archive has no signed checkpoint yet');
    const input = await withArchive(
      args,
      io,
      'read',
      'report',
      (archive) =>
        gatherReportInput(archive, exhibits, {
          verify,
          thumbnail: includeImages ? (sha) => exhibitThumbnail(archive, sha, { unblurred }) : null,
          unblurred,
          statistics: (a) => {
            progress?.report('statistics of every plan', 0);
            return statisticsOfEveryPlan(a);
          },
        }),
      // With --bag, the figures are read as the bag's export read them: a plan's cases linked to
      // their members only by its close (not through the examination KEK), so that the report of
      // a bag made before a plan's close matches the bag instead of refusing it (REPORT_BAG_MISMATCH).
      bag === null ? { at: size } : { at: size, caseLinks: 'published' },
    );
    progress?.end();
    const model = buildReportModel(input, {
      template: template as ReportTemplate,
      generatedAt: new Date().toISOString(),
      codeVersion: CODE_VERSION,
      bag,
    });
    if (bag !== null) checkBagCitations(model.footnotes, bag);
    const html = await reportHtml(model);

    let htmlPath: string | null = null;
    let pdfPath: string | null = null;
    let pdfUnavailable: string | null = null;
    if (ext === '.html') {
      await write(out, html);
      htmlPath = out;
    } else {
      const chromiumPath = io.env.CUSTODY_CHROMIUM || DEFAULT_CHROMIUM;
      const executable = findChromium(chromiumPath);
      if (executable === null) {
        htmlPath = `${out.slice(0, -ext.length)}.html`;
        await write(htmlPath, html);
        pdfUnavailable = `${chromiumPath} not found: install Chromium (scripts/install-system-deps.sh) to print PDF`;
        io.stderr(
          `custody: warning: no PDF written: ${pdfUnavailable}; wrote the HTML to ${htmlPath} instead [REPORT_PDF_UNAVAILABLE]\n`,
        );
      } else {
        await printPdf(html, out, {
          executablePath: executable,
          footer: `${model.title} · ${input.archive.origin} · checkpoint ${size}`,
        });
        pdfPath = out;
      }
    }
    report(io, wantsJson(args), {
      template,
      input,
      bag: bagDir ?? null,
      htmlPath,
      pdfPath,
      pdfUnavailable,
      generatedAt: model.generated.at,
      footnotes: model.footnotes,
    });
    return verify.ok ? 0 : 1;
  },
};

/** `custody stats PLAN --at N --json` for every sampling plan at the checkpoint, in the index's order. */
async function statisticsOfEveryPlan(archive: Archive): Promise<StatisticsReport[]> {
  const out: StatisticsReport[] = [];
  for (const s of await archive.examinations.listSamples()) {
    out.push(await computeStatistics(archive, await loadSample(archive, s.name)));
  }
  return out;
}

async function runVerify(archive: Archive, report?: ProgressFn): Promise<ReportInput['verify']> {
  const r = await verifyArchive({ archive, hashFiles: countingHashFiles(report) }, [], report);
  return {
    ok: r.ok,
    ledgerSize: r.ledger.size,
    objectsHashed: r.objects.hashed,
    bytesHashed: r.objects.bytes,
    checkpointsVerified: r.checkpoints.verified,
    checkpointsStored: r.checkpoints.stored,
    problems: r.findings
      .filter((f) => f.severity === 'error')
      .map((f) => ({ code: f.code, message: f.message })),
  };
}

async function write(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (e) {
    throw new ReportError('REPORT_WRITE_FAILED', `cannot write ${path}: ${(e as Error).message}`);
  }
}

function report(
  io: Io,
  json: boolean,
  r: {
    template: string;
    input: ReportInput;
    bag: string | null;
    htmlPath: string | null;
    pdfPath: string | null;
    pdfUnavailable: string | null;
    generatedAt: string;
    footnotes: ReturnType<typeof buildReportModel>['footnotes'];
  },
): void {
  if (json) {
    printJson(io, {
      template: r.template,
      checkpoint: { size: r.input.checkpoint.size, root: r.input.checkpoint.root },
      bag: r.bag,
      verified: r.input.verify.ok,
      html: r.htmlPath,
      pdf: r.pdfPath,
      pdf_unavailable: r.pdfUnavailable,
      images: r.input.images ?? 'none',
      generated_at: r.generatedAt,
      footnotes: r.footnotes,
    });
    return;
  }
  const wrote = r.pdfPath ?? r.htmlPath ?? '';
  io.stdout(
    `wrote ${wrote}: ${r.template} report at checkpoint ${r.input.checkpoint.size}${r.bag === null ? '' : ` (the bag's)`}, ${r.footnotes.length} footnotes${r.input.images === 'unblurred' ? ', images UNBLURRED' : r.input.images === 'blurred' ? ', images blurred' : ''}${r.input.verify.ok ? '' : ', VERIFICATION FAILED'}\n`,
  );
}
