import { closeSync, openSync, readSync } from 'node:fs';
import type { TaskEvent } from './events.js';
import { eventFromLine } from './stored-events.js';
import type { StoredLine } from './upcast-events.js';

/** Bytes of the first read from a log's end (about a page of messages); each further read doubles, up to the most. */
const FIRST_CHUNK_BYTES = 16 * 1024;
const MOST_CHUNK_BYTES = 1024 * 1024;

/** A line of a log as read from its end: its text, and whether a newline ended it (only the file's last line may lack one). */
export interface BackwardLine {
  readonly text: string;
  readonly ended: boolean;
}

/**
 * Reads a file's lines from its end backwards, a chunk at a time, so the newest lines cost the
 * same whatever the file's size. Only the first `size` bytes are read (the length the reader was
 * made for): lines appended later are not this reader's.
 */
export class BackwardLines {
  /** Bytes before this offset are not read yet. */
  private position: number;
  /** The start of a line whose beginning lies in bytes not read yet (undefined once the first line was handed out). */
  private partial: Buffer | undefined;
  /** Complete lines of the chunk read last, oldest first; handed out from the end. */
  private lines: string[] = [];
  private first = true;
  /** The file does not end with a newline: its last line may have been torn by a crash. */
  private lastUnended = false;
  private handedOut = 0;
  private chunkBytes = FIRST_CHUNK_BYTES;

  constructor(
    private readonly file: string,
    size: number,
  ) {
    this.position = size;
    this.partial = size > 0 ? Buffer.alloc(0) : undefined;
  }

  /** The next older line, or undefined once the start of the file was passed. */
  previous(): BackwardLine | undefined {
    while (this.lines.length === 0) if (!this.readChunk()) return undefined;
    const text = this.lines.pop()!;
    const ended = this.handedOut++ > 0 || !this.lastUnended;
    return { text, ended };
  }

  /** Reads the chunk before the part read so far; false when nothing is left. */
  private readChunk(): boolean {
    if (this.position === 0) {
      if (this.partial === undefined) return false;
      // The file's first line: nothing precedes it.
      this.lines.push(this.partial.toString('utf8'));
      this.partial = undefined;
      return true;
    }
    const length = Math.min(this.chunkBytes, this.position);
    this.chunkBytes = Math.min(MOST_CHUNK_BYTES, this.chunkBytes * 2);
    const chunk = Buffer.alloc(length);
    const fd = openSync(this.file, 'r');
    try {
      for (let read = 0; read < length; ) {
        const got = readSync(fd, chunk, read, length - read, this.position - length + read);
        if (got === 0) throw new Error(`${this.file} became shorter while it was read`);
        read += got;
      }
    } finally {
      closeSync(fd);
    }
    this.position -= length;
    let bytes = this.partial && this.partial.length > 0 ? Buffer.concat([chunk, this.partial]) : chunk;
    if (this.first) {
      this.first = false;
      if (bytes[bytes.length - 1] === 0x0a) bytes = bytes.subarray(0, bytes.length - 1);
      else this.lastUnended = true;
    }
    // Lines split on the newline byte, which never occurs inside a UTF-8 sequence.
    const newline = bytes.indexOf(0x0a);
    if (newline === -1) {
      this.partial = bytes;
      return true;
    }
    this.partial = bytes.subarray(0, newline);
    this.lines = bytes.toString('utf8', newline + 1).split('\n');
    return true;
  }
}

/** Why a line of a log was left out, for the user. */
export type LogProblem = string;

/**
 * Reads one stored line as an event of the current shapes; throws, saying why, when it cannot be
 * read (not JSON, or a version this build does not know). `earlier`: the log's events before it.
 */
export function parseLogLine(text: string, earlier: readonly TaskEvent[] = []): TaskEvent {
  return eventFromLine(JSON.parse(text) as StoredLine, earlier);
}

/** What a reader says of a line that cannot be read: the last one torn by a crash, or a damaged one. */
export function lineProblem(where: string, last: boolean, error: unknown): LogProblem {
  const reason = error instanceof Error ? error.message : String(error);
  return last
    ? `The log's last line was cut off while it was written (Smith was stopped mid-write); it is left out (${reason}).`
    : `${where} of the log could not be read and is left out (${reason}).`;
}

/** One line of a log's bytes: its text, its number (from 1), the byte it starts at, and whether no newline ends it (the last). */
export interface ForwardLine {
  readonly text: string;
  readonly number: number;
  readonly start: number;
  readonly last: boolean;
}

/** The lines of a log's bytes, first to last, blank ones included; text after the last newline comes as a line marked `last`. */
export function* forwardLines(bytes: Buffer): Generator<ForwardLine> {
  let start = 0;
  let number = 0;
  while (start < bytes.length) {
    number++;
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    yield { text: bytes.toString('utf8', start, end), number, start, last: newline === -1 };
    if (newline === -1) return;
    start = newline + 1;
  }
}

/**
 * Every readable event of a log's bytes, and what could not be read: a damaged line anywhere is
 * left out (and said), a torn last line too; nothing readable is lost. Never changes the file.
 */
export function readLogTolerantly(bytes: Buffer): { events: TaskEvent[]; problems: LogProblem[] } {
  const events: TaskEvent[] = [];
  const problems: LogProblem[] = [];
  for (const line of forwardLines(bytes)) {
    if (line.text.trim() === '') continue;
    try {
      events.push(parseLogLine(line.text, events));
    } catch (error) {
      problems.push(lineProblem(`Line ${line.number}`, line.last, error));
    }
  }
  return { events, problems };
}
