import type { FileInfo, FileSystemPort } from '../ports.js';
import { TextChunkDecoder } from './file-text.js';
import { ContentHash, type FileStamp } from './file-stamping.js';

/** Which lines to keep, and how many characters of numbered output they may take. */
interface LineWindowRequest {
  /** First line to keep (1-based). */
  readonly first: number;
  /** Last line to keep (inclusive). */
  readonly last: number;
  /** Budget for the numbered lines ("N | text" plus newline each). */
  readonly maxChars: number;
  readonly signal?: AbortSignal;
  /** Also hand back the file's bytes when it has at most this many (to keep the version read). */
  readonly keepBytesUpTo?: number;
}

/** The kept lines of a text file, with what the rest of the file held. */
export interface LineWindow {
  readonly kind: 'text';
  /** Lines first, first+1, ...; the last one may be cut (see `cutLine`). */
  readonly lines: readonly string[];
  readonly totalLines: number;
  /** A line longer than the whole budget, shown only up to it. */
  readonly cutLine?: { readonly number: number; readonly length: number };
  /** True when the budget, not the requested range, ended the window. */
  readonly cappedByChars: boolean;
  readonly stamp: FileStamp;
  /** The whole file, when it was no larger than `keepBytesUpTo`. */
  readonly bytes?: Uint8Array;
}

/** The width of "N | " for line numbers up to `last`. */
function linePrefixWidth(last: number): number {
  return String(last).length + 3;
}

/**
 * Streams a file and keeps only the requested lines, never more than the budget: a huge file or a
 * single huge line costs memory for what is shown, not for what is read. The whole file is still
 * read (a chunk at a time) to count its lines and hash it; a binary file stops at its first bytes.
 */
export async function readLineWindow(
  files: FileSystemPort,
  absolutePath: string,
  info: FileInfo,
  request: LineWindowRequest,
): Promise<LineWindow | { readonly kind: 'binary' }> {
  const collector = new LineCollector(request);
  const decoder = new TextChunkDecoder();
  const hash = new ContentHash();
  // Chunks are held only while the file is small enough to keep whole.
  let kept: Uint8Array[] | undefined = request.keepBytesUpTo !== undefined && info.size <= request.keepBytesUpTo ? [] : undefined;
  for await (const chunk of files.readChunks(absolutePath, request.signal ? { signal: request.signal } : {})) {
    hash.update(chunk);
    const text = decoder.push(chunk);
    if (text === undefined) return { kind: 'binary' };
    collector.push(text);
    if (kept && hash.size > (request.keepBytesUpTo ?? 0)) kept = undefined;
    kept?.push(chunk);
  }
  const rest = decoder.end();
  if (rest === undefined) return { kind: 'binary' };
  collector.push(rest);
  const stamp = hash.stamp(absolutePath, info.mtimeMs);
  return { kind: 'text', ...collector.finish(), stamp, ...(kept ? { bytes: Buffer.concat(kept) } : {}) };
}

/** The same window over text already in memory (a notebook's view), with the stamp of the file it came from. */
export function windowOfText(text: string, stamp: FileStamp, request: Omit<LineWindowRequest, 'signal'>): LineWindow {
  const collector = new LineCollector(request);
  collector.push(text);
  return { kind: 'text', ...collector.finish(), stamp };
}

/** Splits streamed text into lines, keeping those in the window within the character budget. */
class LineCollector {
  private readonly lines: string[] = [];
  private readonly prefix: number;
  private budget: number;
  private lineNumber = 1;
  private started = false;
  private closed = false;
  private cappedByChars = false;
  private cutLine: { number: number; length: number } | undefined;
  /** The current line: its kept parts and its full length. */
  private parts: string[] = [];
  private kept = 0;
  private length = 0;
  private endsWithCr = false;

  constructor(private readonly request: LineWindowRequest) {
    this.prefix = linePrefixWidth(request.last);
    this.budget = request.maxChars;
  }

  push(text: string): void {
    let piece = text;
    if (!this.started && piece !== '') {
      this.started = true;
      if (piece.startsWith('\uFEFF')) piece = piece.slice(1);
    }
    let at = 0;
    for (;;) {
      const newline = piece.indexOf('\n', at);
      this.append(piece, at, newline === -1 ? piece.length : newline);
      if (newline === -1) return;
      this.endLine(true);
      at = newline + 1;
    }
  }

  finish(): Pick<LineWindow, 'lines' | 'totalLines' | 'cutLine' | 'cappedByChars'> {
    // Text after the last newline is a last line; nothing after it means the file ended with one.
    if (this.length > 0) this.endLine(false);
    return { lines: this.lines, totalLines: this.lineNumber - 1, cappedByChars: this.cappedByChars, ...(this.cutLine ? { cutLine: this.cutLine } : {}) };
  }

  private get keeping(): boolean {
    return !this.closed && this.lineNumber >= this.request.first;
  }

  private append(piece: string, start: number, end: number): void {
    if (end <= start) return;
    this.length += end - start;
    this.endsWithCr = piece.charCodeAt(end - 1) === 13;
    if (!this.keeping) return;
    // Never keep more of a line than could be shown.
    const room = Math.max(0, this.budget - this.prefix - this.kept);
    const take = Math.min(room, end - start);
    if (take > 0) {
      this.parts.push(piece.slice(start, start + take));
      this.kept += take;
    }
  }

  private endLine(byNewline: boolean): void {
    if (this.keeping) {
      const length = byNewline && this.endsWithCr ? this.length - 1 : this.length;
      const text = this.parts.join('').slice(0, length);
      const cost = this.prefix + length + 1;
      if (cost <= this.budget) {
        this.lines.push(text);
        this.budget -= cost;
      } else {
        if (this.lines.length === 0) {
          this.lines.push(text);
          this.cutLine = { number: this.lineNumber, length };
        }
        this.closed = true;
        this.cappedByChars = true;
      }
      if (this.lineNumber >= this.request.last) this.closed = true;
    }
    this.parts = [];
    this.kept = 0;
    this.length = 0;
    this.endsWithCr = false;
    this.lineNumber++;
  }
}
