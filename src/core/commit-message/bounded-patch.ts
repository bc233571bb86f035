// A patch cut to a size a model request can carry: every file keeps a part of its diff, the small
// ones whole, the large ones their first lines, the budget shared so one huge file cannot crowd
// out the others. What was cut is said where it was cut.

/** How much of a patch goes to the model. */
export interface PatchLimits {
  /** The whole patch, in characters. */
  readonly maxChars: number;
  /** The least share of a file whose diff is shown; with more files than the patch has room for at this size, the later ones are named only. */
  readonly minFileChars: number;
}

export const DEFAULT_PATCH_LIMITS: PatchLimits = { maxChars: 24_000, minFileChars: 400 };

/** One file's part of a patch: from its `diff --git` line to the next. */
function fileSections(patch: string): string[] {
  const starts = [...patch.matchAll(/^diff --git /gm)].map((match) => match.index);
  if (starts.length === 0) return patch ? [patch] : [];
  return starts.map((start, i) => patch.slice(start, starts[i + 1] ?? patch.length));
}

/** The section's first whole lines within `room` characters, and a line saying how many were left out. */
function cutSection(section: string, room: number): string {
  const lines = section.split('\n');
  let kept = 0;
  let used = 0;
  while (kept < lines.length && used + lines[kept]!.length + 1 <= room) used += lines[kept++]!.length + 1;
  return `${lines.slice(0, kept).join('\n')}\n[… ${lines.length - kept} more lines of this file's diff left out]\n`;
}

/**
 * The patch within `limits.maxChars`: each file gets an equal share of what the smaller files left
 * (water-filling), in the patch's own order. `readCut` says git's output was already cut short.
 */
export function boundedPatch(patch: string, limits: Partial<PatchLimits> = {}, readCut = false): { text: string; cut: boolean } {
  const { maxChars, minFileChars } = { ...DEFAULT_PATCH_LIMITS, ...limits };
  const sections = fileSections(patch);
  const note = readCut ? '\n[… the diff was longer than Smith reads; the files after this point are named in the file list only]\n' : '';
  if (patch.length <= maxChars) return { text: patch + note, cut: readCut };
  // As many files as can each get a useful share, in the patch's order; the rest are named only.
  const shown = Math.min(sections.length, Math.max(1, Math.floor(maxChars / minFileChars)));
  const shares = new Array<number>(sections.length).fill(0);
  const bySize = sections
    .slice(0, shown)
    .map((section, index) => ({ index, size: section.length }))
    .sort((a, b) => a.size - b.size);
  let left = maxChars;
  for (const [position, { index, size }] of bySize.entries()) {
    shares[index] = Math.min(size, Math.floor(left / (bySize.length - position)));
    left -= shares[index]!;
  }
  const omitted = sections.length - shown;
  const parts = sections.slice(0, shown).map((section, index) => (shares[index]! >= section.length ? section : cutSection(section, shares[index]!)));
  const omittedNote = omitted > 0 ? `\n[… the diffs of ${omitted} more file${omitted === 1 ? '' : 's'} are left out; the file list names them]\n` : '';
  return { text: parts.join('') + omittedNote + note, cut: true };
}
