import { scoreWindows } from './content-scan.js';
import { isBlank, punctuationNormaliser } from './line-normalisers.js';
import { pickAnchors } from './line-tokens.js';
import { findRegionByLookups } from './region-lookup.js';
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

// Only the start of a long SEARCH is compared, which bounds the similarity work per window.
const MAX_COMPARED_LINES = 20;
const MAX_WINDOWS = 12;

// Up to this size (about 2,000 lines of code) the whole file is scored (content-scan.ts): that
// costs well under a millisecond, and keeps the regions this search has always named on the files
// models edit most. Above it the pass over every byte alone costs 12 to 30 times an indexOf finding
// nothing in the same text, so a large file is only looked up (region-lookup.ts), at about the
// cost of a few indexOf passes. The full scan is no fallback when the look-ups find nothing, as
// it would cost the same again: they already try the SEARCH lines' common starts then, and a
// SEARCH whose lines agree with no line of the file even on those is told that nothing resembles it.
const FULL_SCAN_MAX_CHARS = 64 * 1024;

/** Finds the region of the LF text `text` most similar to the SEARCH lines, cheaply. */
export function findClosestRegion(text: string, search: readonly string[]): ClosestRegion | undefined {
  return text.length <= FULL_SCAN_MAX_CHARS ? scanWholeFile(text, search) : lookUpClosestRegion(text, search);
}

/** The SEARCH as it is compared: its first non-blank lines, raw and normalised. */
interface ComparedSearch {
  readonly raw: readonly string[];
  readonly wanted: readonly string[];
  readonly wholeSearchCompared: boolean;
}

function compareSearch(search: readonly string[]): ComparedSearch | undefined {
  const searchContent = search.filter((line) => !isBlank(line));
  const raw = searchContent.slice(0, MAX_COMPARED_LINES);
  if (raw.length === 0) return undefined;
  return { raw, wanted: raw.map(punctuationNormaliser), wholeSearchCompared: raw.length === searchContent.length };
}

/** The search large files get, whatever their size (exported for its quality test): a few look-ups instead of a pass over every line. */
export function lookUpClosestRegion(text: string, search: readonly string[]): ClosestRegion | undefined {
  const compared = compareSearch(search);
  if (!compared) return undefined;
  const searchChars = compared.raw.reduce((sum, line) => sum + line.length + 1, 0);
  const found = findRegionByLookups(text, compared.wanted, searchChars);
  if (!found) return undefined;
  return {
    startLine: lineNumberAt(text, found.start),
    lines: text.slice(found.start, found.end).split('\n'),
    similarity: found.similarity,
    wholeSearchCompared: compared.wholeSearchCompared,
  };
}

// One token pass over the file (content-scan.ts) scores windows that start where a line shares
// tokens with the first or a distinctive SEARCH line, then only the best few windows are compared
// in full.
function scanWholeFile(text: string, search: readonly string[]): ClosestRegion | undefined {
  const compared = compareSearch(search);
  if (!compared) return undefined;
  const { wanted } = compared;
  const { content, scores } = scoreWindows(text, pickAnchors(wanted));
  const count = content.count;
  if (count === 0) return undefined;
  const normalisedLine = (position: number): string => punctuationNormaliser(text.slice(content.start[position]!, content.end[position]!));

  let best: { readonly window: number; readonly similarity: number } | undefined;
  for (const window of bestWindows(scores, MAX_WINDOWS)) {
    const region: string[] = [];
    for (let position = window; position < Math.min(count, window + wanted.length); position++) region.push(normalisedLine(position));
    while (region.length < wanted.length) region.push('');
    const similarity = linesSimilarity(wanted, region);
    if (!best || similarity > best.similarity) best = { window, similarity };
  }
  if (!best) return undefined;
  const last = Math.min(count - 1, best.window + wanted.length - 1);
  return {
    startLine: content.lineIndex[best.window]!,
    lines: text.slice(content.start[best.window]!, content.end[last]!).split('\n'),
    similarity: best.similarity,
    wholeSearchCompared: compared.wholeSearchCompared,
  };
}

/** The 0-based number of the line that contains `offset`: newlines are counted with indexOf, the fastest way in JS. */
function lineNumberAt(text: string, offset: number): number {
  let line = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/**
 * The `limit` windows with the highest scores, highest first and the earlier window first among
 * equals; windows scored 0 share no token with any anchor and are never picked.
 */
export function bestWindows(scores: ArrayLike<number>, limit: number): number[] {
  const top: number[] = [];
  if (limit <= 0) return top;
  for (let window = 0; window < scores.length; window++) {
    const score = scores[window]!;
    if (score <= 0 || (top.length === limit && score <= scores[top[limit - 1]!]!)) continue;
    // Windows arrive in order, so an equal score already listed stays ahead of this one.
    let at = top.length;
    while (at > 0 && scores[top[at - 1]!]! < score) at--;
    top.splice(at, 0, window);
    if (top.length > limit) top.pop();
  }
  return top;
}
