import type { EditFacts } from '../../shared/tool-details.js';
import { REDACTED } from '../secrets/secret-redactor.js';
import type { ResolvedPath } from '../workspace/workspace-paths.js';
import { notAFileMessage, readWholeText, tooLargeToEditMessage } from './file-reading.js';
import { staleFileRefusal, stampOfText, type FileStamp } from './file-stamping.js';
import { type MergeReport, mergeNote, type StaleBase, staleBase } from './stale-edit-merge.js';
import { diffStats, unifiedDiff } from './file-text.js';
import { mistake, type ToolContext, type ToolOutcome } from './tool-spec.js';

/** A proposed change to one file; `merge` when it was merged into changes made since the model's read. */
interface Proposal {
  readonly original: string;
  readonly proposed: string;
  readonly isNewFile: boolean;
  readonly merge?: MergeReport;
}

/**
 * How an edit of a file whose text is not what people read (a notebook's JSON) is shown and
 * written: the approval shows `diff` (of what people read) and offers no editable diff of the
 * text; `write` writes the approved text the editor's way (false: not available here, the file
 * is written as any other) and throws with a reason (saying what was left) when it fails.
 */
export interface EditPresentation {
  readonly diff: string;
  /** The approval's summary line. */
  readonly summary: string;
  write?(content: string): Promise<boolean>;
  /** What the model is told once the edit landed (`viaEditor`: `write` did it). */
  landed(viaEditor: boolean): string;
}

/**
 * The file an edit starts from: its text and stamp (and, when it changed since the model last saw
 * it, that version, for the edit to be made on and merged), or nothing there yet.
 */
type EditTarget = { readonly kind: 'file'; readonly text: string; readonly stamp: FileStamp; readonly base?: StaleBase } | { readonly kind: 'missing' };

/**
 * Shared head of every file edit: the current text of the file, or the outcome that stops the
 * edit. Only regular text files are read, and only after a stat. A file that changed since the
 * task last read or wrote it comes with that version (`base`) when the tool merges (`mergeable`) and
 * the version is still kept; otherwise it is refused, and so (with `requireRead`) is one it never read.
 */
export async function loadEditTarget(
  context: ToolContext,
  target: ResolvedPath,
  tool: string,
  options: { readonly requireRead: boolean; readonly mergeable?: boolean },
): Promise<EditTarget | ToolOutcome> {
  const info = await context.host.files.stat(target.absolute);
  if (!info) return { kind: 'missing' };
  const notAFile = notAFileMessage(info, target.display);
  if (notAFile) return mistake(notAFile);
  const whole = await readWholeText(context.host.files, target.absolute, info, { signal: context.signal });
  if (whole.kind === 'binary') return mistake(`${target.display} is a binary file; ${tool} only edits text files.`);
  if (whole.kind === 'too_large') return mistake(tooLargeToEditMessage(target.display, whole.size, tool));
  const known = context.knownFile(target.absolute);
  const refusal = staleFileRefusal(known, whole.stamp, target.display, options);
  if (refusal) {
    const base = options.mergeable && known && known.sha256 !== whole.stamp.sha256 ? await staleBase(context, target, known) : undefined;
    if (!base) return { kind: 'error', ...refusal };
    return { kind: 'file', text: whole.text, stamp: whole.stamp, base };
  }
  return { kind: 'file', text: whole.text, stamp: whole.stamp };
}

/**
 * Shared tail of every file edit: show the diff, ask, write atomically, and tell the model
 * exactly what landed (including the user's own changes to the proposal, as a patch). `before`
 * is the stamp of the file the proposal was made from (none for a new file); a file that changed
 * while the approval was pending is not written. The result carries the stamp of what was written.
 */
export async function applyProposedEdit(
  context: ToolContext,
  target: ResolvedPath,
  proposal: Proposal,
  before: FileStamp | undefined,
  presentation?: EditPresentation,
): Promise<ToolOutcome> {
  if (!proposal.isNewFile && proposal.original === proposal.proposed) {
    // An existing file (not new) always has its stamp here.
    const hash = before?.sha256 ?? '';
    const unchanged: EditFacts = { path: target.display, added: 0, removed: 0, created: false, sha256Before: hash, sha256After: hash };
    return {
      kind: 'result',
      output: `No changes: ${target.display} already has this content.${proposal.merge ? ' It was changed on disk since you last read it, with the very change you made.' : ''}`,
      details: { ...(before ? { file: before } : {}), edit: unchanged },
    };
  }
  const placeholder = redactionPlaceholderRefusal(target.display, proposal);
  if (placeholder) return mistake(placeholder);
  const patch = presentation?.diff ?? unifiedDiff(target.display, proposal.original, proposal.proposed);
  const stats = diffStats(patch);
  const verb = proposal.isNewFile ? 'Create' : 'Edit';
  const merged = proposal.merge ? ', merged into the changes made since Smith read it' : '';
  const summary = `${presentation?.summary ?? `${verb} ${target.display}`} (+${stats.added} -${stats.removed})${merged}`;
  const answer = await context.approve(
    { summary, path: target.display, diff: patch, stats, ...(presentation ? {} : { proposal: shownProposal(proposal) }) },
    { outsideWorkspace: !target.insideWorkspace },
  );
  if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

  const changed = await changedSince(context, target, before);
  if (changed) return { kind: 'error', error: changed, mistake: false };
  const finalContent = answer.editedContent ?? proposal.proposed;
  const wrote = await writeProposal(context, target, finalContent, presentation);
  if ('error' in wrote) return { kind: 'error', error: wrote.error, mistake: false };
  const { written } = wrote;
  // What was written is the version the model now knows, for merging a later edit into the user's changes.
  context.fileVersions?.keep(written, Buffer.from(finalContent, 'utf8'));
  const action = proposal.isNewFile ? 'created' : 'saved';
  let output = presentation ? presentation.landed(wrote.viaEditor) : `The file ${target.display} was ${action} successfully.`;
  if (proposal.merge) output += mergeNote(target.display, proposal.merge);
  if (finalContent !== proposal.proposed) {
    output += `\n\nThe user changed your proposal before saving. Their changes, as a patch from your proposal to the saved file:\n${unifiedDiff(target.display, proposal.proposed, finalContent)}\nTake these changes into account; the file now holds the user's version.`;
  }
  const problems = (await context.host.diagnosticsAfterEdit?.(target.absolute)) ?? [];
  if (problems.length > 0) output += `\n\nNew problems were reported after saving the file:\n${problems.join('\n')}\nFix them if your edit caused them.`;
  const userEdited = finalContent !== proposal.proposed;
  const landed = userEdited ? diffStats(unifiedDiff(target.display, proposal.original, finalContent)) : stats;
  const edit: EditFacts = {
    path: target.display,
    added: landed.added,
    removed: landed.removed,
    created: proposal.isNewFile,
    ...(before ? { sha256Before: before.sha256 } : {}),
    sha256After: written.sha256,
    ...(userEdited ? { userEdited } : {}),
    ...(proposal.merge
      ? { merged: { conflicts: proposal.merge.conflicts, ...(proposal.merge.resolution ? { resolution: proposal.merge.resolution } : {}) } }
      : {}),
  };
  return { kind: 'result', output, details: { file: written, edit } };
}

/** The texts a diff editor shows (a host needs no more of a proposal). */
function shownProposal(proposal: Proposal): { readonly original: string; readonly proposed: string; readonly isNewFile: boolean } {
  return { original: proposal.original, proposed: proposal.proposed, isNewFile: proposal.isNewFile };
}

/**
 * Writes the approved text: the editor's way when the presentation has one and it is available
 * here (the editor may lay the file out its own way, so the stamp is of what is on disk then),
 * else atomically through the file system.
 */
async function writeProposal(
  context: ToolContext,
  target: ResolvedPath,
  content: string,
  presentation: EditPresentation | undefined,
): Promise<{ readonly written: FileStamp; readonly viaEditor: boolean } | { readonly error: string }> {
  let viaEditor = false;
  try {
    viaEditor = (await presentation?.write?.(content)) ?? false;
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (viaEditor) {
    const info = await context.host.files.stat(target.absolute);
    const now = info?.type === 'file' ? await readWholeText(context.host.files, target.absolute, info, { signal: context.signal }) : undefined;
    if (now?.kind === 'text') return { written: now.stamp, viaEditor };
    return { error: `${target.display} could not be read back after the editor saved it.` };
  }
  await context.host.files.writeFileAtomic(target.absolute, content);
  return { written: stampOfText(target.absolute, content, (await context.host.files.stat(target.absolute))?.mtimeMs ?? context.host.clock.now()), viaEditor };
}

/**
 * The model sees every secret as REDACTED; content that brings in more of those placeholders than
 * the file had would overwrite the user's real secret with the placeholder.
 */
function redactionPlaceholderRefusal(display: string, proposal: Proposal): string | undefined {
  if (count(proposal.proposed, REDACTED) <= count(proposal.original, REDACTED)) return undefined;
  return `The new content of ${display} contains ${REDACTED}, which stands for a secret Smith hides from you; writing it would replace the real secret in the file. Nothing was written. Change the file with replace_in_file, leaving the lines that hold ${REDACTED} out of your SEARCH and REPLACE blocks.`;
}

function count(text: string, needle: string): number {
  let found = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found++;
  return found;
}

/** Why the file must not be written now: it is no longer what the proposal was made from. */
async function changedSince(context: ToolContext, target: ResolvedPath, before: FileStamp | undefined): Promise<string | undefined> {
  const info = await context.host.files.stat(target.absolute);
  const waited = 'while your edit waited for approval, so nothing was written';
  if (!before) {
    return info ? `${target.display} was created by someone else ${waited}. Read it with read_file, then decide how to change it.` : undefined;
  }
  if (info?.type !== 'file') return `${target.display} was removed ${waited}. Check with the user before creating it again.`;
  const now = await readWholeText(context.host.files, target.absolute, info, { signal: context.signal });
  if (now.kind === 'text' && now.stamp.sha256 === before.sha256) return undefined;
  return `${target.display} was changed on disk ${waited}. Read it again with read_file, then redo your edit on its current content.`;
}
