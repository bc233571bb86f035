import { scoreWindows } from './content-scan.js';
import { isBlank, punctuationNormaliser } from './line-normalisers.js';
import { pickAnchors } from './line-tokens.js';
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

// The work is bounded whatever the file: one cheap token pass over the file (content-scan.ts)
// scores windows that start where a line shares tokens with the first or a distinctive SEARCH
// line, then only the best few windows are compared in full, on a prefix of the SEARCH.
const MAX_COMPARED_LINES = 20;
const MAX_WINDOWS = 12;

/** Finds the region of the LF text `text` most similar to the SEARCH lines, cheaply. */
export function findClosestRegion(text: string, search: readonly string[]): ClosestRegion | undefined {
  const searchContent = search.filter((line) => !isBlank(line));
  const wanted = searchContent.slice(0, MAX_COMPARED_LINES).map(punctuationNormaliser);
  if (wanted.length === 0) return undefined;
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
    wholeSearchCompared: wanted.length === searchContent.length,
  };
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
