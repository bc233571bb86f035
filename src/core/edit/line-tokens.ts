// The word tokens the closest-region search compares lines by. Kept apart from the search so that
// the fast byte scanner (content-scan.ts) and the string path it falls back to share one definition.

/** Only a line's first characters are tokenised, which bounds the work on minified lines. */
export const MAX_TOKENISED_CHARS = 300;
const TOKEN = /[A-Za-z0-9_$]{2,}/g;

/** A SEARCH line that windows are anchored on. */
export interface Anchor {
  /** Position of the anchor among the SEARCH's non-blank lines. */
  readonly offset: number;
  readonly tokens: ReadonlySet<string>;
}

const MAX_ANCHORS = 3;

/** The first SEARCH line plus the lines with the most distinct tokens, which are least likely to repeat. */
export function pickAnchors(wanted: readonly string[]): Anchor[] {
  const all = wanted.map((line, offset) => ({ offset, tokens: tokenSet(line) }));
  const rest = all.slice(1).sort((a, b) => b.tokens.size - a.tokens.size);
  return [all[0]!, ...rest].slice(0, MAX_ANCHORS).filter((anchor) => anchor.tokens.size > 0);
}

/** Word-like tokens of a (normalised) line; a line of punctuation only (`});`) is its own token. */
export function tokenSet(line: string): Set<string> {
  const text = line.slice(0, MAX_TOKENISED_CHARS);
  const tokens = new Set(text.match(TOKEN) ?? []);
  const trimmed = text.trim();
  if (tokens.size === 0 && trimmed !== '') tokens.add(trimmed);
  return tokens;
}

/** Shared tokens over all tokens; 0 when either side has none. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const token of b) if (a.has(token)) shared++;
  return jaccardOf(shared, a.size, b.size);
}

/** The same ratio from counts, so that both paths of the scan compute the identical number. */
export function jaccardOf(shared: number, sizeA: number, sizeB: number): number {
  return shared / (sizeA + sizeB - shared);
}
