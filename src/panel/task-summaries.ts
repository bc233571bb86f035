import { existsSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { skippedTaskWarning, summarizeTaskLog, type StoredTaskSummary } from '../core/log/task-log.js';

/** A log as last read: its size and mtime then, and what it said (undefined: no task, or unreadable). */
interface ReadLog {
  readonly size: number;
  readonly mtimeMs: number;
  readonly summary: StoredTaskSummary | undefined;
}

/**
 * The history entry of each stored task, read from its log once and again only when the log's
 * size or mtime changed. The first reading of all logs (a long-time user's history is tens of
 * megabytes) is asynchronous, so no caller waits for it; after it, `current()` costs a stat per
 * task plus the logs that changed. Only regular files are read: a FIFO or a device where a log
 * belongs would never answer. A log that cannot be read is left out with one warning until it changes.
 */
export class TaskSummaries {
  private readonly logs = new Map<string, ReadLog>();
  private loading: Promise<void> | undefined;
  private loaded = false;

  constructor(
    private readonly storageDir: string,
    private readonly warn: (message: string) => void = (message) => process.emitWarning(message),
  ) {}

  /** True once the first reading of every log has finished. */
  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Starts (once) the first reading of every log, file by file without blocking; resolves when done. */
  load(): Promise<void> {
    this.loading ??= this.readAll().then(() => {
      this.loaded = true;
    });
    return this.loading;
  }

  /** The stored tasks, newest first, as their logs are now (the logs read by load() are not read again unless changed). */
  current(): StoredTaskSummary[] {
    const root = this.root();
    const ids = existsSync(root) ? readdirSync(root) : [];
    this.forgetAllBut(ids);
    const summaries: StoredTaskSummary[] = [];
    for (const taskId of ids) {
      const file = this.logFile(taskId);
      let stats: Stats;
      try {
        stats = statSync(file);
      } catch {
        this.logs.delete(taskId);
        continue;
      }
      const known = this.logs.get(taskId);
      const summary = known && unchanged(known, stats) ? known.summary : this.read(taskId, file, stats, () => readFileSync(file));
      if (summary) summaries.push(summary);
    }
    return summaries.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  private async readAll(): Promise<void> {
    let ids: string[];
    try {
      ids = await readdir(this.root());
    } catch {
      return; // No tasks folder yet: nothing stored.
    }
    for (const taskId of ids) {
      const file = this.logFile(taskId);
      let stats: Stats;
      try {
        stats = await stat(file);
      } catch {
        continue; // A folder without a log (a task that never started) is not in the history.
      }
      let bytes: Buffer | undefined;
      if (stats.isFile()) {
        try {
          bytes = await readFile(file);
        } catch (error) {
          this.failed(taskId, stats, error);
          continue;
        }
      }
      this.read(taskId, file, stats, () => bytes ?? Buffer.alloc(0));
    }
  }

  /** Summarises one log and remembers it with the stamp it had before it was read (a later write is then noticed). */
  private read(taskId: string, file: string, stats: Stats, bytes: () => Buffer): StoredTaskSummary | undefined {
    if (!stats.isFile()) {
      this.failed(taskId, stats, new Error(`${file} is not a regular file`));
      return undefined;
    }
    try {
      const summary = summarizeTaskLog(taskId, bytes(), file, () => stats.mtimeMs);
      this.logs.set(taskId, { size: stats.size, mtimeMs: stats.mtimeMs, summary });
      return summary;
    } catch (error) {
      this.failed(taskId, stats, error);
      return undefined;
    }
  }

  private failed(taskId: string, stats: Stats, error: unknown): void {
    this.logs.set(taskId, { size: stats.size, mtimeMs: stats.mtimeMs, summary: undefined });
    this.warn(skippedTaskWarning(taskId, error));
  }

  private forgetAllBut(ids: readonly string[]): void {
    const present = new Set(ids);
    for (const taskId of [...this.logs.keys()]) if (!present.has(taskId)) this.logs.delete(taskId);
  }

  private root(): string {
    return join(this.storageDir, 'tasks');
  }

  private logFile(taskId: string): string {
    return join(this.root(), taskId, 'events.jsonl');
  }
}

function unchanged(known: ReadLog, stats: Stats): boolean {
  return known.size === stats.size && known.mtimeMs === stats.mtimeMs;
}
