import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One line of the security log: never a password, never a typed name in clear. */
export interface SecurityEvent {
  event: 'sign-in-failed' | 'sign-in-locked';
  time: string;
  ip: string;
  /** HMAC-SHA256 of the typed name (normalised) under the server's security-log key, hex. */
  name_mac: string;
  /** The account the name belongs to, when it is one (its id, not its name). */
  account: string | null;
  reason: 'unknown-name' | 'wrong-password' | 'disabled' | 'locked';
}

/**
 * The server's security log (`logs/security.log` in the archive folder): failed and refused
 * sign-ins, one JSON line each. Not the ledger: anyone could grow a permanent ledger by failing
 * sign-ins, and a password typed into the name field would reach it. Rotated by size: the full
 * file becomes `security.log.1` (and so on, `keep` files), the oldest is dropped.
 */
export class SecurityLog {
  private queue: Promise<void> = Promise.resolve();
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly maxBytes = 1024 * 1024,
    private readonly keep = 5,
  ) {
    this.file = join(dir, 'security.log');
  }

  get path(): string {
    return this.file;
  }

  append(event: SecurityEvent): Promise<void> {
    const line = `${JSON.stringify(event)}\n`;
    const run = this.queue.then(() => this.write(line));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(line: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const size = (await stat(this.file).catch(() => null))?.size ?? 0;
    if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) await this.rotate();
    await appendFile(this.file, line, { mode: 0o600 });
  }

  private async rotate(): Promise<void> {
    for (let i = this.keep - 1; i >= 1; i--)
      await rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(() => undefined);
    await rename(this.file, `${this.file}.1`);
  }
}
