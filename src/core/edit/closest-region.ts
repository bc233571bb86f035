import { isBlank, punctuationNormaliser } from './line-normalisers.js';
import { linesSimilarity } from './similarity.js';

/** The part of a file that looks most like a SEARCH text that was not found. */
export interface ClosestRegion {
  /** 0-based first line of the region. */
  readonly startLine: number;
  /** The region's lines as they are in the file. */
  readonly lines: readonly string[];
  /** Similarity to the SEARCH text, 0..1. */
  readonly similarity: number;
  /** False when only the start of a long SEARCH was compared. */
  readonly wholeSearchCompared: boolean;
}

// The work is bounded whatever the file: one cheap token pass over the file picks windows that
// start where a line shares tokens with the first or a distinctive SEARCH line, then only those
// few windows are compared in full, on a prefix of the SEARCH.
const MAX_COMPARED_LINES = 20;
const MAX_ANCHORS = 3;
const MAX_WINDOWS = 12;
const MAX_TOKENISED_CHARS = 300;
const TOKEN = /[A-Za-z0-9_$]{2,}/g;

/** Finds the region of the file most similar to the SEARCH lines, cheaply. */
export function findClosestRegion(fileLines: readonly string[], search: readonly string[]): ClosestRegion | undefined {
  const searchContent = search.filter((line) => !isBlank(line));
  const wanted = searchContent.slice(0, MAX_COMPARED_LINES).map(punctuationNormaliser);
  if (wanted.length === 0) return undefined;
  const content = fileLines.flatMap((line, index) => (isBlank(line) ? [] : [index]));
  if (content.length === 0) return undefined;

  const anchors = pickAnchors(wanted);
  const scored: Array<{ readonly window: number; readonly score: number }> = [];
  content.forEach((fileIndex, position) => {
    const tokens = tokenSet(punctuationNormaliser(fileLines[fileIndex]!));
    for (const anchor of anchors) {
      const score = jaccard(anchor.tokens, tokens);
      if (score > 0) scored.push({ window: Math.max(0, position - anchor.offset), score });
    }
  });
  scored.sort((a, b) => b.score - a.score || a.window - b.window);
  const windows = [...new Set(scored.map((entry) => entry.window))].slice(0, MAX_WINDOWS);

  let best: { readonly window: number; readonly similarity: number } | undefined;
  for (const window of windows) {
    const region = content.slice(window, window + wanted.length).map((i) => punctuationNormaliser(fileLines[i]!));
    while (region.length < wanted.length) region.push('');
    const similarity = linesSimilarity(wanted, region);
    if (!best || similarity > best.similarity) best = { window, similarity };
  }
  if (!best) return undefined;
  const first = content[best.window]!;
  const last = content[Math.min(content.length - 1, best.window + wanted.length - 1)]!;
  return {
    startLine: first,
    lines: fileLines.slice(first, last + 1),
    similarity: best.similarity,
    wholeSearchCompared: wanted.length === searchContent.length,
  };
}

interface Anchor {
  /** Position of the anchor among the SEARCH's non-blank lines. */
  readonly offset: number;
  readonly tokens: ReadonlySet<string>;
}

/** The first SEARCH line plus the lines with the most distinct tokens, which are least likely to repeat. */
function pickAnchors(wanted: readonly string[]): Anchor[] {
  const all = wanted.map((line, offset) => ({ offset, tokens: tokenSet(line) }));
  const rest = all.slice(1).sort((a, b) => b.tokens.size - a.tokens.size);
  return [all[0]!, ...rest].slice(0, MAX_ANCHORS).filter((anchor) => anchor.tokens.size > 0);
}

/** Word-like tokens of a line; a line of punctuation only (`});`) is its own token. */
function tokenSet(line: string): Set<string> {
  const text = line.slice(0, MAX_TOKENISED_CHARS);
  const tokens = new Set(text.match(TOKEN) ?? []);
  const trimmed = text.trim();
  if (tokens.size === 0 && trimmed !== '') tokens.add(trimmed);
  return tokens;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const token of b) if (a.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}
