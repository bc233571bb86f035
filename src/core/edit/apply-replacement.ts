import type { LineShift } from './line-shifts.js';
import type { Candidate, StrategyMatch } from './match-types.js';
import { buildReplacementLines } from './replacement-lines.js';
import { countChar } from './text-format.js';
import { isPaddedLine } from './text-lines.js';
import type { TextLines } from './text-lines.js';

/** The text after one block was applied, where the next block's search starts, and the line shift. */
interface AppliedReplacement {
  readonly text: string;
  readonly end: number;
  readonly shift: LineShift;
  /** Whether `text` ends with a newline, known without reading `text` (reading would flatten it). */
  readonly endsWithNewline: boolean;
}

/**
 * Replaces one chosen candidate with the block's REPLACE lines, adapted to the file.
 * `endedWithNewline` says whether the text did before; the result is left as joined pieces.
 */
export function applyReplacement(lines: TextLines, match: StrategyMatch, candidate: Candidate, endedWithNewline: boolean): AppliedReplacement {
  const text = lines.text;
  const replacement = buildReplacementLines(lines, match, candidate);
  let start = candidate.start;
  let end = candidate.end;
  // An empty REPLACE removes whole lines together with their newline, leaving no blank line;
  // indentation or trailing whitespace the SEARCH left out goes with them. The last line of a
  // file without a final newline takes the newline before it instead.
  if (replacement.length === 0 && isPaddedLine(text, candidate.start, candidate.end)) {
    start = text.lastIndexOf('\n', start - 1) + 1;
    const newline = text.indexOf('\n', end);
    if (newline !== -1) end = newline + 1;
    else {
      end = text.length;
      if (start > 0 && text[end - 1] !== '\n') start--;
    }
  }
  const inserted = replacement.join('\n');
  return {
    text: text.slice(0, start) + inserted + text.slice(end),
    end: start + inserted.length,
    endsWithNewline: end < text.length ? endedWithNewline : inserted !== '' ? inserted.endsWith('\n') : start > 0 && text[start - 1] === '\n',
    shift: lazyShift(lines, start, countChar(text.slice(start, end), '\n'), countChar(inserted, '\n')),
  };
}

/** A shift whose start line is found only when asked (a later block's line hint or error message). */
function lazyShift(lines: TextLines, start: number, removedNewlines: number, addedNewlines: number): LineShift {
  let startLine: number | undefined;
  return {
    get startLine() {
      startLine ??= lines.lineAt(start);
      return startLine;
    },
    removedNewlines,
    addedNewlines,
  };
}
