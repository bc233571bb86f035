/**
 * zsh's PROMPT_SP: before each prompt zsh prints its end-of-line mark (PROMPT_EOL_MARK, by default a
 * reverse-video `%`, or `#` for root), spaces up to the right margin, `\r`, as many spaces as the mark
 * is wide, and `\r`. On a terminal with automatic margins this leaves the mark visible after output
 * that did not end with a newline and moves the prompt to a fresh line; otherwise it blanks itself.
 * Under VS Code's shell integration it lands in the command's output stream, before the "command
 * finished" sequence, followed only by what precmd hooks print (window titles).
 *
 * The sequence is not the command's output, so it is taken out of the stream: text that may be its
 * beginning (at most the last few characters of the current line) is held back until the stream
 * goes on or pauses (then passed on unchanged) or ends (then dropped when it is the whole sequence).
 */
export class PromptEolMarkFilter {
  private held = '';

  /** Feeds a chunk; returns the text that can be passed on now. */
  push(chunk: string): string {
    const text = this.held + chunk;
    const start = holdStart(text);
    this.held = text.slice(start);
    return text.slice(0, start);
  }

  /** True while some text is held back. */
  get holding(): boolean {
    return this.held !== '';
  }

  /**
   * The stream paused: returns the held text unless it already is a whole sequence (precmd hooks
   * may take long before the stream ends). zsh prints the sequence in one write, so a pause inside
   * it is not expected; a pause after text that merely could be its start (the end of a line, a
   * prompt waiting for input) must not keep that text from the user.
   */
  release(): string {
    if (COMPLETE_TAIL.test(this.held)) return '';
    const text = this.held;
    this.held = '';
    return text;
  }

  /** The stream ended: returns the held text, without the sequence when it was one. */
  end(): string {
    const text = this.held;
    this.held = '';
    return withoutPromptEolMark(text);
  }
}

/** `text` without a complete PROMPT_SP sequence at its end (and unchanged when it has none). */
export function withoutPromptEolMark(text: string): string {
  const tail = COMPLETE_TAIL.exec(text);
  if (!tail) return text;
  const markWidth = tail[2]!.length;
  const before = text.slice(0, tail.index);
  const visible = visibleStarts(before);
  if (visible.length < markWidth) return text;
  // Escape sequences right before the mark (its bold and reverse video) show nothing; they may stay.
  const cut = markWidth === 0 ? before.length : visible[visible.length - markWidth]!;
  return before.slice(0, cut) + tail[3]!;
}

// Widest end-of-line mark recognised; the default is one character.
const MAX_MARK_WIDTH = 32;
// Terminals are rarely wider than a few hundred columns; the spaces of the sequence fit in this.
const HOLD_WINDOW = 4096;
const ESCAPE = String.raw`\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]P^_X][^\x07\x1b\n]*(?:\x07|\x1b\\)|[()*+#%][^\n]|[ -/]*[0-~])`;
// Spaces to the margin, "\r", spaces over the mark, "\r", then only escape sequences (titles).
const COMPLETE_TAIL = new RegExp(String.raw`( +)\r( *)\r((?:${ESCAPE})*)$`);
// The end of a stream that may still grow into the sequence: spaces, then possibly "\r", spaces, "\r" and escapes.
const OPEN_TAIL = new RegExp(String.raw`( +)(?:\r *(?:\r(?:${ESCAPE})*(?:\x1b[^\n]*)?)?)?$`);
// One visible character (a code point that is not a control character) or one escape sequence.
const TOKEN = new RegExp(String.raw`${ESCAPE}|([^\x00-\x1f\x7f])`, 'gu');

/**
 * Where the text that may be the start of the sequence begins (text.length when there is none):
 * the last few visible characters of the current line (the mark may be being printed) and the
 * spaces, carriage returns and escape sequences after them.
 */
function holdStart(text: string): number {
  // The sequence is about as long as the terminal is wide: only the end of the text can hold it.
  const offset = Math.max(0, text.length - HOLD_WINDOW);
  const window = text.slice(offset);
  const open = OPEN_TAIL.exec(window);
  const markEnd = open ? open.index : window.length;
  const lineStart = Math.max(window.lastIndexOf('\n', markEnd - 1), window.lastIndexOf('\r', markEnd - 1)) + 1;
  const visible = visibleStarts(window.slice(lineStart, markEnd));
  const markStart = visible.length > MAX_MARK_WIDTH ? visible[visible.length - MAX_MARK_WIDTH]! : 0;
  return offset + lineStart + markStart;
}

/** The offsets of the visible characters of `text`, skipping escape sequences; control characters end the scan. */
function visibleStarts(text: string): number[] {
  const starts: number[] = [];
  TOKEN.lastIndex = 0;
  let expected = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    if (match.index !== expected) starts.length = 0; // a control character in between: the mark starts after it
    expected = match.index + match[0].length;
    if (match[1] !== undefined) starts.push(match.index);
  }
  // An escape sequence still being printed may end the text.
  if (expected !== text.length && text[expected] !== '\x1b') starts.length = 0;
  return starts;
}
