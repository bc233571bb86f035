import { isBlank, TYPOGRAPHIC_CHAR } from './line-normalisers.js';

// The tolerant strategies compare normalised lines, which costs a pass over every line of the
// file per normaliser. Yet some characters of a SEARCH line survive every normaliser unchanged
// and in order: those that are not whitespace (trimmed, or collapsed inside the line), not
// typographic (rewritten to ASCII) and not what typographic characters are rewritten to. A file
// line that normalises to the same text as the SEARCH line contains each such run verbatim, so a
// file that contains the run nowhere has no matching line, which one indexOf settles.

/** Runs of characters that break a needle: whitespace, typographic characters and their ASCII forms. */
const NEEDLE_BREAK = new RegExp(`(?:[\\s'".-]|${TYPOGRAPHIC_CHAR.source})+`);

/** Characters punctuation normalisation deletes: a file line with one may join two runs. */
const DELETED_CHARS = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'];

// Each check of a line that is present costs up to one pass over the file, so only a few of the
// SEARCH lines are checked: those with the longest needles, which are the most likely to be
// absent and the fastest to look for.
const MAX_CHECKED_LINES = 3;

/** The longest run of `line` that every file line matching it under a tolerant normaliser contains. */
export function lineNeedle(line: string): string {
  let longest = '';
  for (const run of line.split(NEEDLE_BREAK)) if (run.length > longest.length) longest = run;
  return longest;
}

/**
 * For one text, whether a SEARCH line certainly matches none of its lines under any normaliser.
 * Answers are remembered, as every strategy asks about the same lines.
 */
export function absentLineCheck(text: string): (line: string) => boolean {
  let deletes: boolean | undefined;
  const answers = new Map<string, boolean>();
  return (line) => {
    let absent = answers.get(line);
    if (absent === undefined) {
      deletes ??= DELETED_CHARS.some((char) => text.includes(char));
      const needle = lineNeedle(line);
      absent = !deletes && needle !== '' && !text.includes(needle);
      answers.set(line, absent);
    }
    return absent;
  };
}

/** True when one of the lines certainly matches no line of the file; only a few lines are checked. */
export function someLineAbsent(lines: readonly string[], isAbsent: (line: string) => boolean): boolean {
  const checked = [...new Set(lines)]
    .filter((line) => !isBlank(line))
    .map((line) => ({ line, length: lineNeedle(line).length }))
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_CHECKED_LINES);
  return checked.some(({ line }) => isAbsent(line));
}
