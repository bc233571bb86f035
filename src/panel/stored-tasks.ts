import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { TaskEvent } from '../core/log/events.js';
import { TaskLog, taskDir, taskStatus } from '../core/log/task-log.js';
import { uiProjection } from '../core/task/ui-projection.js';
import type { HistoryItem } from '../shared/protocol.js';
import type { UiMessage } from '../shared/ui-messages.js';
import { checkpointBytesOf, collectAfterDelete } from './checkpoint-storage.js';
import { checkTaskId, historyItem, settleInterrupted } from './panel-state.js';
import { TaskSummaries } from './task-summaries.js';

/**
 * The tasks in Smith's storage as the panel's history shows them: the list (measured once and
 * kept until something changes it), a stored task's chat, and deleting one. The logs are first
 * read in the background (load()); until then there is no list, and nothing waits for it.
 */
export class StoredTasks {
  private items: HistoryItem[] | undefined;
  private readonly summaries: TaskSummaries;

  constructor(
    private readonly storageDir: string,
    private readonly warn: (message: string) => void,
  ) {
    this.summaries = new TaskSummaries(storageDir);
  }

  /** Every stored task, newest first, with its checkpoints' storage; undefined until load() has read the logs. */
  history(): HistoryItem[] | undefined {
    if (!this.summaries.isLoaded) return undefined;
    this.items ??= checkpointBytesOf(this.storageDir, this.summaries.current()).map(([summary, bytes]) => historyItem(summary, bytes));
    return this.items;
  }

  /** Reads every stored log once, without blocking (started once; later calls share it); resolves when history() has the list. */
  load(): Promise<void> {
    return this.summaries.load();
  }

  /** Something changed a stored task (it ran, was deleted): the list is measured again when next shown. */
  changed(): void {
    this.items = undefined;
  }

  /** A stored task's log; throws for an id that is not one. */
  events(taskId: string): readonly TaskEvent[] {
    checkTaskId(taskId);
    return TaskLog.open(this.storageDir, taskId).events;
  }

  /** A stored task's chat as it is viewed: nothing runs it now, so a log that ends mid-run was cut off (a reload), not still waiting. */
  viewed(taskId: string): { readonly events: readonly TaskEvent[]; readonly messages: UiMessage[] } {
    const events = this.events(taskId);
    return { events, messages: taskStatus(events) === 'interrupted' ? settleInterrupted(uiProjection(events)) : uiProjection(events) };
  }

  /** Throws unless a task of that id is stored. */
  requireStored(taskId: string): void {
    checkTaskId(taskId);
    if (!existsSync(taskDir(this.storageDir, taskId))) throw new Error(`There is no stored task "${taskId}".`);
  }

  /** Deletes a stored task and frees the checkpoint contents only it held (now, not when the store next grows). */
  async delete(taskId: string): Promise<void> {
    const events = this.events(taskId);
    await rm(taskDir(this.storageDir, taskId), { recursive: true, force: true });
    collectAfterDelete(this.storageDir, events, this.warn);
    this.changed();
  }
}
