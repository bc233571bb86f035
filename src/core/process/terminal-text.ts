/**
 * Turns what a program writes to a terminal into the lines the terminal shows, one line at a time:
 * carriage return and backspace move the cursor and later text overwrites earlier text (progress
 * bars), erase-in-line (`ESC[K`) and column moves (`ESC[nG`, `ESC[nC`, `ESC[nD`) act on the line,
 * and every other escape sequence (colours, titles, hyperlinks, shell-integration marks) is dropped.
 * The terminal's width is unknown, so a line never wraps. Escape sequences split across chunks are
 * completed by the next chunk.
 */
export class TerminalText {
  private line = '';
  private column = 0;
  // An escape sequence cut off at the end of the last chunk.
  private partialEscape = '';

  /** Feeds a chunk; returns the lines it completed (without their line breaks). */
  write(chunk: string): string[] {
    const completed: string[] = [];
    const text = this.partialEscape + chunk;
    this.partialEscape = '';
    let index = 0;
    while (index < text.length) {
      SPECIAL.lastIndex = index;
      const match = SPECIAL.exec(text);
      const end = match ? match.index : text.length;
      if (end > index) this.print(text.slice(index, end));
      if (!match) break;
      const char = match[0];
      index = end + 1;
      if (char === '\n') {
        completed.push(this.line);
        this.line = '';
        this.column = 0;
      } else if (char === '\r') {
        this.column = 0;
      } else if (char === '\b') {
        this.column = Math.max(0, this.column - 1);
      } else if (char === '\t') {
        this.print('\t');
      } else if (char === '\x1b' || char === '\x9b') {
        const sequence = matchEscape(text, end);
        if (sequence === 'incomplete') {
          this.partialEscape = text.slice(end);
          break;
        }
        // Not an escape sequence after all: drop the ESC alone, print what follows.
        if (sequence !== 'invalid') {
          index = end + sequence.length;
          this.applyEscape(sequence);
        }
      }
      // Other control characters (bell, NUL, ...) show nothing.
    }
    return completed;
  }

  /** The line the cursor is on, not yet ended by a line break. */
  get currentLine(): string {
    return this.line;
  }

  /** Ends the current line early (a line too long to keep whole); the next text starts a new one. */
  breakLine(): string {
    const line = this.line;
    this.line = '';
    this.column = 0;
    return line;
  }

  /** Forgets the current line (it was reported); an escape sequence cut off by the chunk still completes. */
  forgetLine(): void {
    this.line = '';
    this.column = 0;
  }

  private print(text: string): void {
    const { line, column } = this;
    if (column === line.length) this.line = line + text;
    else if (column > line.length) this.line = line + ' '.repeat(column - line.length) + text;
    else this.line = line.slice(0, column) + text + line.slice(column + text.length);
    this.column = column + text.length;
  }

  private applyEscape(sequence: string): void {
    const csi = /^(?:\x1b\[|\x9b)([0-9;]*)([@-~])$/.exec(sequence);
    if (!csi) return;
    const parameter = csi[1] === '' ? undefined : Number(csi[1]!.split(';')[0]);
    switch (csi[2]) {
      case 'K': {
        // Erase in line: 0 = cursor to end, 1 = start to cursor, 2 = whole line; the cursor stays.
        const mode = parameter ?? 0;
        if (mode === 0) this.line = this.line.slice(0, this.column);
        else if (mode === 1) this.line = ' '.repeat(Math.min(this.column + 1, this.line.length)) + this.line.slice(this.column + 1);
        else if (mode === 2) this.line = '';
        break;
      }
      case 'G':
      case '`':
        this.column = Math.max(0, (parameter ?? 1) - 1);
        break;
      case 'C':
        this.column += Math.max(1, parameter ?? 1);
        break;
      case 'D':
        this.column = Math.max(0, this.column - Math.max(1, parameter ?? 1));
        break;
    }
  }
}

/** The text a terminal shows for `text`, line by line (see TerminalText), joined with "\n". */
export function renderTerminalText(text: string): string {
  const terminal = new TerminalText();
  const lines = terminal.write(text);
  lines.push(terminal.currentLine);
  return lines.join('\n');
}

// Characters that are not printed as themselves.
const SPECIAL = /[\x00-\x1f\x7f\x9b]/g;
// An unterminated string sequence longer than this was never one (a lone ESC followed by text).
const MAX_PARTIAL_ESCAPE = 4096;
// Each kind of escape sequence, chosen by the character after ESC: the complete sequence, and the
// prefix that may still grow into it. CSI (7-bit and 8-bit); OSC, DCS, SOS, PM and APC strings
// ended by BEL or ST; charset selection; the remaining two-character escapes.
interface EscapeShape {
  readonly complete: RegExp;
  readonly prefix: RegExp;
}
const CSI: EscapeShape = { complete: /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/y, prefix: /(?:\x1b\[|\x9b)[0-?]*[ -/]*$/y };
const STRING: EscapeShape = { complete: /\x1b[\]P^_X][^\n]*?(?:\x07|\x1b\\)/y, prefix: /\x1b[\]P^_X][^\n\x07]*\x1b?$/y };
const CHARSET: EscapeShape = { complete: /\x1b[()*+#%][^\n]/y, prefix: /\x1b[()*+#%]$/y };
const SHORT: EscapeShape = { complete: /\x1b[ -/]*[0-~]/y, prefix: /\x1b[ -/]*$/y };

/** The escape sequence at `start`: its text, 'incomplete' when the text ends inside it, 'invalid' otherwise. */
function matchEscape(text: string, start: number): string | 'incomplete' | 'invalid' {
  const next = text[start + 1];
  const shape =
    text[start] === '\x9b' || next === '['
      ? CSI
      : next !== undefined && ']P^_X'.includes(next)
        ? STRING
        : next !== undefined && '()*+#%'.includes(next)
          ? CHARSET
          : SHORT;
  shape.complete.lastIndex = start;
  const match = shape.complete.exec(text);
  if (match) return match[0];
  shape.prefix.lastIndex = start;
  if (shape.prefix.test(text) && text.length - start < MAX_PARTIAL_ESCAPE) return 'incomplete';
  return 'invalid';
}
