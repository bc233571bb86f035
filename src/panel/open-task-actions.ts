import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RewindOutcome, RewindScope } from '../core/checkpoints/rewind-task.js';
import type { Host } from '../core/ports.js';
import type { TodoItem } from '../shared/todo-items.js';
import { compareWithCheckpoint, restoreCheckpoint, rewindForEdit, type CheckpointTarget } from './checkpoint-actions.js';
import type { LiveTasks } from './live-task.js';
import { eventsOf, type OpenTask } from './open-task.js';
import type { PanelChange } from './panel-changes.js';
import type { CheckpointViews } from './panel-ports.js';

/** The file endings of the image types a screenshot may have. */
const SCREENSHOT_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };
let screenshotDir: string | undefined;

/** What the actions on the open task work with; the TaskController provides it. */
interface OpenTaskActionsDeps {
  readonly host: Host;
  readonly checkpointViews: CheckpointViews;
  readonly live: () => LiveTasks;
  /** The task the panel shows. */
  readonly current: () => OpenTask | undefined;
  readonly emit: (change: PanelChange) => void;
  readonly historyChanged: () => void;
}

/**
 * What the user does to the open task besides talking to it: condense its history, edit its todo
 * list, compare and restore its checkpoints, edit a sent message and run again.
 */
export class OpenTaskActions {
  constructor(private readonly deps: OpenTaskActionsDeps) {}

  /** Condenses the open, idle task's history now; the summary replaces the older turns for the model. */
  async condense(taskId: string): Promise<void> {
    const open = this.deps.current();
    if (open?.id !== taskId) throw new Error('Open the task first.');
    if (open.run) throw new Error('Smith is still working on this task: it condenses by itself when the window fills up.');
    const task = await this.deps.live().ensureLive(open);
    await task.condense();
    this.deps.live().refreshMessages(open);
    this.deps.emit({ kind: 'state' });
  }

  /** The user's edit of the open task's todo list: logged, so the model reads it with its next request. */
  async editTodos(taskId: string, items: readonly TodoItem[]): Promise<void> {
    const open = this.deps.current();
    if (open?.id !== taskId) throw new Error('Open the task first: the todo list belongs to the task shown in the chat.');
    const task = await this.deps.live().ensureLive(open);
    task.log.append({ type: 'todo_list_edited', items: [...items] });
    this.deps.live().refreshMessages(open);
    this.deps.emit({ kind: 'state' });
  }

  /** Opens a browser_action screenshot of the open task in an editor tab (written to a temporary file first). */
  async openScreenshot(taskId: string, callId: string): Promise<void> {
    const open = this.deps.current();
    if (open?.id !== taskId) throw new Error('Open the task first.');
    const result = eventsOf(open).find((e) => e.type === 'tool_result' && e.callId === callId);
    const image = result?.type === 'tool_result' ? result.images?.[0] : undefined;
    if (!image) throw new Error('This call has no screenshot to open.');
    // The name is derived from the ids, never made of them: a tampered log's call id or media type
    // could hold `/` or `..`. The folder is this process's own, so no other user can plant a link there.
    screenshotDir ??= mkdtempSync(join(tmpdir(), 'smith-screenshots-'));
    const name = createHash('sha256').update(`${taskId}\0${callId}`).digest('hex').slice(0, 24);
    const file = join(screenshotDir, `${name}.${SCREENSHOT_EXTENSIONS[image.mimeType] ?? 'png'}`);
    writeFileSync(file, Buffer.from(image.data, 'base64'));
    await this.deps.checkpointViews.openFile(file);
  }

  /** Opens the multi-file diff of the open task's checkpoint against the workspace now. */
  async compareCheckpoint(taskId: string, checkpointId: string): Promise<void> {
    const count = await compareWithCheckpoint(await this.checkpointTarget(taskId), checkpointId, this.deps.checkpointViews);
    if (count === 0) this.deps.host.notify('info', `No file differs from checkpoint ${checkpointId}.`);
  }

  /** Puts the open task's files, conversation or both back to a checkpoint. */
  async restoreCheckpoint(taskId: string, checkpointId: string, scope: RewindScope): Promise<void> {
    const open = this.deps.current();
    const outcome = await restoreCheckpoint(await this.checkpointTarget(taskId), checkpointId, scope, this.deps.checkpointViews);
    if (open) this.afterRewind(open, outcome);
  }

  /** Rewinds the open task to just before one of the user's messages (and its files, if asked) and sends the edited text. */
  async editMessage(taskId: string, seq: number, text: string, restoreFiles: boolean): Promise<void> {
    if (!text.trim()) throw new Error('The message is empty.');
    const open = this.deps.current();
    const target = await this.checkpointTarget(taskId);
    const outcome = await rewindForEdit(target, seq, text, restoreFiles, this.deps.checkpointViews);
    if (!open?.task || !this.afterRewind(open, outcome)) return;
    // The task's first message is replaced by the rewind itself; a later one is sent again as edited.
    if (target.log.events[seq]?.type === 'user_message') open.task.addUserMessage(text);
    this.deps.live().startRun(open);
  }

  /** The open, idle task made live, with its workspace's checkpoint store. */
  private async checkpointTarget(taskId: string): Promise<CheckpointTarget> {
    const open = this.deps.current();
    if (open?.id !== taskId) throw new Error('Open the task first: checkpoints belong to the task shown in the chat.');
    if (open.run) throw new Error('Smith is still working on this task. Wait for it to finish, or cancel it first.');
    const task = await this.deps.live().ensureLive(open);
    const cwd = open.environment?.options.cwd ?? '';
    const started = task.log.events.find((e) => e.type === 'task_started');
    if (started?.type === 'task_started' && resolve(started.cwd) !== resolve(cwd)) {
      throw new Error(`This task ran in ${started.cwd}. Open that folder to compare or restore its checkpoints.`);
    }
    return { log: task.log, store: open.environment?.options.checkpoints, cwd };
  }

  /** Shows the rewound conversation and reports files a restore could not write; false when the user cancelled. */
  private afterRewind(open: OpenTask, outcome: RewindOutcome | undefined): boolean {
    if (!outcome) return false;
    if (outcome.kind === 'rewound' && outcome.failures.length > 0)
      this.deps.host.notify('warning', `Some files could not be restored: ${outcome.failures.join(', ')}`);
    if (outcome.kind === 'rewound' && outcome.untouched.length > 0) {
      this.deps.host.notify('info', `Left as they are (the checkpoints did not keep them): ${outcome.untouched.map((file) => file.path).join(', ')}`);
    }
    this.deps.historyChanged();
    this.deps.live().refreshMessages(open);
    this.deps.emit({ kind: 'state' });
    return true;
  }
}
