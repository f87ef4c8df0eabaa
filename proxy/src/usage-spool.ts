import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceUnavailableError, type Logger, type UsageReport } from '@gateway/shared';

/** Spooled reports sent at once in a replay. */
const REPLAY_CHUNK = 256;

/** usage-<pid>-<tag>.jsonl, or that name with .replaying-<pid> while a replay holds it */
const FILE = /^usage-(\d+)-[A-Za-z0-9]+\.jsonl(?:\.replaying-(\d+))?$/;

/**
 * A durable local spool for usage reports the policy service could not take. Each report is appended (and
 * synced to disk) as one JSON line to this process's own file; replay sends them again and keeps what still
 * fails. Replays are safe to repeat: the ledger applies each request id once. Files left by a proxy that died
 * are adopted and replayed too.
 */
export class UsageSpool {
  private readonly dir: string;
  private readonly file: string;
  private replaying = false;
  /** Reports in the spool as this process last saw it (its own appends since, and what replays left). */
  private waiting = 0;
  private appendedSinceReplay = 0;

  constructor(dataDir: string, private readonly log: Logger, tag: string) {
    this.dir = join(dataDir, 'spool');
    this.file = join(this.dir, `usage-${process.pid}-${tag}.jsonl`);
  }

  async append(report: UsageReport): Promise<void> {
    await this.appendLines([JSON.stringify(report)]);
    this.waiting += 1;
    this.appendedSinceReplay += 1;
  }

  /** Reports waiting in the spool (for the gateway_usage_spool_reports gauge). */
  get waitingReports(): number {
    return this.waiting;
  }

  private async setAside(line: string): Promise<void> {
    await this.appendLines([line], join(this.dir, 'rejected.jsonl'));
  }

  private async appendLines(lines: string[], file = this.file): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const fh = await open(file, 'a');
    try {
      await fh.write(`${lines.join('\n')}\n`);
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  /** Sends every spooled report; those that fail again go back into the spool. Returns how many were delivered. */
  async replay(send: (r: UsageReport) => Promise<void>): Promise<number> {
    if (this.replaying) return 0;
    this.replaying = true;
    this.appendedSinceReplay = 0;
    let left = 0;
    try {
      let delivered = 0;
      for (const name of await this.claimable()) {
        // Renaming first means appends made meanwhile go to a fresh file and are never lost by the rewrite.
        const claimed = join(this.dir, `${name.replace(/\.replaying-\d+$/, '')}.replaying-${process.pid}`);
        const keep: string[] = [];
        try {
          await rename(join(this.dir, name), claimed);
        } catch {
          continue;
        }
        const lines = (await readFile(claimed, 'utf8')).split('\n').filter((l) => l !== '');
        let i = 0;
        while (i < lines.length) {
          // A chunk goes out at once (one stream write each, in order): acknowledgements wait for the ledger's
          // commit window, and one report at a time would pay it once per report.
          const chunk = lines.slice(i, i + REPLAY_CHUNK);
          const results = await Promise.allSettled(chunk.map((line) => this.sendLine(line, send)));
          for (let j = 0; j < chunk.length; j += 1) {
            const r = results[j] as PromiseSettledResult<'sent' | 'unreadable'>;
            if (r.status === 'fulfilled') {
              if (r.value === 'sent') delivered += 1;
            } else if (!(r.reason instanceof ServiceUnavailableError)) {
              // Refused for good (not a transport failure): set it aside so it cannot block the reports behind it.
              this.log.error({ err: r.reason }, 'usage report refused; kept in the spool\'s rejected file');
              await this.setAside(chunk[j] as string);
            } else {
              keep.push(chunk[j] as string);
            }
          }
          i += chunk.length;
          if (keep.length > 0) break; // still away: keep the rest, in order
        }
        const rest = [...keep, ...lines.slice(i)];
        if (rest.length > 0) {
          left += rest.length;
          try {
            await this.appendLines(rest);
          } catch (err) {
            // Could not write them back: keep the claimed file, under its original name, for the next replay.
            this.log.error({ err }, 'usage spool could not be rewritten');
            await rename(claimed, join(this.dir, name.replace(/\.replaying-\d+$/, ''))).catch(() => undefined);
            return delivered;
          }
        }
        await unlink(claimed);
      }
      if (delivered > 0) this.log.info({ delivered }, 'replayed spooled usage reports');
      return delivered;
    } finally {
      this.waiting = left + this.appendedSinceReplay;
      this.replaying = false;
    }
  }

  /** Sends one spooled line; an unreadable one is skipped (logged without its content). */
  private async sendLine(line: string, send: (r: UsageReport) => Promise<void>): Promise<'sent' | 'unreadable'> {
    let report: UsageReport;
    try {
      report = JSON.parse(line) as UsageReport;
    } catch {
      this.log.error('skipping an unreadable spool line');
      return 'unreadable';
    }
    await send(report);
    return 'sent';
  }

  /** Our own file, plus files (or half-done replays) of proxies that are no longer running. */
  private async claimable(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const ours = this.file.slice(this.dir.length + 1);
    return names.filter((n) => {
      if (n === ours) return true;
      const m = FILE.exec(n);
      return m !== null && !alive(Number(m[2] ?? m[1]));
    });
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
