import type { TaskUpdate } from '../core/task/task.js';
import type { IgnorePolicy } from '../core/workspace/ignore-policy.js';
import { resolveWorkspacePath } from '../core/workspace/workspace-paths.js';
import type { WorkspaceRoots } from '../core/workspace/workspace-roots.js';
import type { EditReview } from './panel-ports.js';

// Events after which no approval can come for a streamed review any more.
const REVIEW_ENDERS = new Set(['tool_result', 'tool_error', 'task_aborted', 'error', 'task_completed']);

/**
 * Returns a task-update listener that streams a write_to_file call into the diff editor while the
 * model is still writing it, and closes streamed reviews that never reached an approval (the
 * call was auto-approved, refused or cut off). replace_in_file shows its diff only at approval.
 */
export function streamEditsToDiff(diff: EditReview, cwd: string | WorkspaceRoots, ignore?: IgnorePolicy): (update: TaskUpdate) => void {
  return (update) => {
    if (update.type === 'retry' || (update.type === 'event' && REVIEW_ENDERS.has(update.event.type))) {
      void diff.discard();
      return;
    }
    if (update.type !== 'delta' || update.delta.kind !== 'blocks') return;
    const block = update.delta.blocks.at(-1);
    if (block?.kind !== 'tool' || !block.partial || block.name !== 'write_to_file') return;
    const path = block.params.path?.trim();
    const content = block.params.content;
    // The content starts only after the path is complete; before that the path may be cut short.
    if (!path || content === undefined) return;
    const absolute = resolveWorkspacePath(cwd, path).absolute;
    if (ignore?.isIgnored(absolute)) return;
    diff.streamPartial(absolute, content);
  };
}
