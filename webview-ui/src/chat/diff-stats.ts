/** Lines added and removed by an edit. */
export interface DiffStats {
  readonly added: number;
  readonly removed: number;
}

/** Counts +/− lines of a unified diff, ignoring the ---/+++ file headers before the first hunk. */
export function statsFromUnifiedDiff(diff: string): DiffStats {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk && (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('diff ') || line.startsWith('index '))) continue;
    else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

const SEARCH_START = /^(?:-{3,}|<{3,}) ?SEARCH>?\s*$/;
const DIVIDER = /^={3,}\s*$/;
const REPLACE_END = /^(?:\+{3,}|>{3,}) ?REPLACE>?\s*$/;
// Roo Code's block header lines between `<<<<<<< SEARCH` and the search text.
const ROO_HEADER = /^(?::start_line:\s*\d+|:end_line:\s*\d+|-{3,})\s*$/;

/** Counts the lines that SEARCH/REPLACE blocks (Cline's and Roo Code's dialects) change. */
export function statsFromSearchReplace(diff: string): DiffStats {
  let added = 0;
  let removed = 0;
  let state: 'outside' | 'search' | 'replace' = 'outside';
  let search: string[] = [];
  let replace: string[] = [];
  for (const line of diff.replace(/\r\n/g, '\n').split('\n')) {
    if (state === 'outside') {
      if (SEARCH_START.test(line)) {
        state = 'search';
        search = [];
        replace = [];
      }
    } else if (state === 'search') {
      if (DIVIDER.test(line)) state = 'replace';
      else if (!(search.length === 0 && ROO_HEADER.test(line))) search.push(line);
    } else if (REPLACE_END.test(line)) {
      const changed = changedLines(search, replace);
      added += changed.added;
      removed += changed.removed;
      state = 'outside';
    } else {
      replace.push(line);
    }
  }
  return { added, removed };
}

/** Stats for an edit tool's params, when no diff from the host is at hand. */
export function statsFromParams(tool: string, params: Readonly<Record<string, string>>): DiffStats | undefined {
  if (tool === 'replace_in_file' && params.diff !== undefined) return statsFromSearchReplace(params.diff);
  if (tool === 'write_to_file' && params.content !== undefined) return { added: countLines(params.content), removed: 0 };
  return undefined;
}

function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

// Beyond this many line pairs the exact count is not worth the time; report the raw sizes.
const LCS_LIMIT = 250_000;

/** Lines only in `before` are removed, only in `after` added (longest common subsequence). */
function changedLines(before: readonly string[], after: readonly string[]): DiffStats {
  if (before.length * after.length > LCS_LIMIT) return { added: after.length, removed: before.length };
  let previous = new Array<number>(after.length + 1).fill(0);
  for (let i = 1; i <= before.length; i++) {
    const current = new Array<number>(after.length + 1).fill(0);
    for (let j = 1; j <= after.length; j++) {
      current[j] = before[i - 1] === after[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    previous = current;
  }
  const common = previous[after.length]!;
  return { added: after.length - common, removed: before.length - common };
}
