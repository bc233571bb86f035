/** How one applied block moved the lines after it, to translate line numbers across blocks. */
export interface LineShift {
  /** 0-based line where the replaced text started, in the text the block was applied to. */
  readonly startLine: number;
  readonly removedNewlines: number;
  readonly addedNewlines: number;
}

/** Maps a 0-based line of the original text to the text after the given shifts. */
export function toCurrentLine(line: number, shifts: readonly LineShift[]): number {
  let current = line;
  for (const shift of shifts) current = moveLine(current, shift.startLine, shift.removedNewlines, shift.addedNewlines);
  return current;
}

/** Maps a 0-based line of the text after the given shifts back to the original text. */
export function toOriginalLine(line: number, shifts: readonly LineShift[]): number {
  let original = line;
  for (let i = shifts.length - 1; i >= 0; i--) {
    const shift = shifts[i]!;
    original = moveLine(original, shift.startLine, shift.addedNewlines, shift.removedNewlines);
  }
  return original;
}

function moveLine(line: number, startLine: number, spanBefore: number, spanAfter: number): number {
  if (line > startLine + spanBefore) return line + spanAfter - spanBefore;
  // A line inside the replaced span has no exact counterpart; its start is the nearest place.
  return Math.min(line, startLine);
}
