import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { TaskEvent } from '../core/log/events.js';
import { readStoredTaskTolerantly, taskDir } from '../core/log/task-log.js';
import { ChatPages } from '../core/task/chat-pages.js';
import type { HistoryItem } from '../shared/protocol.js';
import type { UiMessage } from '../shared/ui-messages.js';
import { checkpointBytesOf, collectAfterDelete } from './checkpoint-storage.js';
import { CHAT_PAGE } from './chat-window.js';
import { checkTaskId, historyItem } from './panel-state.js';
import { TaskSummaries, type StoredTaskFacts } from './task-summaries.js';

/** A stored task as the panel opens it: its facts, the newest messages, and the reader of the older ones. */
export interface StoredTaskView {
  readonly facts: StoredTaskFacts;
  /** The newest messages (at least a page of them, unless the chat is shorter). */
  readonly messages: UiMessage[];
  /** Reads the pages before `messages`, newest first. */
  readonly pages: ChatPages;
}

/**
 * The tasks in Smith's storage as the panel's history shows them: the list (measured once and
 * kept until something changes it), a stored task opened (its facts from the history's read of its
 * log, its newest messages from the end of the log), and deleting one. The logs are first read in
 * the background (load()); until then there is no list, and nothing waits for it.
 */
export class StoredTasks {
  private items: HistoryItem[] | undefined;
  private readonly summaries: TaskSummaries;

  constructor(
    private readonly storageDir: string,
    private readonly warn: (message: string) => void,
  ) {
    this.summaries = new TaskSummaries(storageDir, warn);
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

  /** A stored task's readable events (a damaged line left out); throws for an id that is not one. */
  events(taskId: string): readonly TaskEvent[] {
    checkTaskId(taskId);
    return readStoredTaskTolerantly(this.storageDir, taskId).events;
  }

  /**
   * Opens a stored task for viewing: its facts (from the history's read of its log when the log has
   * not changed since, else read now) and its newest messages, read from the end of its log. Nothing
   * runs it now, so a log that ends mid-run was cut off (a reload): its open calls show as interrupted.
   * A log that changed since the list was measured (or is new to it: written by the CLI, left by a
   * reload) is measured again with it, so the history's entry says what the opened chat says.
   */
  open(taskId: string): StoredTaskView {
    checkTaskId(taskId);
    const read = this.summaries.facts(taskId);
    if (!read) throw new Error(`There is no stored task "${taskId}".`);
    if (read.reread) this.changed();
    const pages = new ChatPages(read.file, read.size, read.facts.status === 'interrupted');
    return { facts: read.facts, messages: pages.older(CHAT_PAGE), pages };
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
