import type { ClosestRegion } from './closest-region.js';
import { STRATEGY_DESCRIPTIONS, triedMatches } from './match-strategies.js';

/** Which block of how many a message is about. */
export interface BlockLabel {
  readonly index: number;
  readonly total: number;
}

const SHOWN_SEARCH_LINES = 5;
const SHOWN_REGION_LINES = 15;
const NOTHING_CHANGED = 'Nothing was changed: the blocks of one replace_in_file call are applied all together or not at all.';

/** Names a block the way the model counts them, e.g. "SEARCH block 2 of 3". */
function blockName(label: BlockLabel): string {
  return `SEARCH block ${label.index + 1} of ${label.total}`;
}

/** The message for a SEARCH text that matched nowhere. */
export function notFoundMessage(label: BlockLabel, search: readonly string[], closest: ClosestRegion | undefined, changedByEarlierBlock: boolean): string {
  const parts = [
    `${blockName(label)} does not match the file. Tried, always on whole lines: ${listWords(triedMatches(search))}.`,
    'The SEARCH text starts with:',
    quoteSearch(search),
  ];
  if (changedByEarlierBlock) {
    parts.push(
      'That text is in the file, but an earlier block of this call already changes it. Merge the two blocks into one, or base this SEARCH on the text as it will be after the earlier block.',
    );
  }
  if (closest) {
    const last = closest.startLine + closest.lines.length;
    const range = closest.lines.length === 1 ? `line ${closest.startLine + 1}` : `lines ${closest.startLine + 1}-${last}`;
    parts.push(`The closest region of the file is ${range} (${Math.round(closest.similarity * 100)}% similar):`, numberLines(closest.lines, closest.startLine));
    if (closest.similarity === 1 && closest.wholeSearchCompared && !changedByEarlierBlock) {
      parts.push("Its text is the same, but its indentation does not follow the SEARCH's nesting; copy the lines with their exact indentation.");
    }
  } else {
    parts.push('No region of the file resembles it.');
  }
  parts.push(
    'Use read_file to get the current content of the file, then retry with a SEARCH part copied exactly from it (whole lines, without line numbers).',
    NOTHING_CHANGED,
  );
  return parts.join('\n');
}

/** The message for a SEARCH text that matched several places. */
export function ambiguousMessage(label: BlockLabel, strategy: string, startLines: readonly number[], wholeFile: boolean): string {
  const where = wholeFile ? 'in the file' : "after the previous block's end";
  const how = STRATEGY_DESCRIPTIONS[strategy.replace(/^line-numbers\+/, '')] ?? strategy;
  const distinct = [...new Set(startLines.map((line) => line + 1))];
  const at = `${distinct.length === 1 ? 'line' : 'lines'} ${listLines(distinct)}`;
  return [
    `${blockName(label)} occurs ${startLines.length} times ${where} (matching ${how}), at ${at}, so it is ambiguous and was not applied.`,
    'Add more surrounding lines to the SEARCH part (for example the lines just above or below) so that it matches exactly one place.',
    NOTHING_CHANGED,
  ].join('\n');
}

/** The message for an empty SEARCH part on a file that has content. */
export function emptySearchMessage(label: BlockLabel): string {
  return [
    `${blockName(label)} has an empty SEARCH part. An empty SEARCH is only allowed when the file is empty, and this file is not.`,
    'To insert lines, put an existing nearby line in SEARCH and repeat it in REPLACE together with the new lines. To rewrite the whole file, use write_to_file.',
    NOTHING_CHANGED,
  ].join('\n');
}

function quoteSearch(search: readonly string[]): string {
  const shown = search.slice(0, SHOWN_SEARCH_LINES).map((line) => `  ${line}`);
  const hidden = search.length - shown.length;
  if (hidden > 0) shown.push(`  … (${hidden} more line${hidden === 1 ? '' : 's'})`);
  return shown.join('\n');
}

/** Shows lines with 1-based numbers in read_file's `N | text` form. */
function numberLines(lines: readonly string[], firstLine: number): string {
  const shown = lines.slice(0, SHOWN_REGION_LINES);
  const width = String(firstLine + shown.length).length;
  const numbered = shown.map((line, i) => `${String(firstLine + i + 1).padStart(width)} | ${line}`);
  if (lines.length > shown.length) numbered.push(`… (${lines.length - shown.length} more lines)`);
  return numbered.join('\n');
}

function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function listLines(lines: readonly number[]): string {
  if (lines.length <= 1) return lines.join('');
  const shown = lines.slice(0, 10);
  const more = lines.length > shown.length ? ` and ${lines.length - shown.length} more` : '';
  if (more) return shown.join(', ') + more;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
