import { statSync } from 'node:fs';
import { readTaskEvents, taskEventsFile } from '../core/log/task-log.js';
import { subagentStorage } from '../core/subagents/subagent-runner.js';
import { uiProjection } from '../core/task/ui-projection.js';
import type { PanelState } from '../shared/protocol.js';

type SubagentChat = NonNullable<PanelState['subagentChat']>;

/**
 * The sub-agent chat the user opened from a use_subagents card: the child task's own messages,
 * read from its log (kept with the parent's) each time the panel's state is built, and read again
 * only when the log has grown, so a running sub-agent's chat follows it.
 */
export class SubagentChats {
  private open: { readonly parentId: string; readonly taskId: string } | undefined;
  private cached: { readonly key: string; readonly chat: SubagentChat } | undefined;

  constructor(private readonly storageDir: string) {}

  /** Opens a sub-agent's chat of the task `parentId`; throws when it has no such sub-agent. */
  show(parentId: string, taskId: string): void {
    const storage = subagentStorage(this.storageDir, parentId);
    if (statSync(taskEventsFile(storage, taskId), { throwIfNoEntry: false }) === undefined) throw new Error(`The open task has no sub-agent ${taskId}.`);
    this.open = { parentId, taskId };
  }

  close(): void {
    this.open = undefined;
  }

  /** The open chat while its parent is the open task (another task closes it). */
  state(openTaskId: string | undefined): Pick<PanelState, 'subagentChat'> {
    if (!this.open || this.open.parentId !== openTaskId) return {};
    const storage = subagentStorage(this.storageDir, this.open.parentId);
    const stats = statSync(taskEventsFile(storage, this.open.taskId), { throwIfNoEntry: false });
    if (!stats) return {};
    const key = `${this.open.parentId}/${this.open.taskId}/${stats.size}/${stats.mtimeMs}`;
    if (this.cached?.key !== key) {
      const events = readTaskEvents(storage, this.open.taskId);
      const last = events.findLast((e) => e.type === 'task_completed' || e.type === 'error' || e.type === 'task_aborted');
      const status = last?.type === 'task_completed' ? 'completed' : last?.type === 'error' ? 'failed' : last?.type === 'task_aborted' ? 'aborted' : 'running';
      this.cached = { key, chat: { parentId: this.open.parentId, taskId: this.open.taskId, status, messages: uiProjection(events) } };
    }
    return { subagentChat: this.cached.chat };
  }
}
