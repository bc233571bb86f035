import { isBlank, normalisePunctuation, TYPOGRAPHIC_CHAR } from './line-normalisers.js';
import type { Candidate, StrategyMatch } from './match-types.js';
import { createReindenter, indentPairs } from './reindent.js';
import type { Reindenter } from './reindent.js';
import { alignEqualLines } from './similarity.js';
import type { TextLines } from './text-lines.js';

// Lines around the match are enough to learn the file's indentation style.
const STYLE_SAMPLE_RADIUS = 500;

// After a tolerant match the model's picture of the file was off, so its REPLACE is adapted:
// - a REPLACE line that repeats a SEARCH line is the file line that SEARCH line matched, verbatim
//   (context keeps the file's exact whitespace and quotes);
// - other lines are re-indented when SEARCH matched at another indentation;
// - typographic quotes/dashes that the SEARCH had but the file does not are made ASCII;
// - a blank gap the REPLACE left as the SEARCH had it takes the file's blank lines.

/** The REPLACE lines as they should land in the file for one matched candidate. */
export function buildReplacementLines(lines: TextLines, match: StrategyMatch, candidate: Candidate): string[] {
  const search = match.search;
  const replace = match.ignoresEdgeBlankLines ? trimEdgeBlankLines(search, match.replace) : [...match.replace];
  const aligned = candidate.aligned;
  if (!aligned) return replace;
  const fileLines = lines.lines;

  const kept = alignEqualLines(replace, search);
  const keptSearch = new Map(kept);
  const counterpart = correspondingLines(replace, search, kept);
  const adapt = lineAdapter(lines, match, candidate, replace);
  const rendered = replace.map((line, index) => {
    const searchIndex = keptSearch.get(index);
    const fileIndex = searchIndex === undefined ? undefined : aligned.get(searchIndex);
    return fileIndex === undefined ? adapt(line) : fileLines[fileIndex]!;
  });

  const anchorOf = (index: number): { readonly search: number; readonly file: number } | undefined => {
    const searchIndex = counterpart.get(index);
    const fileIndex = searchIndex === undefined ? undefined : aligned.get(searchIndex);
    return fileIndex === undefined || isBlank(replace[index]!) ? undefined : { search: searchIndex!, file: fileIndex };
  };
  const out: string[] = [];
  for (let index = 0; index < replace.length; ) {
    out.push(rendered[index]!);
    const from = anchorOf(index);
    let next = index + 1;
    while (next < replace.length && isBlank(replace[next]!)) next++;
    const to = from && next < replace.length ? anchorOf(next) : undefined;
    if (from && to && sameGapAsSearch(search, fileLines, from, to, next - index - 1)) {
      out.push(...fileLines.slice(from.file + 1, to.file));
      index = next;
    } else {
      index++;
    }
  }
  return out;
}

/** Re-indents and repairs punctuation of one REPLACE line that is not a copy of a file line. */
function lineAdapter(lines: TextLines, match: StrategyMatch, candidate: Candidate, replace: readonly string[]): (line: string) => string {
  const firstLine = lines.lineAt(candidate.start);
  const sample = lines.lines.slice(Math.max(0, firstLine - STYLE_SAMPLE_RADIUS), firstLine + STYLE_SAMPLE_RADIUS);
  const reindent: Reindenter | undefined = createReindenter(indentPairs(match.search, lines.lines, candidate.aligned!), [...match.search, ...replace], sample);
  const region = lines.text.slice(candidate.start, candidate.end);
  const foreign = new Set((match.search.join('\n').match(TYPOGRAPHIC_CHAR) ?? []).filter((c) => !region.includes(c)));
  return (line) => {
    const indented = reindent ? reindent(line) : line;
    return foreign.size === 0 ? indented : indented.replace(TYPOGRAPHIC_CHAR, (c) => (foreign.has(c) ? normalisePunctuation(c) : c));
  };
}

/**
 * REPLACE line → SEARCH line it stands for: equal lines, plus lines edited in place (a changed
 * stretch with as many non-blank lines on both sides, paired in order).
 */
function correspondingLines(replace: readonly string[], search: readonly string[], kept: ReadonlyArray<readonly [number, number]>): Map<number, number> {
  const result = new Map<number, number>();
  let previousReplace = -1;
  let previousSearch = -1;
  for (const [r, s] of [...kept, [replace.length, search.length] as const]) {
    const changedReplace = range(previousReplace + 1, r).filter((i) => !isBlank(replace[i]!));
    const changedSearch = range(previousSearch + 1, s).filter((i) => !isBlank(search[i]!));
    if (changedReplace.length === changedSearch.length) {
      for (const [k, i] of changedReplace.entries()) result.set(i, changedSearch[k]!);
    }
    if (r < replace.length) result.set(r, s);
    previousReplace = r;
    previousSearch = s;
  }
  return result;
}

/** True when REPLACE kept the SEARCH's blank gap between two lines, and the file's gap is blank too. */
function sameGapAsSearch(
  search: readonly string[],
  fileLines: readonly string[],
  from: { readonly search: number; readonly file: number },
  to: { readonly search: number; readonly file: number },
  replaceGap: number,
): boolean {
  if (to.search <= from.search || to.file <= from.file) return false;
  if (to.search - from.search - 1 !== replaceGap) return false;
  return search.slice(from.search + 1, to.search).every(isBlank) && fileLines.slice(from.file + 1, to.file).every(isBlank);
}

/** Drops as many blank lines from REPLACE's edges as SEARCH had, since those were not matched. */
function trimEdgeBlankLines(search: readonly string[], replace: readonly string[]): string[] {
  const leading = countLeadingBlank(search);
  const trailing = countLeadingBlank([...search].reverse());
  let from = 0;
  let to = replace.length;
  while (from < to && from < leading && isBlank(replace[from]!)) from++;
  while (to > from && replace.length - to < trailing && isBlank(replace[to - 1]!)) to--;
  return replace.slice(from, to);
}

function countLeadingBlank(lines: readonly string[]): number {
  let count = 0;
  while (count < lines.length && isBlank(lines[count]!)) count++;
  return count;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
