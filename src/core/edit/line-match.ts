import { isBlank } from './line-normalisers.js';
import type { LineNormaliser } from './line-normalisers.js';
import { someLineAbsent } from './line-presence.js';
import type { Candidate, SearchScope } from './match-types.js';
import { indentPairs, isIndentationConsistent } from './reindent.js';

/** How a line-based strategy compares SEARCH lines with file lines. */
export interface LineMatchRule {
  readonly normaliser: LineNormaliser;
  /** Blank lines on either side are ignored, so SEARCH may have extra or missing empty lines. */
  readonly skipBlankLines: boolean;
  /** The file's indentation must follow the SEARCH's nesting (see isIndentationConsistent). */
  readonly requireConsistentIndent: boolean;
}

/** Finds every run of file lines equal to the SEARCH lines under a rule. */
export function findLineMatches(search: readonly string[], scope: SearchScope, rule: LineMatchRule): Candidate[] {
  // Only lines equal to the first SEARCH line start a comparison, so the cost stays close to one
  // pass over the (already normalised) file lines.
  const wanted: Array<{ readonly index: number; readonly text: string }> = [];
  search.forEach((line, index) => {
    if (!(rule.skipBlankLines && isBlank(line))) wanted.push({ index, text: rule.normaliser(line) });
  });
  if (wanted.length === 0) return [];
  // Every wanted line must equal some file line; a line the file certainly lacks ends the search
  // before any file line is normalised.
  if (
    someLineAbsent(
      wanted.map(({ index }) => search[index]!),
      scope.lacksLine,
    )
  )
    return [];
  const file = scope.normalised(rule.normaliser);
  const raw = scope.lines.lines;
  const first = wanted[0]!.text;
  const found: Candidate[] = [];
  for (let start = scope.fromLine; start < file.length; start++) {
    if (file[start] !== first) continue;
    const aligned = new Map<number, number>([[wanted[0]!.index, start]]);
    let at = start;
    let matched = true;
    for (let k = 1; k < wanted.length; k++) {
      at++;
      if (rule.skipBlankLines) while (at < file.length && isBlank(raw[at]!)) at++;
      if (at >= file.length || file[at] !== wanted[k]!.text) {
        matched = false;
        break;
      }
      aligned.set(wanted[k]!.index, at);
    }
    if (!matched) continue;
    if (rule.requireConsistentIndent && !isIndentationConsistent(indentPairs(search, raw, aligned))) continue;
    found.push({ start: scope.lines.startOf(start), end: scope.lines.endOf(at), aligned });
  }
  return found;
}
