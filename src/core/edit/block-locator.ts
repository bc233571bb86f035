import type { LineNormaliser } from './line-normalisers.js';
import { absentLineCheck } from './line-presence.js';
import { findFirstMatch } from './match-strategies.js';
import type { Candidate, SearchScope, StrategyMatch } from './match-types.js';
import type { TextLines } from './text-lines.js';

/** Where a block goes, or why it cannot go anywhere. */
export type Location =
  | { readonly kind: 'found'; readonly match: StrategyMatch; readonly candidate: Candidate }
  | { readonly kind: 'not-found' }
  | {
      readonly kind: 'ambiguous';
      readonly match: StrategyMatch;
      /** 0-based start lines of the equally good candidates. */
      readonly startLines: readonly number[];
      /** True when the candidates were counted in the whole file, not only after the previous block. */
      readonly wholeFile: boolean;
    };

// Without a hint, a block is looked for after the previous block's end first, then in the whole
// file (models write blocks out of order); either way the first strategy that finds anything must
// find exactly one place. With a `:start_line:` hint, the candidate nearest to the hint wins.

/** Finds the one place for a block, or reports that there is none or more than one. */
export function locateBlock(
  search: readonly string[],
  replace: readonly string[],
  lines: TextLines,
  regionStart: number,
  hintLine: number | undefined,
): Location {
  const scopeFrom = scopeFactory(lines);
  if (hintLine !== undefined) {
    const match = findFirstMatch(search, replace, scopeFrom(0));
    return match ? pickNearest(match, lines, hintLine) : { kind: 'not-found' };
  }
  const afterPrevious = findFirstMatch(search, replace, scopeFrom(regionStart));
  if (afterPrevious) return requireUnique(afterPrevious, lines, regionStart === 0);
  if (regionStart === 0) return { kind: 'not-found' };
  const anywhere = findFirstMatch(search, replace, scopeFrom(0));
  return anywhere ? requireUnique(anywhere, lines, true) : { kind: 'not-found' };
}

function requireUnique(match: StrategyMatch, lines: TextLines, wholeFile: boolean): Location {
  if (match.candidates.length === 1) return { kind: 'found', match, candidate: match.candidates[0]! };
  const startLines = match.candidates.map((candidate) => lines.lineAt(candidate.start));
  return { kind: 'ambiguous', match, startLines, wholeFile };
}

function pickNearest(match: StrategyMatch, lines: TextLines, hintLine: number): Location {
  const distances = match.candidates.map((candidate) => Math.abs(lines.lineAt(candidate.start) - hintLine));
  // reduce, not Math.min(...): a short SEARCH can have more candidates than a call has arguments.
  const nearest = distances.reduce((min, d) => Math.min(d, min), Infinity);
  const closest = match.candidates.filter((_, i) => distances[i] === nearest);
  if (closest.length === 1) return { kind: 'found', match, candidate: closest[0]! };
  // Two candidates equally far from the hint: the hint cannot tell them apart.
  return requireUnique({ ...match, candidates: closest }, lines, true);
}

/** Scopes over one text share their normalised lines, so each normaliser runs once per block. */
function scopeFactory(lines: TextLines): (fromOffset: number) => SearchScope {
  const lacksLine = absentLineCheck(lines.text);
  const cache = new Map<LineNormaliser, readonly string[]>();
  const normalised = (normaliser: LineNormaliser): readonly string[] => {
    let result = cache.get(normaliser);
    if (!result) {
      result = lines.lines.map(normaliser);
      cache.set(normaliser, result);
    }
    return result;
  };
  return (fromOffset) => {
    let fromLine: number | undefined;
    // Computed on first use: it needs the line split, which an exact match never does.
    return {
      lines,
      fromOffset,
      get fromLine() {
        fromLine ??= lines.firstLineFrom(fromOffset);
        return fromLine;
      },
      normalised,
      lacksLine,
    };
  };
}
