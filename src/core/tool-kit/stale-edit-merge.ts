import { lstat } from 'node:fs/promises';
import { type MergeConflict, mergeThreeWay } from '../edit/three-way-merge.js';
import type { FileStamp } from '../log/file-stamp.js';
import type { ResolvedPath } from '../workspace/workspace-paths.js';
import { decodeText, unifiedDiff } from './file-text.js';
import type { ToolContext, ToolOutcome } from './tool-spec.js';

/** The answers offered when the model's edit and the user's changes conflict. */
export const CONFLICT_CHOICES = {
  user: 'Keep my version of the conflicting lines',
  model: "Take the model's version of the conflicting lines",
  reject: 'Reject the edit',
} as const;

/** Conflicts shown in full, and lines of each side shown per conflict; the rest is counted. */
const SHOWN_CONFLICTS = 10;
const SHOWN_LINES = 40;
/** Longest patch of the user's changes put in a tool result; a longer one is replaced by a note. */
const MAX_PATCH_CHARS = 20_000;

/** The version the model last read or Smith last wrote of a file that has changed since. */
export interface StaleBase {
  readonly text: string;
  readonly stamp: FileStamp;
}

/** How an edit was merged into a file changed since the model's read: what to tell the model and record. */
export interface MergeReport {
  /** The changes made since the read, as a patch from that version to the file before the edit (or a note when too long). */
  readonly userChanges: string;
  readonly conflicts: number;
  /** Which side the user kept where both changed the same lines. */
  readonly resolution?: 'user' | 'model';
}

/** A proposal made over a changed file, and the report of its merge. */
export interface MergedProposal {
  readonly original: string;
  readonly proposed: string;
  readonly merge: MergeReport;
}

/**
 * The content the model last saw of a file that changed since, when an edit can be merged into
 * the file as it is now: the version is still kept (it was not too big, the store was not pruned),
 * it is text, and the path is not a symbolic link now (a link the user put there leads elsewhere:
 * its target is not the file the model read). Undefined: the edit is refused as before.
 */
export async function staleBase(context: ToolContext, target: ResolvedPath, known: FileStamp): Promise<StaleBase | undefined> {
  const bytes = context.fileVersions?.bytesOf(known.sha256);
  if (!bytes) return undefined;
  const decoded = decodeText(bytes);
  if (!('text' in decoded)) return undefined;
  const link = await lstat(target.absolute).then(
    (info) => info.isSymbolicLink(),
    () => true,
  );
  return link ? undefined : { text: decoded.text, stamp: known };
}

/**
 * Merges the model's edit (`ours`, made on the version it saw) into the file as it is now. A clean
 * merge becomes the proposal; conflicts are put to the user (keep theirs, take the model's, or
 * reject) unless the call would be approved without asking or nobody can answer: then nothing is
 * written and the model gets the conflicts.
 */
export async function mergeStaleEdit(
  context: ToolContext,
  target: ResolvedPath,
  current: { readonly text: string },
  base: StaleBase,
  ours: string,
): Promise<MergedProposal | ToolOutcome> {
  const merged = mergeThreeWay(base.text, ours, current.text);
  const userChanges = patchForModel(target.display, base.text, current.text);
  if (merged.kind === 'too_large') {
    return {
      kind: 'error',
      error: `${changedSinceRead(target.display)}, and the changes on both sides are too large to merge, so your edit was not applied and the file keeps those changes. Read it again with read_file, then redo your edit on its current content.`,
      mistake: false,
    };
  }
  if (merged.kind === 'clean') return { original: current.text, proposed: merged.text, merge: { userChanges, conflicts: 0 } };

  const shown = describeConflicts(merged.conflicts);
  const refused = (why: string): ToolOutcome => ({
    kind: 'error',
    error: `${changedSinceRead(target.display)}, and your edit conflicts with those changes in ${count(merged.conflicts.length, 'place')} (${why}), so nothing was written and the file keeps the user's version. The conflicts (<<<<<<< your edit, ||||||| the version you read, ======= then >>>>>>> the file now):\n${shown}\nRead the file again with read_file, then redo your edit on its current content.`,
    mistake: false,
  });
  const facts = { outsideWorkspace: !target.insideWorkspace };
  if (context.wouldAutoApprove?.(facts) ?? true) return refused('edits are approved without asking, and a side is never picked without the user');
  const question = `${target.display} was changed since the model read it, and the model's edit conflicts with those changes in ${count(merged.conflicts.length, 'place')} (<<<<<<< the model's edit, ||||||| the version it read, ======= then >>>>>>> your version):\n${fenced(shown)}\nWhich version of these lines should be kept? Everything else of both changes is merged either way, and you approve the whole result next, before anything is written.`;
  const answer = await context.host.questions.ask(question, Object.values(CONFLICT_CHOICES), context.signal);
  if (answer === undefined) return refused('nobody could be asked which to keep');
  if (answer === CONFLICT_CHOICES.user)
    return { original: current.text, proposed: merged.resolve('theirs'), merge: { userChanges, conflicts: merged.conflicts.length, resolution: 'user' } };
  if (answer === CONFLICT_CHOICES.model)
    return { original: current.text, proposed: merged.resolve('ours'), merge: { userChanges, conflicts: merged.conflicts.length, resolution: 'model' } };
  return { kind: 'rejected', ...(answer === CONFLICT_CHOICES.reject ? {} : { feedback: answer }) };
}

/** The words every result about a changed file starts with. */
export function changedSinceRead(display: string): string {
  return `${display} was changed on disk since you last read or wrote it (by the user or another program)`;
}

/** What the model is told after a merged edit was saved. */
export function mergeNote(display: string, merge: MergeReport): string {
  const resolved =
    merge.resolution === 'user'
      ? ` Where both changed the same lines (${count(merge.conflicts, 'place')}), the user kept their version.`
      : merge.resolution === 'model'
        ? ` Where both changed the same lines (${count(merge.conflicts, 'place')}), the user took your version.`
        : '';
  return `\n\n${changedSinceRead(display)}. Those changes were kept and your edit was merged into them.${resolved} The changes made since your read, as a patch from the version you read to the file as it was before your edit:\n${merge.userChanges}\nBase your next edit of ${display} on the file as it is now (your edit and these changes).`;
}

function patchForModel(display: string, before: string, after: string): string {
  const patch = unifiedDiff(display, before, after);
  return patch.length <= MAX_PATCH_CHARS
    ? patch
    : `(The patch is ${patch.length} characters long, too long to show: read the file again before editing it further.)`;
}

/** Conflicts in diff3 style, a few lines of each side. */
function describeConflicts(conflicts: readonly MergeConflict[]): string {
  const parts = conflicts.slice(0, SHOWN_CONFLICTS).map((conflict) => {
    const where = conflict.baseLine === 0 ? 'at the top' : `at line ${conflict.baseLine} of the version read`;
    return [
      `@@ ${where} @@`,
      '<<<<<<<',
      ...shownLines(conflict.ours),
      '|||||||',
      ...shownLines(conflict.base),
      '=======',
      ...shownLines(conflict.theirs),
      '>>>>>>>',
    ].join('\n');
  });
  const more = conflicts.length > SHOWN_CONFLICTS ? `\n(${conflicts.length - SHOWN_CONFLICTS} more conflicts not shown.)` : '';
  return `${parts.join('\n')}${more}`;
}

/** Text in a Markdown code fence longer than any run of backticks in it (the panel renders questions as Markdown). */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}

function shownLines(lines: readonly string[]): string[] {
  return lines.length <= SHOWN_LINES ? [...lines] : [...lines.slice(0, SHOWN_LINES), `(${lines.length - SHOWN_LINES} more lines)`];
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
