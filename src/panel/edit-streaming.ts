import type { TaskUpdate } from '../core/task/task.js';
import { isTool } from '../shared/tool-catalogue.js';
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
  // The write_to_file call streaming now: its path and the content so far, grown by appending.
  let open: { index: number; path: string; content: string | undefined } | undefined;
  return (update) => {
    if (update.type === 'retry' || (update.type === 'event' && REVIEW_ENDERS.has(update.event.type))) {
      open = undefined;
      void diff.discard();
      return;
    }
    if (update.type === 'event' && update.event.type === 'request_started') open = undefined;
    if (update.type !== 'delta') return;
    const delta = update.delta;
    switch (delta.kind) {
      case 'block_opened':
        open = delta.block.kind === 'tool' && isTool(delta.block.name, 'write_to_file') ? { index: delta.index, path: '', content: undefined } : undefined;
        return;
      case 'block_closed':
        if (open?.index === delta.index) open = undefined;
        return;
      case 'block_appended':
      case 'block_set': {
        if (open?.index !== delta.index) return;
        const text = delta.kind === 'block_set' ? delta.value : delta.text;
        if (delta.param === 'path') open.path = delta.kind === 'block_set' ? text : open.path + text;
        else if (delta.param === 'content') open.content = delta.kind === 'block_set' ? text : (open.content ?? '') + text;
        else return;
        const path = open.path.trim();
        // The content starts only after the path is complete; before that the path may be cut short.
        if (!path || open.content === undefined) return;
        const absolute = resolveWorkspacePath(cwd, path).absolute;
        if (ignore?.isIgnored(absolute)) return;
        diff.streamPartial(absolute, open.content);
        return;
      }
      default:
        return;
    }
  };
}
