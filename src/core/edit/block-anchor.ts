import { isBlank, punctuationNormaliser } from './line-normalisers.js';
import { someLineAbsent } from './line-presence.js';
import type { Candidate, SearchScope } from './match-types.js';
import { indentPairs, isIndentationConsistent } from './reindent.js';
import { alignEqualLines, linesSimilarity } from './similarity.js';

// Below three lines the two anchors are the whole SEARCH and prove nothing about the interior.
const MIN_CONTENT_LINES = 3;
const MIN_INTERIOR_SIMILARITY = 0.8;
// Caps the similarity work when the anchor lines are common (`}` or `end`).
const MAX_SCORED_REGIONS = 200;

/** True when a SEARCH has enough non-blank lines for its first and last lines to anchor it. */
export function canAnchor(search: readonly string[]): boolean {
  return search.filter((line) => !isBlank(line)).length >= MIN_CONTENT_LINES;
}

/** Finds regions whose first and last lines equal the SEARCH's and whose interior is similar enough. */
export function findBlockAnchorMatches(search: readonly string[], scope: SearchScope): Candidate[] {
  // Lines compare ignoring whitespace and typographic punctuation; a region may have a few lines
  // more or fewer than the SEARCH, for models that dropped or invented a line.
  const content = search.flatMap((line, index) => (isBlank(line) ? [] : [index]));
  if (content.length < MIN_CONTENT_LINES) return [];
  // The first and last lines must equal file lines; the interior need only be similar.
  const edges = [search[content[0]!]!, search[content[content.length - 1]!]!];
  if (someLineAbsent(edges, scope.lacksLine)) return [];
  const wanted = content.map((index) => punctuationNormaliser(search[index]!));
  const first = wanted[0]!;
  const last = wanted[wanted.length - 1]!;
  const interior = wanted.slice(1, -1);
  const slack = Math.max(1, Math.floor(content.length / 4));
  const file = scope.normalised(punctuationNormaliser);
  const raw = scope.lines.lines;
  let budget = MAX_SCORED_REGIONS;
  const found: Candidate[] = [];
  for (let start = scope.fromLine; start < file.length && budget > 0; start++) {
    if (file[start] !== first) continue;
    const seen = [start];
    let best: { readonly lines: readonly number[]; readonly score: number } | undefined;
    for (let at = start + 1; at < file.length && seen.length < content.length + slack; at++) {
      if (isBlank(raw[at]!)) continue;
      seen.push(at);
      if (seen.length < content.length - slack || file[at] !== last) continue;
      if (budget-- <= 0) break;
      const score = linesSimilarity(
        interior,
        seen.slice(1, -1).map((line) => file[line]!),
      );
      if (score >= MIN_INTERIOR_SIMILARITY && (!best || score > best.score)) best = { lines: [...seen], score };
    }
    if (!best) continue;
    const regionText = best.lines.map((line) => file[line]!);
    const aligned = new Map<number, number>();
    for (const [i, j] of alignEqualLines(wanted, regionText)) aligned.set(content[i]!, best.lines[j]!);
    // Same guard as the line strategies: a region whose nesting differs is different code.
    if (!isIndentationConsistent(indentPairs(search, raw, aligned))) continue;
    const end = best.lines[best.lines.length - 1]!;
    found.push({ start: scope.lines.startOf(start), end: scope.lines.endOf(end), aligned });
  }
  return found;
}
