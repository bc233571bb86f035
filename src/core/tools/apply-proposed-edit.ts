import type { ResolvedPath } from '../workspace/workspace-paths.js';
import { diffStats, unifiedDiff } from './file-text.js';
import type { ToolContext, ToolOutcome } from './tool-spec.js';

/** A proposed change to one file. */
export interface Proposal {
  readonly original: string;
  readonly proposed: string;
  readonly isNewFile: boolean;
}

/**
 * Shared tail of every file edit: show the diff, ask, write atomically, and tell the model
 * exactly what landed (including the user's own changes to the proposal, as a patch).
 */
export async function applyProposedEdit(context: ToolContext, target: ResolvedPath, proposal: Proposal): Promise<ToolOutcome> {
  if (!proposal.isNewFile && proposal.original === proposal.proposed) {
    return { kind: 'result', output: `No changes: ${target.display} already has this content.` };
  }
  const patch = unifiedDiff(target.display, proposal.original, proposal.proposed);
  const stats = diffStats(patch);
  const verb = proposal.isNewFile ? 'Create' : 'Edit';
  const answer = await context.approve(
    { summary: `${verb} ${target.display} (+${stats.added} -${stats.removed})`, path: target.display, diff: patch, proposal },
    { outsideWorkspace: !target.insideWorkspace },
  );
  if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

  const finalContent = answer.editedContent ?? proposal.proposed;
  await context.host.files.writeFileAtomic(target.absolute, finalContent);
  const action = proposal.isNewFile ? 'created' : 'saved';
  let output = `The file ${target.display} was ${action} successfully.`;
  if (finalContent !== proposal.proposed) {
    output += `\n\nThe user changed your proposal before saving. Their changes, as a patch from your proposal to the saved file:\n${unifiedDiff(target.display, proposal.proposed, finalContent)}\nTake these changes into account; the file now holds the user's version.`;
  }
  const problems = (await context.host.diagnosticsAfterEdit?.(target.absolute)) ?? [];
  if (problems.length > 0) output += `\n\nNew problems were reported after saving the file:\n${problems.join('\n')}\nFix them if your edit caused them.`;
  if (answer.feedback) output += `\n\nThe user approved with feedback:\n<feedback>\n${answer.feedback}\n</feedback>`;
  return { kind: 'result', output };
}
