// Text that did not come from Smith itself (the model's answer, tool output, MCP servers' names
// and messages, a repository's config) must not be able to drive the terminal: clipboard writes
// (OSC 52), window titles, clearing the screen, moving the cursor, ringing the bell.

/** A control string (OSC, DCS, SOS, PM, APC) up to its terminator: BEL, ST, or (for display) a line end. */
const CONTROL_STRING = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|(?=\n)|$)/g;
/** CSI sequences (7- and 8-bit): cursor moves, erasing, colours, modes. */
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?/g;
/** Every other escape sequence (charset switches, reset, keypad modes), or a lone ESC. */
const OTHER_ESCAPE = /\x1b(?:[ -/]*[0-OQ-WYZ\\`a-~])?/g;
/** C0 controls except tab and line feed, DEL, and the C1 controls. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** A complete sequence at the start of a string (for streaming: is the tail still growing?). */
const COMPLETE_SEQUENCE =
  /^(?:(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|\n)|\x1b[ -/]*[0-OQ-WYZ\\`a-~])/;

/**
 * Untrusted text made safe to print: escape sequences are removed whole and other control
 * characters dropped; a carriage return becomes a line break so it cannot overwrite a line.
 * Tabs, line breaks and all printable text are kept.
 */
export function terminalSafeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL_STRING, '').replace(CSI, '').replace(OTHER_ESCAPE, '').replace(/\r/g, '\n').replace(CONTROL, '');
}

/**
 * How much of a growing text can be printed now: all of it, unless it ends inside an escape
 * sequence that has not been completed yet (a chunk boundary can split one). `from`: where the
 * part not printed yet starts (a settled point).
 */
export function settledTerminalLength(text: string, from = 0): number {
  const intro = /[\x1b\x90\x98\x9b\x9d\x9e\x9f]/g;
  intro.lastIndex = from;
  for (let match = intro.exec(text); match; match = intro.exec(text)) {
    const complete = COMPLETE_SEQUENCE.exec(text.slice(match.index));
    if (!complete) return match.index;
    intro.lastIndex = match.index + complete[0].length;
  }
  return text.length;
}
