import type { ExifTool } from 'exiftool-vendored';
import { MetadataError } from './errors.js';

/**
 * The full metadata dump, for the examiner and for the record: what `exiftool -json -n -G <file>`
 * prints, one object with group-prefixed keys ("EXIF:Make", "Composite:GPSLatitude") and
 * numeric values (-n: no print conversion; dates remain ExifTool's literal strings).
 * Slow next to exifr (a Perl process behind a pipe, ~10 ms a file) but complete, maker notes
 * included. A corrupt file resolves with ExifTool's own "ExifTool:Error" key; a file ExifTool
 * cannot open rejects with METADATA_EXIFTOOL_FAILED; a file it chokes on rejects with
 * METADATA_EXIFTOOL_TIMEOUT after the per-file limit (exiftool-vendored's taskTimeoutMillis,
 * set to the same limit, ends the stuck process; other files carry on in a fresh one).
 */
export interface ExifToolAdapterOptions {
  /** Per-file limit (default EXIFTOOL_TIMEOUT_MS). */
  timeoutMs?: number;
  /** ExifTool processes to keep running (default 1). */
  maxProcs?: number;
}

export const EXIFTOOL_TIMEOUT_MS = 20_000;

/** The keys exiftool-vendored adds to readRaw's result; they are not ExifTool output. */
const VENDORED_KEYS = ['errors', 'warnings'] as const;

export class ExifToolAdapter {
  readonly #timeoutMs: number;
  readonly #maxProcs: number;
  #exiftool: ExifTool | null = null;

  constructor(options: ExifToolAdapterOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? EXIFTOOL_TIMEOUT_MS;
    this.#maxProcs = options.maxProcs ?? 1;
  }

  /**
   * @example
   *   const dump = await exiftool.fullExifDump('/evidence/IMG_0001.JPG');
   *   dump['EXIF:Make'] // 'NIKON'
   */
  async fullExifDump(
    path: string,
    options: { timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    // -G: family-0 group names; -n: raw values. No -fast: read the whole file, trailers too.
    const task = (await this.#instance()).readRaw(path, {
      readArgs: ['-G', '-n'],
      ignoreMinorErrors: false,
    });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new MetadataError(
            'METADATA_EXIFTOOL_TIMEOUT',
            `ExifTool gave no answer for ${path} within ${timeoutMs} ms`,
            { details: { path, timeoutMs } },
          ),
        );
      }, timeoutMs);
    });
    task.catch(() => undefined); // if the limit wins, the task's own later rejection is expected
    try {
      const tags: unknown = await Promise.race([task, limit]);
      if (typeof tags !== 'object' || tags === null)
        throw new Error('ExifTool returned no JSON object');
      const dump: Record<string, unknown> = { ...(tags as Record<string, unknown>) };
      for (const k of VENDORED_KEYS) delete dump[k];
      return dump;
    } catch (e) {
      if (e instanceof MetadataError) throw e;
      throw new MetadataError('METADATA_EXIFTOOL_FAILED', `ExifTool could not read ${path}`, {
        cause: e,
        details: { path },
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the ExifTool processes. Safe to call twice; a later fullExifDump starts new ones. */
  async close(): Promise<void> {
    const exiftool = this.#exiftool;
    this.#exiftool = null;
    if (exiftool !== null) await exiftool.end();
  }

  /** exiftool-vendored is loaded on first use, so that commands that read no metadata do not pay for it. */
  async #instance(): Promise<ExifTool> {
    const { ExifTool } = await import('exiftool-vendored');
    this.#exiftool ??= new ExifTool({
      maxProcs: this.#maxProcs,
      taskTimeoutMillis: this.#timeoutMs,
      taskRetries: 0,
    });
    return this.#exiftool;
  }
}

const shared = new ExifToolAdapter();

/** fullExifDump on a process-wide adapter; end it with closeExifTool() (tests: afterAll). */
export function fullExifDump(
  path: string,
  options: { timeoutMs?: number } = {},
): Promise<Record<string, unknown>> {
  return shared.fullExifDump(path, options);
}

export function closeExifTool(): Promise<void> {
  return shared.close();
}
