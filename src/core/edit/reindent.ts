import { isBlank, leadingWhitespace } from './line-normalisers.js';

/** The leading whitespace of one SEARCH line and of the file line it matched. */
interface IndentPair {
  readonly search: string;
  readonly file: string;
}

/** Rewrites a REPLACE line's indentation into the file's style. */
export type Reindenter = (line: string) => string;

/** Indentation style of some lines: the step between nesting levels, in columns. */
interface IndentStyle {
  readonly unit: number;
  readonly tabs: boolean;
}

const TAB_WIDTH = 4;
// Files that mix tabs and spaces were written with some tab width; the usual ones are tried in turn.
const TAB_WIDTHS: readonly number[] = [TAB_WIDTH, 8, 2];
// Detection on a sample keeps the cost flat on huge files.
const MAX_SAMPLE_LINES = 4000;

/** Width of leading whitespace in columns, with tab stops every `tabWidth` columns. */
export function indentWidth(whitespace: string, tabWidth = TAB_WIDTH): number {
  let width = 0;
  for (const char of whitespace) width = char === '\t' ? width - (width % tabWidth) + tabWidth : width + 1;
  return width;
}

/** Builds the pairs of leading whitespace for matched non-blank lines. */
export function indentPairs(searchLines: readonly string[], fileLines: readonly string[], aligned: ReadonlyMap<number, number>): IndentPair[] {
  const pairs: IndentPair[] = [];
  for (const [searchIndex, fileIndex] of aligned) {
    const searchLine = searchLines[searchIndex]!;
    if (isBlank(searchLine)) continue;
    pairs.push({ search: leadingWhitespace(searchLine), file: leadingWhitespace(fileLines[fileIndex]!) });
  }
  return pairs;
}

// Equal SEARCH indents must map to equal file indents and deeper ones to deeper ones; this keeps
// an indentation-insensitive match off Python-like code whose structure differs from the SEARCH.

/** True when the file's indentation follows the SEARCH's nesting (with some usual tab width). */
export function isIndentationConsistent(pairs: readonly IndentPair[]): boolean {
  return consistentTabWidth(pairs) !== undefined;
}

/** The first usual tab width under which the file's indentation follows the SEARCH's nesting. */
function consistentTabWidth(pairs: readonly IndentPair[]): number | undefined {
  return TAB_WIDTHS.find((tabWidth) => isConsistentWith(pairs, tabWidth));
}

function isConsistentWith(pairs: readonly IndentPair[], tabWidth: number): boolean {
  const byWidth = new Map<number, number>();
  for (const pair of pairs) {
    const searchWidth = indentWidth(pair.search, tabWidth);
    const fileWidth = indentWidth(pair.file, tabWidth);
    const known = byWidth.get(searchWidth);
    if (known !== undefined && known !== fileWidth) return false;
    byWidth.set(searchWidth, fileWidth);
  }
  const ordered = [...byWidth].sort((x, y) => x[0] - y[0]);
  return ordered.every((entry, i) => i === 0 || entry[1] > ordered[i - 1]![1]);
}

// Indents seen on matched lines map exactly; others are scaled from the lowest matched indent by
// the ratio between the file's and the model's indentation step, learnt from the matched lines or,
// when they span one level only, from `modelLines` (SEARCH + REPLACE) and a sample of `fileLines`.

/** Moves REPLACE lines from the SEARCH's indentation to the file's; undefined when nothing to do. */
export function createReindenter(pairs: readonly IndentPair[], modelLines: readonly string[], fileLines: readonly string[]): Reindenter | undefined {
  if (pairs.length === 0 || pairs.every((pair) => pair.search === pair.file)) return undefined;
  const tabWidth = consistentTabWidth(pairs);
  if (tabWidth === undefined) return undefined;
  const width = (whitespace: string) => indentWidth(whitespace, tabWidth);
  const exact = new Map<string, string>();
  for (const pair of pairs) if (!exact.has(pair.search)) exact.set(pair.search, pair.file);

  const sorted = [...pairs].sort((x, y) => width(x.search) - width(y.search));
  const lowest = sorted[0]!;
  const highest = sorted[sorted.length - 1]!;
  const searchBase = width(lowest.search);
  const fileBase = width(lowest.file);
  const fileStyle = detectIndentStyle(fileLines);
  const ratio = columnRatio(lowest, highest, modelLines, fileStyle, tabWidth);
  const tabs = usesTabs(pairs, fileStyle);

  return (line) => {
    if (isBlank(line)) return '';
    const indent = leadingWhitespace(line);
    const body = line.slice(indent.length);
    const known = exact.get(indent);
    if (known !== undefined) return known + body;
    const target = Math.max(0, Math.round(fileBase + (width(indent) - searchBase) * ratio));
    return renderIndent(target, tabs, tabWidth) + body;
  };
}

/** File columns per SEARCH column: from the matched lines when they span two levels, else from each side's style. */
function columnRatio(lowest: IndentPair, highest: IndentPair, modelLines: readonly string[], fileStyle: IndentStyle | undefined, tabWidth: number): number {
  const searchSpan = indentWidth(highest.search, tabWidth) - indentWidth(lowest.search, tabWidth);
  if (searchSpan > 0) return (indentWidth(highest.file, tabWidth) - indentWidth(lowest.file, tabWidth)) / searchSpan;
  const modelStyle = detectIndentStyle(modelLines);
  return modelStyle && fileStyle ? fileStyle.unit / modelStyle.unit : 1;
}

function usesTabs(pairs: readonly IndentPair[], fileStyle: IndentStyle | undefined): boolean {
  if (pairs.some((pair) => pair.file.includes('\t'))) return true;
  if (pairs.some((pair) => pair.file.length > 0)) return false;
  return fileStyle?.tabs ?? false;
}

function renderIndent(width: number, tabs: boolean, tabWidth: number): string {
  if (!tabs) return ' '.repeat(width);
  return '\t'.repeat(Math.floor(width / tabWidth)) + ' '.repeat(width % tabWidth);
}

/** Learns the indentation step of some lines from the changes in indentation between neighbours. */
export function detectIndentStyle(lines: readonly string[]): IndentStyle | undefined {
  const steps = new Map<number, number>();
  let tabLines = 0;
  let spaceLines = 0;
  let previous: number | undefined;
  const limit = Math.min(lines.length, MAX_SAMPLE_LINES);
  for (let i = 0; i < limit; i++) {
    const line = lines[i]!;
    if (isBlank(line)) continue;
    const indent = leadingWhitespace(line);
    // Block-comment continuations (` * text`) are off by one column and would skew the step.
    if (line.slice(indent.length).startsWith('*')) continue;
    if (indent.startsWith('\t')) tabLines++;
    else if (indent.length > 0) spaceLines++;
    const width = indentWidth(indent);
    if (previous !== undefined && width !== previous) {
      const step = Math.abs(width - previous);
      steps.set(step, (steps.get(step) ?? 0) + 1);
    }
    previous = width;
  }
  if (tabLines > spaceLines) return { unit: TAB_WIDTH, tabs: true };
  let best: number | undefined;
  for (const [step, count] of steps) {
    const bestCount = best === undefined ? 0 : steps.get(best)!;
    if (count > bestCount || (count === bestCount && step < best!)) best = step;
  }
  return best === undefined ? undefined : { unit: best, tabs: false };
}
