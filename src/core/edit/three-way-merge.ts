import { diffArrays } from 'diff';
import { diff3Merge } from 'node-diff3';
import { decodeText, encodeText } from './text-format.js';

/**
 * Most lines one side may add and remove in all (between its first and last change) before the
 * merge is not attempted: jsdiff's Myers diff grows with the square of that (about a second for
 * 1,000 changes spread over a file).
 */
const MAX_EDIT_LENGTH = 1_000;

/**
 * Largest place both sides changed that is merged, as lines of the base times lines of the longer
 * side there: the diff3 library's LCS grows with that product (and worse on repeated lines), so
 * two large rewrites of the same part of a file are not merged.
 */
const MAX_WINDOW_PRODUCT = 250_000;

/** One place both sides changed differently. */
export interface MergeConflict {
  /** 1-based line of the base where the conflicting part starts (0 when it is at the very top and empty). */
  readonly baseLine: number;
  readonly base: readonly string[];
  /** The edited side's lines (the model's). */
  readonly ours: readonly string[];
  /** The current side's lines (the user's). */
  readonly theirs: readonly string[];
}

/** Which side a conflict resolution keeps. */
export type MergeSide = 'ours' | 'theirs';

/**
 * A three-way merge of an edit into a file that changed meanwhile: clean, in conflict (the places
 * both sides changed differently, and the whole text with each conflict resolved to one side),
 * or not attempted (the changes are too large to merge quickly).
 */
export type ThreeWayMerge =
  | { readonly kind: 'clean'; readonly text: string }
  | { readonly kind: 'conflict'; readonly conflicts: readonly MergeConflict[]; resolve(side: MergeSide): string }
  | { readonly kind: 'too_large' };

type Region =
  | { readonly ok: readonly string[] }
  | { readonly conflict: { readonly a: string[]; readonly o: string[]; readonly b: string[]; readonly oIndex: number } };

/**
 * Merges `ours` (base with an edit applied) into `theirs` (base as someone else changed it), line
 * by line, with node-diff3 (the diff3 algorithm). Line endings and a BOM are compared away, and the
 * result takes `theirs`' BOM and line endings (the current file's, as an edit keeps them); the
 * final newline is a line like the others. A change both sides made identically is no conflict;
 * changes to the same or touching lines are.
 */
export function mergeThreeWay(base: string, ours: string, theirs: string): ThreeWayMerge {
  const current = decodeText(theirs);
  const regions = mergeLines(decodeText(base).text.split('\n'), decodeText(ours).text.split('\n'), current.text.split('\n'));
  if (regions === undefined) return { kind: 'too_large' };
  const encode = (lines: readonly string[]) => {
    const text = lines.join('\n');
    return encodeText(text, { ...current.format, finalNewline: text.endsWith('\n') });
  };
  const conflicts: MergeConflict[] = [];
  for (const region of regions) {
    if ('conflict' in region) {
      const { a, o, b, oIndex } = region.conflict;
      conflicts.push({ baseLine: o.length === 0 ? oIndex : oIndex + 1, base: o, ours: a, theirs: b });
    }
  }
  if (conflicts.length === 0) return { kind: 'clean', text: encode(joinRegions(regions, 'theirs')) };
  return { kind: 'conflict', conflicts, resolve: (side) => encode(joinRegions(regions, side)) };
}

/** The merged lines, each conflict resolved to `side`. */
function joinRegions(regions: readonly Region[], side: MergeSide): string[] {
  const lines: string[] = [];
  for (const region of regions) {
    const part = 'ok' in region ? region.ok : side === 'ours' ? region.conflict.a : region.conflict.b;
    for (const line of part) lines.push(line);
  }
  return lines;
}

/** One change of a side: o[oStart, oEnd) became side[sStart, sEnd). */
interface Hunk {
  readonly side: 'a' | 'b';
  readonly oStart: number;
  readonly oEnd: number;
  readonly sStart: number;
  readonly sEnd: number;
}

/**
 * A side's changes to `o`, by jsdiff's Myers diff of the part between their common first and last
 * lines (a big file with a few changes costs a scan, not a diff of every line); undefined when the
 * side changed more lines than MAX_EDIT_LENGTH.
 */
function hunksOf(o: string[], lines: string[], side: 'a' | 'b'): Hunk[] | undefined {
  const shortest = Math.min(o.length, lines.length);
  let head = 0;
  while (head < shortest && o[head] === lines[head]) head++;
  let tail = 0;
  while (tail < shortest - head && o[o.length - 1 - tail] === lines[lines.length - 1 - tail]) tail++;
  const changes = diffArrays(o.slice(head, o.length - tail), lines.slice(head, lines.length - tail), { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) return undefined;
  const hunks: Hunk[] = [];
  let oAt = head;
  let sAt = head;
  let open: { oStart: number; sStart: number } | undefined;
  for (const change of changes) {
    const count = change.value.length;
    if (!change.added && !change.removed) {
      if (open) hunks.push({ side, oStart: open.oStart, oEnd: oAt, sStart: open.sStart, sEnd: sAt });
      open = undefined;
      oAt += count;
      sAt += count;
      continue;
    }
    open ??= { oStart: oAt, sStart: sAt };
    if (change.removed) oAt += count;
    else sAt += count;
  }
  if (open) hunks.push({ side, oStart: open.oStart, oEnd: oAt, sStart: open.sStart, sEnd: sAt });
  return hunks;
}

/**
 * The merge as regions. Each side's changes are found apart (hunks); hunks of both sides that
 * overlap or touch form a cluster, as in diff3, and only such a cluster is handed to node-diff3,
 * with the lines it spans on each side: everywhere else one side's change (or neither) applies.
 * So a big file costs two fast diffs, not diff3's LCS of the whole file.
 */
function mergeLines(o: string[], a: string[], b: string[]): Region[] | undefined {
  const ours = hunksOf(o, a, 'a');
  const theirs = hunksOf(o, b, 'b');
  if (ours === undefined || theirs === undefined) return undefined;
  const hunks = [...ours, ...theirs].sort((x, y) => x.oStart - y.oStart || x.oEnd - y.oEnd);
  const regions: Region[] = [];
  // Where each side stands (its line for o's line `at`), moved on past every hunk taken.
  const shift = { a: 0, b: 0 };
  let at = 0;
  for (let i = 0; i < hunks.length; ) {
    const first = hunks[i]!;
    let end = first.oEnd;
    let j = i + 1;
    while (j < hunks.length && hunks[j]!.oStart <= end) end = Math.max(end, hunks[j++]!.oEnd);
    const cluster = hunks.slice(i, j);
    i = j;
    regions.push({ ok: o.slice(at, first.oStart) });
    const start = first.oStart;
    const side = (name: 'a' | 'b', lines: string[]) => {
      const own = cluster.filter((hunk) => hunk.side === name);
      const from = start + shift[name];
      const grown = own.reduce((sum, hunk) => sum + (hunk.sEnd - hunk.sStart) - (hunk.oEnd - hunk.oStart), 0);
      shift[name] += grown;
      return lines.slice(from, end + shift[name]);
    };
    const wa = side('a', a);
    const wb = side('b', b);
    const wo = o.slice(start, end);
    at = end;
    if (!cluster.some((hunk) => hunk.side === 'b')) regions.push({ ok: wa });
    else if (!cluster.some((hunk) => hunk.side === 'a')) regions.push({ ok: wb });
    else {
      if (wo.length * Math.max(wa.length, wb.length, 1) > MAX_WINDOW_PRODUCT) return undefined;
      for (const region of diff3Merge(wa, wo, wb, { excludeFalseConflicts: true })) {
        if (region.conflict) regions.push({ conflict: { ...region.conflict, oIndex: region.conflict.oIndex + start } });
        else if (region.ok) regions.push({ ok: region.ok });
      }
    }
  }
  regions.push({ ok: o.slice(at) });
  return regions;
}
