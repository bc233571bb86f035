import type { PanelState } from '../shared/protocol.js';
import { EMPTY_MCP_PANEL_STATE } from './mcp-panel-state.js';
import { taskView, type OpenTask } from './open-task.js';
import type { StreamingView } from './panel-changes.js';
import { historyState } from './panel-state.js';
import { emptyStreamingView } from './streaming-message.js';
import type { TaskControllerDeps, TaskControllerParts } from './task-controller-parts.js';

/** The whole panel state, as a `snapshot` message carries it: each part's share of it, and the shown task's view. */
export function panelSnapshot(parts: TaskControllerParts, deps: Pick<TaskControllerDeps, 'interactions' | 'mcp' | 'settings'>): PanelState {
  const shown = parts.tasks.shown;
  const tasks = parts.tasks.list();
  return {
    ...parts.views.state(),
    ...(shown ? { task: taskView(shown, deps.interactions) } : {}),
    ...(tasks.length > 0 ? { tasks } : {}),
    ...parts.setup.state(),
    ...historyState(parts.stored.history()),
    ...parts.modes.state(),
    mcp: deps.mcp?.panelState() ?? EMPTY_MCP_PANEL_STATE,
    autoApprove: deps.settings.autoApprove(),
    ...parts.lists.state(),
    ...parts.subagentChats.state(shown?.id),
  };
}

/** The assistant message of the shown task `open` as it streams (empty between responses); undefined when no task is shown. */
export function streamingView(open: OpenTask | undefined): StreamingView | undefined {
  if (!open) return undefined;
  const streaming = open.streaming;
  return streaming ? { taskId: open.id, key: streaming.key, text: streaming.text, reasoning: streaming.reasoning } : emptyStreamingView(open.id);
}
