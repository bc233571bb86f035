import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../core/ports.js';
import { rememberAllowRules, type AllowScope } from '../core/permissions/remember-allow-rules.js';
import type { HeldTasks } from './held-tasks.js';
import type { LiveTasks } from './live-task.js';
import { messageContext, type PanelImage } from './message-context.js';
import type { PanelLists } from './panel-lists.js';
import type { CheckpointViews, ComparedFile } from './panel-ports.js';
import type { WebviewInteractions } from './webview-interactions.js';

/** What the conversation with the held tasks works with; the TaskController provides it. */
interface TaskConversationDeps {
  readonly storageDir: string;
  readonly cwd: () => string | undefined;
  readonly host: Host;
  readonly tasks: HeldTasks;
  readonly live: LiveTasks;
  readonly interactions: WebviewInteractions;
  /** The editor's multi-file diff, where a command preview's changes are shown. */
  readonly views: Pick<CheckpointViews, 'showChanges'>;
  readonly lists: PanelLists;
  readonly emitState: () => void;
  /** A message with no task to go to starts one. */
  readonly newTask: (typed: string, images: readonly PanelImage[]) => Promise<void>;
  /** Runs `typed` when it is a panel command (`/newtask`, `/mode` …); undefined when it is not one. */
  readonly runCommand: (typed: string) => Promise<void> | undefined;
}

/**
 * The user talking to one of the held tasks: messages, answers, approvals, retries, cancels. Each
 * request names its task (absent: the shown one), so an answer reaches only the task it is for,
 * whichever task the chat shows by then.
 */
export class TaskConversation {
  constructor(private readonly deps: TaskConversationDeps) {}

  /**
   * The user's message to `taskId`: an answer, a rejection with feedback, a follow-up, or (with no
   * task) a new task. Its @-mentions attach what they name and its images go with it (not while
   * Smith works: a queued message is text, its mentions read when it is delivered).
   */
  async send(typed: string, images: readonly PanelImage[], taskId?: string): Promise<void> {
    const { interactions, tasks, live } = this.deps;
    const open = taskId === undefined ? tasks.shown : tasks.require(taskId);
    if (open?.run && interactions.questionOf(open.id)) return interactions.answerQuestion(typed, open.id);
    const approval = open?.run ? interactions.approvalOf(open.id) : undefined;
    if (open && approval) return interactions.answerApproval(approval.callId, false, typed, false, open.id);
    const command = this.deps.runCommand(typed);
    if (command) return command;
    if (!open) return this.deps.newTask(typed, images);
    if (!typed.trim()) throw new Error('The message is empty.');
    const text = await this.deps.lists.expandSlash(typed);
    if (open.run && open.task) {
      if (images.length > 0) throw new Error('Images go with a message once Smith has finished its step: send them then, or cancel first.');
      // Smith is working: the message waits for its next request (shown as queued until then).
      open.task.queueUserMessage(text);
      this.deps.emitState();
      return;
    }
    const task = await live.ensureLive(open);
    // Messages left queued when the last run ended go first, in the order they were sent.
    if (task.queuedMessages.length > 0 && images.length === 0) task.queueUserMessage(text);
    else task.addUserMessage(text, await messageContext(open.environment!.options, text, images, task.messageSession()));
    live.startRun(open);
  }

  /** Sends a message now: while Smith works, the answer streaming now is cut off so the model reads it at once. */
  async steer(typed: string, taskId?: string): Promise<void> {
    const open = this.target(taskId);
    if (!open?.run || !open.task) return this.send(typed, [], taskId);
    if (!typed.trim()) throw new Error('The message is empty.');
    open.task.steer(await this.deps.lists.expandSlash(typed));
    this.deps.emitState();
  }

  /** Changes or (without `text`) removes the queued message `was` at `index`; throws when it has been delivered meanwhile. */
  updateQueued(index: number, was: string, text: string | undefined, taskId?: string): void {
    if (text !== undefined && !text.trim()) throw new Error('The message is empty: remove it instead.');
    const task = this.target(taskId)?.task;
    if (task?.queuedMessages[index] !== was || !task.updateQueued(index, text)) throw new Error('That message has already been sent to the model.');
    this.deps.emitState();
  }

  /** Runs the task's loop again after a failure, a cancel or an interruption. */
  async retry(taskId?: string): Promise<void> {
    const open = this.target(taskId);
    if (!open) throw new Error('There is no task to retry.');
    if (open.run) throw new Error('The task is already running.');
    await this.deps.live.ensureLive(open);
    this.deps.live.startRun(open);
  }

  /** Stops the task's running step (model request, approval, command); the other tasks run on. */
  async cancel(taskId?: string): Promise<void> {
    const open = this.target(taskId);
    if (!open?.run || !open.task) return;
    open.task.abort();
    await open.run;
  }

  /** Lets the task's running command continue in the background; a no-op when it has just finished. */
  proceedWhileRunning(callId: string, taskId?: string): void {
    this.target(taskId)?.task?.proceedWhileRunning(callId);
  }

  /** Stops one running sub-agent of the shown task; a no-op when it has just finished. */
  stopSubagent(subagentId: string): void {
    this.deps.tasks.shown?.task?.stopSubagent(subagentId);
  }

  /** The decision on the call `taskId` (absent: the shown task) waits on; `applyPreview` writes its preview's changes instead of running it. */
  answerApproval(callId: string, approved: boolean, feedback: string | undefined, all: boolean, taskId?: string, applyPreview = false): void {
    this.deps.interactions.answerApproval(callId, approved, feedback, all, this.taskOf(taskId), applyPreview);
  }

  /** Previews the command the call waits on and opens what it would change in the editor's multi-file diff. */
  async previewCommand(callId: string, taskId?: string): Promise<void> {
    const shown = await this.deps.interactions.previewApproval(callId, this.taskOf(taskId));
    const result = shown.result;
    const files: ComparedFile[] = [...result.created, ...result.changed, ...result.deleted].map((file) => {
      const sides = shown.sides(file.path);
      return {
        path: file.path,
        // The copy's file (what the command made); for a deleted file the real one names the entry.
        absolutePath: file.after ? sides.after : join(result.root, file.path),
        before: () => (file.before ? readFileSync(sides.before, 'utf8') : undefined),
        existsNow: file.after !== undefined,
      };
    });
    if (files.length > 0) await this.deps.views.showChanges(`Preview: ${result.command}`, files);
  }

  /** The answer to the question `taskId` (absent: the shown task) asks. */
  answerQuestion(text: string, taskId?: string): void {
    this.deps.interactions.answerQuestion(text, this.taskOf(taskId));
  }

  /** Approves the pending call and writes the rules that allow it from now on ("always allow") to the chosen settings file. */
  approveAlways(callId: string, scope: AllowScope, feedback: string | undefined, taskId?: string): void {
    const id = this.taskOf(taskId);
    const pending = this.deps.interactions.approvalOf(id);
    if (pending?.callId !== callId) throw new Error('That call is no longer waiting for approval.');
    if (!pending.allowRules) throw new Error('No rule can allow this call (a command with parts Smith cannot judge): approve it once instead.');
    const file = rememberAllowRules(pending.allowRules, scope, { storageDir: this.deps.storageDir, cwd: this.deps.cwd() });
    this.deps.host.notify('info', `Allowed from now on: ${pending.allowRules.join(', ')} (in ${file}).`);
    this.deps.interactions.answerApproval(callId, true, feedback, false, id);
  }

  /** The task a request names (throws when the panel no longer holds it), else the shown one. */
  private target(taskId: string | undefined) {
    return taskId === undefined ? this.deps.tasks.shown : this.deps.tasks.require(taskId);
  }

  /** The task a request is about: the one it names, else the shown one (else any that waits). */
  private taskOf(taskId: string | undefined): string | undefined {
    return taskId ?? this.deps.tasks.shown?.id;
  }
}
