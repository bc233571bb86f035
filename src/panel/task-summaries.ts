import { existsSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readLogTolerantly } from '../core/log/log-lines.js';
import { skippedTaskWarning, summarizeTask, type StoredTaskSummary } from '../core/log/task-log.js';
import { uiProjection } from '../core/task/ui-projection.js';
import { factsOfEvents, type TaskFacts } from './task-facts.js';

/** What the panel shows of a stored task besides its messages, and how many messages its whole chat has. */
export interface StoredTaskFacts extends TaskFacts {
  readonly messageCount: number;
}

/** A log as last read: its size and mtime then, and what it said (undefined: no task, or unreadable). */
interface ReadLog {
  readonly size: number;
  readonly mtimeMs: number;
  readonly summary: StoredTaskSummary | undefined;
  /** The task's facts as of the first `readSize` bytes of the log (what was read). */
  readonly facts?: StoredTaskFacts;
  readonly readSize?: number;
}

/**
 * The history entry of each stored task, read from its log once and again only when the log's
 * size or mtime changed. The first reading of all logs (a long-time user's history is tens of
 * megabytes) is asynchronous, so no caller waits for it; after it, `current()` costs a stat per
 * task plus the logs that changed. Only regular files are read: a FIFO or a device where a log
 * belongs would never answer. A log that cannot be read is left out with one warning until it
 * changes; a damaged line in a log is left out of it (readLogTolerantly), with one warning too.
 * The same reading gives the facts a task opened from the history shows (`facts()`).
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

  /**
   * A stored task's facts as its log is now, with the log and how many of its bytes they cover (read
   * now when the log changed since, or was never read: `reread`); undefined when no task of that id is stored.
   */
  facts(taskId: string): { readonly file: string; readonly size: number; readonly facts: StoredTaskFacts; readonly reread: boolean } | undefined {
    const file = this.logFile(taskId);
    let stats: Stats;
    try {
      stats = statSync(file);
    } catch {
      return undefined;
    }
    const known = this.logs.get(taskId);
    const reread = !known || !unchanged(known, stats);
    if (reread) this.read(taskId, file, stats, () => readFileSync(file));
    const read = this.logs.get(taskId);
    return read?.facts && read.readSize !== undefined ? { file, size: read.readSize, facts: read.facts, reread } : undefined;
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
      const read = bytes();
      const { events, problems } = readLogTolerantly(read);
      const summary = summarizeTask(taskId, events, () => stats.mtimeMs);
      const facts = summary ? { ...factsOfEvents(events, problems), messageCount: uiProjection(events).length } : undefined;
      this.logs.set(taskId, { size: stats.size, mtimeMs: stats.mtimeMs, summary, ...(facts ? { facts, readSize: read.length } : {}) });
      if (summary && problems.length > 0) this.warn(damagedTaskWarning(taskId, problems));
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

/** What the history says about a task whose log has lines that could not be read (they are left out). */
function damagedTaskWarning(taskId: string, problems: readonly string[]): string {
  return `Task ${taskId} in the history: ${problems.length === 1 ? problems[0] : `${problems[0]} (and ${problems.length - 1} more)`}`;
}

function unchanged(known: ReadLog, stats: Stats): boolean {
  return known.size === stats.size && known.mtimeMs === stats.mtimeMs;
}
