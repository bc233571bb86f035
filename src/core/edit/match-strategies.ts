import { canAnchor, findBlockAnchorMatches } from './block-anchor.js';
import { lineNumberFormat, stripLineNumbers } from './line-number-prefixes.js';
import { findLineMatches } from './line-match.js';
import type { LineMatchRule } from './line-match.js';
import { innerWhitespaceNormaliser, punctuationNormaliser, trimEndNormaliser, trimNormaliser } from './line-normalisers.js';
import type { Candidate, SearchScope, StrategyMatch } from './match-types.js';
import { isPaddedLine, isWholeLines } from './text-lines.js';

/** What each strategy tolerated, for messages to the model. */
export const STRATEGY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  exact: 'exactly',
  'trailing-whitespace': 'ignoring trailing whitespace',
  indentation: 'ignoring indentation',
  'blank-lines': 'ignoring indentation and blank lines',
  punctuation: 'ignoring whitespace and typographic quotes/dashes',
  'inner-whitespace': 'ignoring runs of spaces inside lines',
  'line-numbers': 'after removing line-number prefixes',
  'block-anchor': 'by its first and last lines',
};

interface LineStrategy extends LineMatchRule {
  readonly name: string;
}

// Each tolerant strategy keeps the tolerance of the one before it and adds one more.
const LINE_STRATEGIES: readonly LineStrategy[] = [
  { name: 'trailing-whitespace', normaliser: trimEndNormaliser, skipBlankLines: false, requireConsistentIndent: false },
  { name: 'indentation', normaliser: trimNormaliser, skipBlankLines: false, requireConsistentIndent: true },
  { name: 'blank-lines', normaliser: trimNormaliser, skipBlankLines: true, requireConsistentIndent: true },
  { name: 'punctuation', normaliser: punctuationNormaliser, skipBlankLines: true, requireConsistentIndent: true },
  { name: 'inner-whitespace', normaliser: innerWhitespaceNormaliser, skipBlankLines: true, requireConsistentIndent: true },
];

/** How findFirstMatch looked for a SEARCH, in order, for a message that says what did not match. */
export function triedMatches(search: readonly string[]): string[] {
  const tried = ['exact', ...LINE_STRATEGIES.map((strategy) => strategy.name)];
  if (lineNumberFormat(search)) tried.push('line-numbers');
  if (canAnchor(search)) tried.push('block-anchor');
  return tried.map((name) => STRATEGY_DESCRIPTIONS[name]!);
}

// Stopping at the first strategy that finds anything means a strict match is never overruled by
// a looser one, and ambiguity is judged within one strategy.

/** Runs the strategies strictest first and returns every candidate of the first one that finds any. */
export function findFirstMatch(search: readonly string[], replace: readonly string[], scope: SearchScope): StrategyMatch | undefined {
  const direct = findWithoutPrefixes(search, replace, scope);
  if (direct) return direct;

  const format = lineNumberFormat(search);
  const bareSearch = format ? stripLineNumbers(search, format) : search;
  // REPLACE lines lose their numbers only when all of them carry the same kind.
  const bareReplace = format && lineNumberFormat(replace) === format ? stripLineNumbers(replace, format) : replace;
  if (format) {
    const numbered = findWithoutPrefixes(bareSearch, bareReplace, scope);
    if (numbered) {
      const strategy = numbered.strategy === 'exact' ? 'line-numbers' : `line-numbers+${numbered.strategy}`;
      return { ...numbered, strategy };
    }
  }

  const anchored = findBlockAnchorMatches(bareSearch, scope);
  if (anchored.length === 0) return undefined;
  return {
    strategy: format ? 'line-numbers+block-anchor' : 'block-anchor',
    candidates: anchored,
    search: bareSearch,
    replace: bareReplace,
    ignoresEdgeBlankLines: true,
  };
}

function findWithoutPrefixes(search: readonly string[], replace: readonly string[], scope: SearchScope): StrategyMatch | undefined {
  const exact = findExact(search.join('\n'), scope);
  if (exact.length > 0) return { strategy: 'exact', candidates: exact, search, replace, ignoresEdgeBlankLines: false };
  for (const rule of LINE_STRATEGIES) {
    const candidates = findLineMatches(search, scope, rule);
    if (candidates.length > 0) {
      return { strategy: rule.name, candidates, search, replace, ignoresEdgeBlankLines: rule.skipBlankLines };
    }
  }
  return undefined;
}

/**
 * Exact occurrences via indexOf, kept only where they cover whole lines but for indentation or
 * trailing whitespace: an occurrence inside a line (`limit = 10` in `const limit = 10;`, or a
 * SEARCH whose blank last line would meet the start of the next line) is no match, and applying
 * it would splice or join file lines. Occurrences that are exactly whole lines win, so `  return
 * x;` is not ambiguous just because a deeper `    return x;` contains it. A one-line SEARCH that
 * only lacks the line's indentation is left to the line strategies, which re-indent added lines.
 */
function findExact(search: string, scope: SearchScope): Candidate[] {
  const text = scope.lines.text;
  const padded: Candidate[] = [];
  for (let at = text.indexOf(search, scope.fromOffset); at !== -1; at = text.indexOf(search, at + 1)) {
    if (isPaddedLine(text, at, at + search.length)) padded.push({ start: at, end: at + search.length });
  }
  const whole = padded.filter((candidate) => isWholeLines(text, candidate.start, candidate.end));
  if (whole.length > 0 || !search.includes('\n')) return whole;
  return padded;
}
