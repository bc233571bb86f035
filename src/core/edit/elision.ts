import type { DiffBlock } from './diff-blocks.js';

// "// ... existing code ...", "/* ... */", "# ...", "<!-- ... -->", "…": lines models write for
// code they left out. Python's bare `...` is real code, which is why the engine looks at these
// only after the block failed to match the file as written.
const COMMENTED_ELISION = /^\s*(?:\/\/|#|--|;|\/\*|<!--|\{\/\*)\s*(?:\.{3}|…)[\w ,'.…-]{0,60}(?:\*\/\}?|-->)?\s*$/;
const BARE_ELISION = /^\s*(?:\.{3}|…)\s*$/;

/** True when a line stands for code the model left out. */
export function isElisionLine(line: string): boolean {
  return COMMENTED_ELISION.test(line) || BARE_ELISION.test(line);
}

/** The block split at its elision lines, or why it cannot be. */
type ElisionSplit =
  | { readonly kind: 'none' }
  | { readonly kind: 'split'; readonly parts: readonly DiffBlock[] }
  | { readonly kind: 'unusable'; readonly reason: string };

/**
 * Splits a block whose SEARCH and REPLACE both elide the same stretches of code into one block per
 * written stretch, so the elided lines stay as they are in the file. Each part is then located
 * after the previous one, which keeps the parts in order and refuses ambiguous places.
 */
export function splitAtElisions(block: DiffBlock): ElisionSplit {
  const search = segments(block.search);
  if (search.length === 1) return { kind: 'none' };
  const replace = segments(block.replace);
  if (replace.length !== search.length) {
    return {
      kind: 'unusable',
      reason: `the SEARCH text leaves out code with ${search.length - 1} "..." line(s) but the REPLACE text has ${replace.length - 1}; a SEARCH block must match the file line for line, so write the lines out in full (or elide the same stretches in both parts)`,
    };
  }
  const parts: DiffBlock[] = [];
  for (const [i, searchPart] of search.entries()) {
    const replacePart = replace[i]!;
    if (searchPart.length === 0 && replacePart.length === 0) continue;
    if (searchPart.length === 0) {
      return {
        kind: 'unusable',
        reason: 'new lines were written next to a "..." line, so where they belong is unclear; write the surrounding lines out in full',
      };
    }
    parts.push({ search: searchPart, replace: replacePart });
  }
  return parts.length > 0 ? { kind: 'split', parts } : { kind: 'none' };
}

function segments(lines: readonly string[]): string[][] {
  const result: string[][] = [[]];
  for (const line of lines) {
    if (isElisionLine(line)) result.push([]);
    else result.at(-1)!.push(line);
  }
  return result;
}
