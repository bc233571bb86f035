import { TerminalText } from './terminal-text.js';

/** How much command output is kept for the model: the first and last lines within a character budget. */
export interface OutputLimits {
  readonly headLines: number;
  readonly tailLines: number;
  /** Head and tail together; split between them in proportion to their line counts. */
  readonly maxChars: number;
}

/** Limits for a tool result: first 100 + last 300 lines, about 50 KB in all. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { headLines: 100, tailLines: 300, maxChars: 50_000 };

// CSI (colours, cursor moves), OSC (titles, hyperlinks; ended by BEL or ST), charset selection and
// the remaining two-character escapes, plus the 8-bit CSI some programs still emit.
const ANSI_PATTERN = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()#][0-9A-Za-z]|\x1b[@-Z\\-_=>]|\u009b[0-?]*[ -/]*[@-~]/g;
// Other control characters (bell, backspace, ...) mean nothing to the model; tabs stay.
const CONTROL_PATTERN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Removes ANSI escape sequences and stray control characters (keeps tabs and newlines). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '').replace(CONTROL_PATTERN, '');
}

/**
 * Collects a command's output as it streams, as a terminal shows it (TerminalText: no escape
 * sequences, progress bars rewritten in place), capped: past the limits it keeps the head and the
 * tail and counts what was cut in between.
 */
export class OutputBuffer {
  private readonly limits: OutputLimits;
  private readonly headBudget: number;
  private readonly tailBudget: number;
  private head: string[] = [];
  private headChars = 0;
  private headFull = false;
  private tail: string[] = [];
  private tailChars = 0;
  private readonly terminal = new TerminalText();
  private omittedLines = 0;
  private omittedChars = 0;

  constructor(limits: Partial<OutputLimits> = {}) {
    this.limits = { ...DEFAULT_OUTPUT_LIMITS, ...limits };
    const { headLines, tailLines, maxChars } = this.limits;
    this.headBudget = Math.floor((maxChars * headLines) / Math.max(1, headLines + tailLines));
    this.tailBudget = Math.max(1, maxChars - this.headBudget);
  }

  /** True once something was cut from the middle. */
  get truncated(): boolean {
    return this.omittedLines > 0 || this.omittedChars > 0;
  }

  /** True when nothing (after cleaning) has been kept. */
  get isEmpty(): boolean {
    return this.head.length === 0 && this.tail.length === 0 && this.terminal.currentLine === '';
  }

  /** Adds a chunk exactly as the process printed it. */
  append(chunk: string): void {
    for (const line of this.terminal.write(chunk)) this.addLine(line);
    // A line that never ends (a minified file, a stuck spinner without "\r") must not grow without bound.
    if (this.terminal.currentLine.length > this.tailBudget) this.addLine(this.terminal.breakLine());
  }

  /** The kept output: head, a note saying how much was cut, tail, and any unfinished last line. */
  render(): string {
    const lines = [...this.head];
    if (this.truncated) lines.push(this.omissionNote());
    lines.push(...this.tail);
    const last = this.terminal.currentLine;
    if (last !== '') lines.push(last);
    return lines.join('\n');
  }

  /** Renders what was collected and starts over empty (for "new output since the last report"). */
  take(): string {
    const text = this.render();
    this.head = [];
    this.headChars = 0;
    this.headFull = false;
    this.tail = [];
    this.tailChars = 0;
    this.terminal.forgetLine();
    this.omittedLines = 0;
    this.omittedChars = 0;
    return text;
  }

  private omissionNote(): string {
    const chars = `${this.omittedChars.toLocaleString('en-US')} characters`;
    if (this.omittedLines === 0) return `[... ${chars} omitted ...]`;
    const lines = `${this.omittedLines.toLocaleString('en-US')} line${this.omittedLines === 1 ? '' : 's'}`;
    return `[... ${lines} (${chars}) omitted ...]`;
  }

  private addLine(line: string): void {
    if (!this.headFull) {
      if (this.head.length < this.limits.headLines && this.headChars + line.length + 1 <= this.headBudget) {
        this.head.push(line);
        this.headChars += line.length + 1;
        return;
      }
      this.headFull = true;
      if (this.head.length === 0 && this.limits.headLines > 0) {
        // Even a single giant first line shows how the output began.
        this.head.push(line.slice(0, this.headBudget));
        this.headChars = this.headBudget;
        this.omittedChars += line.length - this.headBudget;
        return;
      }
    }
    this.tail.push(line);
    this.tailChars += line.length + 1;
    while (this.tail.length > 1 && (this.tail.length > this.limits.tailLines || this.tailChars > this.tailBudget)) {
      const dropped = this.tail.shift()!;
      this.tailChars -= dropped.length + 1;
      this.omittedLines++;
      this.omittedChars += dropped.length + 1;
    }
    if (this.tail.length > this.limits.tailLines) {
      // tailLines is 0: everything past the head is cut.
      const dropped = this.tail.shift()!;
      this.tailChars = 0;
      this.omittedLines++;
      this.omittedChars += dropped.length + 1;
    } else if (this.tailChars > this.tailBudget) {
      const only = this.tail[0]!;
      const kept = only.slice(only.length - (this.tailBudget - 1));
      this.omittedChars += only.length - kept.length;
      this.tail[0] = kept;
      this.tailChars = kept.length + 1;
    }
  }
}
