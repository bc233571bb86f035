import type { TaskEvent } from '../log/events.js';
import type { TaskLog } from '../log/task-log.js';
import { toolEntry, type ToolGroup } from '../../shared/tool-catalogue.js';
import { latestRoots, sameRoots } from './rewind-task.js';
import type { CheckpointRoots, WorkspaceCheckpoints } from './workspace-checkpoints.js';

/** Tools whose calls may change the workspace; a checkpoint follows each of them. */
const WORKSPACE_CHANGING_GROUPS: ReadonlySet<ToolGroup> = new Set(['edit', 'command', 'mcp', 'browser']);

/** Paths listed in one checkpoint event; the count says how many more changed. */
export const CHECKPOINT_PATHS_SHOWN = 200;

/**
 * Takes a task's checkpoints: one when it starts or resumes, and one after every step that may
 * have changed the workspace, if it did. Snapshots run beside the model request, never before it
 * (the first one too, however big the workspace); the loop waits for them (`settled`) only before
 * a tool that may change the workspace runs, so each checkpoint is the workspace exactly as the
 * step left it.
 */
export class TaskCheckpoints {
  private pending: Promise<void> = Promise.resolve();
  private lastRoots: CheckpointRoots | undefined;
  private count: number;

  constructor(
    private readonly store: WorkspaceCheckpoints,
    private readonly log: TaskLog,
    private readonly groupOf: (tool: string) => ToolGroup | undefined,
    private readonly warn: (message: string) => void,
  ) {
    this.count = log.events.filter((e) => e.type === 'checkpoint_created').length;
    this.lastRoots = latestRoots(log.events);
    log.onAppend((event) => this.observe(event));
  }

  /** True when a call of `tool` may change the workspace (an unknown tool is assumed to). */
  mayChange(tool: string): boolean {
    const group = this.groupOf(tool);
    return group === undefined || WORKSPACE_CHANGING_GROUPS.has(group) || toolEntry(tool)?.changesWorkspace === true;
  }

  /** Resolves when every snapshot asked for so far is written (or failed). */
  settled(): Promise<void> {
    return this.pending;
  }

  private observe(event: TaskEvent): void {
    const step =
      event.type === 'task_started' ||
      event.type === 'task_resumed' ||
      ((event.type === 'tool_result' || event.type === 'tool_error') &&
        (WORKSPACE_CHANGING_GROUPS.has(this.groupOf(event.tool) ?? 'read') || toolEntry(event.tool)?.changesWorkspace === true));
    if (step) this.pending = this.pending.then(() => this.take(event.seq));
  }

  private async take(afterSeq: number): Promise<void> {
    try {
      const result = await this.store.snapshot();
      if (this.lastRoots && sameRoots(result, this.lastRoots)) return;
      this.lastRoots = result;
      const first = this.count === 0;
      this.log.append({
        type: 'checkpoint_created',
        checkpointId: String(this.count++),
        root: result.root,
        afterSeq,
        // The first checkpoint is where the task began: every file is "new" to it, none worth listing.
        changed: first ? [] : result.changed.slice(0, CHECKPOINT_PATHS_SHOWN),
        changedCount: first ? 0 : result.changed.length,
        skipped: result.skipped.slice(0, CHECKPOINT_PATHS_SHOWN),
        ...(result.folders.length > 0 ? { folders: result.folders } : {}),
      });
    } catch (error) {
      this.warn(`Smith could not take a checkpoint: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
