import { applyReplacement } from './apply-replacement.js';
import { locateBlock } from './block-locator.js';
import { findClosestRegion } from './closest-region.js';
import { parseDiffBlocks } from './diff-blocks.js';
import type { DiffBlock } from './diff-blocks.js';
import { ambiguousMessage, emptySearchMessage, notFoundMessage } from './edit-messages.js';
import type { BlockLabel } from './edit-messages.js';
import { isBlank } from './line-normalisers.js';
import { splitAtElisions } from './elision.js';
import { toCurrentLine, toOriginalLine } from './line-shifts.js';
import type { LineShift } from './line-shifts.js';
import { countChar, decodeText, encodeText } from './text-format.js';
import { TextLines } from './text-lines.js';
import type { EditFailed, EditResult } from './types.js';

/** Applies all SEARCH/REPLACE blocks of one replace_in_file call atomically. */
export function applySearchReplace(original: string, diff: string): EditResult {
  const parsed = parseDiffBlocks(diff);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const { text: originalText, format } = decodeText(original);
  const total = parsed.blocks.length;
  const shifts: LineShift[] = [];
  const strategies: string[] = [];
  let text = originalText;
  // Tracked apart so that the edited text, left as joined pieces, is never read just for this.
  let endsWithNewline = originalText.endsWith('\n');
  let regionStart = 0;

  // Each entry is a block to place, with the index of the diff block it came from (elided blocks split into parts).
  const queue: { block: DiffBlock; index: number; split: boolean }[] = parsed.blocks.map((block, index) => ({ block, index, split: false }));
  while (queue.length > 0) {
    const { block, index, split } = queue.shift()!;
    const label: BlockLabel = { index, total };
    if (block.search.every(isBlank)) {
      if (!isBlank(text)) return failed(emptySearchMessage(label), index);
      const content = block.replace.join('\n');
      shifts.push({ startLine: 0, removedNewlines: countChar(text, '\n'), addedNewlines: countChar(content, '\n') });
      text = content;
      endsWithNewline = content.endsWith('\n');
      regionStart = content.length;
      strategies.push('empty-file');
      continue;
    }
    const lines = new TextLines(text);
    const hint = block.startLine === undefined ? undefined : toCurrentLine(Math.max(0, block.startLine - 1), shifts);
    const location = locateBlock(block.search, block.replace, lines, regionStart, hint);
    // A block that matched only loosely (or not at all) and elides code is placed part by part.
    const loose = location.kind === 'not-found' || (location.kind === 'found' && location.match.strategy.endsWith('block-anchor'));
    if (loose && !split) {
      const elided = splitAtElisions(block);
      if (elided.kind === 'unusable') return failed(`SEARCH block ${index + 1} of ${total} was not applied: ${elided.reason}.`, index);
      if (elided.kind === 'split') {
        queue.unshift(...elided.parts.map((part) => ({ block: part, index, split: true })));
        continue;
      }
    }
    if (location.kind === 'not-found') return failed(explainNotFound(label, block, originalText), index);
    if (location.kind === 'ambiguous') {
      // Line numbers refer to the file as the model read it, before this call's earlier blocks.
      const startLines = location.startLines.map((line) => toOriginalLine(line, shifts));
      return failed(ambiguousMessage(label, location.match.strategy, startLines, location.wholeFile), index);
    }
    const applied = applyReplacement(lines, location.match, location.candidate, endsWithNewline);
    shifts.push(applied.shift);
    text = applied.text;
    endsWithNewline = applied.endsWithNewline;
    regionStart = applied.end;
    strategies.push(location.match.strategy);
  }
  return { ok: true, content: encodeText(text, format, endsWithNewline), strategies };
}

/** Builds the not-found message against the file as the model last read it. */
function explainNotFound(label: BlockLabel, block: DiffBlock, originalText: string): string {
  const closest = findClosestRegion(originalText, block.search);
  // A later block whose text an earlier block rewrote would match the untouched file.
  const changedByEarlierBlock = label.index > 0 && locateBlock(block.search, block.replace, new TextLines(originalText), 0, undefined).kind !== 'not-found';
  return notFoundMessage(label, block.search, closest, changedByEarlierBlock);
}

function failed(error: string, blockIndex: number): EditFailed {
  return { ok: false, error, blockIndex };
}
