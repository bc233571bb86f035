import { lastIndexAtOrBefore } from '../../shared/sorted-search.js';

/**
 * LF text split into lines, with the offset where each line starts. The split is made on first
 * use: an exact match found with indexOf needs neither, and splitting a large file costs many
 * times the search itself.
 */
export class TextLines {
  private split: readonly string[] | undefined;
  private lineStarts: readonly number[] | undefined;

  constructor(readonly text: string) {}

  /** The lines, without their newlines. */
  get lines(): readonly string[] {
    this.split ??= this.text.split('\n');
    return this.split;
  }

  private get starts(): readonly number[] {
    if (this.lineStarts === undefined) {
      const starts: number[] = [];
      let offset = 0;
      for (const line of this.lines) {
        starts.push(offset);
        offset += line.length + 1;
      }
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  /** Number of lines (a final newline yields a last, empty line). */
  get count(): number {
    return this.lines.length;
  }

  /** Offset of the first character of a 0-based line. */
  startOf(line: number): number {
    return line >= this.starts.length ? this.text.length : this.starts[line]!;
  }

  /** Offset just past the last character of a 0-based line, before its newline. */
  endOf(line: number): number {
    return this.startOf(line) + (this.lines[line]?.length ?? 0);
  }

  /** The 0-based line that contains an offset. */
  lineAt(offset: number): number {
    return lastIndexAtOrBefore(this.starts, offset);
  }

  /** The first line that starts at or after an offset. */
  firstLineFrom(offset: number): number {
    const line = this.lineAt(offset);
    return this.starts[line] === offset ? line : line + 1;
  }
}

/**
 * True when text[start, end) starts at a line start and ends at a line end. A range that ends just
 * after a newline ends at the start of the next line, not at an end: a SEARCH whose last line is
 * blank must meet a blank line there.
 */
export function isWholeLines(text: string, start: number, end: number): boolean {
  return (start === 0 || text[start - 1] === '\n') && (end === text.length || text[end] === '\n');
}

/** True when only spaces and tabs lie between text[start, end) and the start and end of its lines. */
export function isPaddedLine(text: string, start: number, end: number): boolean {
  const lineStart = start === 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline === -1 ? text.length : newline;
  return /^[ \t]*$/.test(text.slice(lineStart, start)) && /^[ \t]*$/.test(text.slice(end, lineEnd));
}
