import { createHash } from 'node:crypto';
import type { TaskEvent } from '../log/events.js';
import type { FileStamp, KnownFile } from '../log/file-stamp.js';
import type { ToolOutcome } from './tool-spec.js';

export type { FileStamp, KnownFile } from '../log/file-stamp.js';

/** The last stamp of a file in a task's log (the log is the record, so it survives a resume). */
export function lastFileStamp(events: readonly TaskEvent[], absolutePath: string): FileStamp | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'tool_result' && event.details?.file?.path === absolutePath) return event.details.file;
  }
  return undefined;
}

/** Stamps kept in memory where there is no task log (smith mcp-serve's session, tests). */
export class FileStampRecord {
  private readonly stamps = new Map<string, FileStamp>();

  /** Takes the stamp an outcome carries, if any. */
  observe(outcome: ToolOutcome): void {
    if (outcome.kind === 'result' && outcome.details?.file) this.stamps.set(outcome.details.file.path, outcome.details.file);
  }

  readonly get: KnownFile = (absolutePath) => this.stamps.get(absolutePath);
}

/** Hex SHA-256 of a file's bytes, fed chunk by chunk. */
export class ContentHash {
  private readonly hash = createHash('sha256');
  private bytes = 0;

  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
    this.bytes += chunk.byteLength;
  }

  /** Bytes hashed so far. */
  get size(): number {
    return this.bytes;
  }

  stamp(path: string, mtimeMs: number): FileStamp {
    return { path, size: this.bytes, mtimeMs, sha256: this.hash.digest('hex') };
  }
}

/** The stamp of text that was just written (as UTF-8), with the modification time it got. */
export function stampOfText(path: string, text: string, mtimeMs: number): FileStamp {
  const hash = new ContentHash();
  hash.update(new TextEncoder().encode(text));
  return hash.stamp(path, mtimeMs);
}

/**
 * Why an edit of an existing file must not go ahead: the file changed since the model last read
 * or wrote it, or (with `requireRead`, for whole-file writes) the model never read it in this task
 * and it is not empty.
 * Undefined when the edit may go on.
 */
export function staleFileRefusal(
  known: FileStamp | undefined,
  current: FileStamp,
  display: string,
  options: { readonly requireRead: boolean },
): { readonly error: string; readonly mistake: boolean } | undefined {
  if (!known) {
    // An empty file holds nothing the model could overwrite unseen.
    if (!options.requireRead || current.size === 0) return undefined;
    return {
      error: `${display} already exists and you have not read it in this task, so it was not overwritten. Read it with read_file first, then write it again (or change part of it with replace_in_file).`,
      mistake: true,
    };
  }
  if (known.sha256 === current.sha256) return undefined;
  return {
    error: `${display} was changed on disk since you last read or wrote it (by the user or another program), so your edit was not applied and the file keeps those changes. Read it again with read_file, then redo your edit on its current content.`,
    mistake: false,
  };
}
