import { describeRecoveredRestore, recoverInterruptedRestores } from '../core/checkpoints/interrupted-restores.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { TaskOutcome } from '../core/task/task.js';
import type { PanelImage } from './message-context.js';
import type { LiveTask, PanelState, PanelView, WorktreeAction } from '../shared/protocol.js';
import type { ListRequests } from './list-requests.js';
import type { AllowScope } from '../core/permissions/remember-allow-rules.js';
import { runPanelCommand } from './panel-commands.js';
import type { OpenTaskActions } from './open-task-actions.js';
import type { PanelChange, PanelSource, StreamingView } from './panel-changes.js';
import { taskMarkdown } from './task-export.js';
import { eventsOf } from './open-task.js';
import { panelSnapshot, streamingView } from './panel-snapshot.js';
import { pageBefore } from './chat-window.js';
import type { UiMessage } from '../shared/ui-messages.js';
import { Emitter, type Disposable } from './event-emitter.js';
import { titleOf } from './held-tasks.js';
import type { ProviderChoice } from './panel-ports.js';
import type { TaskConversation } from './task-conversation.js';
import { buildTaskControllerParts, type TaskControllerDeps, type TaskControllerParts } from './task-controller-parts.js';
import type { WorktreeChoice } from './task-worktrees.js';

/** A run of one of the panel's tasks ended. */
export interface TaskEnd {
  readonly outcome: TaskOutcome;
  readonly taskId: string;
  /** The first line of the task's text. */
  readonly title: string;
}

/**
 * Owns the panel's tasks: starts, shows, switches between, closes, deletes and exports them (several
 * run at once, each held by id), and derives the PanelState the webviews render. Both webviews
 * (side bar and editor tab) read it. Talking to a task is `conversation`; acting on the shown one
 * besides that is `actions`.
 */
export class TaskController implements PanelSource, Disposable {
  private readonly listeners = new Set<(change: PanelChange) => void>();
  private readonly taskEnded = new Emitter<TaskEnd>();
  /** Fires when a run of one of the panel's tasks ends (completed, failed or cancelled), shown or not. */
  readonly onTaskEnded = this.taskEnded.event;
  private readonly subscriptions: Disposable[] = [];
  /** The parts the calls are routed to (task-controller-parts.ts). */
  private readonly parts: TaskControllerParts;
  /** Text for the Task box that no webview has taken yet. */
  private inserts: string[] = [];
  /** Compare, restore, edit and condense the shown task, its todos and screenshots. */
  readonly actions: OpenTaskActions;
  /** Messages, answers, approvals, retries and cancels, each for the task it names. */
  readonly conversation: TaskConversation;
  /** Lists and toggles the panel asks for: models, base branches, completions, rules, skills, auto-approve. */
  readonly listRequests: ListRequests;

  constructor(private readonly deps: TaskControllerDeps) {
    // A restore a crash interrupted (in this or any workspace) is finished first, and the user told what was done.
    for (const recovered of recoverInterruptedRestores(deps.storageDir)) deps.host.notify('warning', describeRecoveredRestore(recovered));
    this.parts = buildTaskControllerParts(deps, {
      emit: (change) => this.emit(change),
      ended: (outcome, open) => this.taskEnded.fire({ outcome, taskId: open.id, title: titleOf(eventsOf(open)) }),
      newTask: (typed, images) => this.newTask(typed, images),
      runCommand: (typed) => this.runPanelCommand(typed),
      readRules: () => this.readRules(),
    });
    ({ actions: this.actions, conversation: this.conversation, listRequests: this.listRequests } = this.parts);
    void this.parts.setup.refresh();
    this.subscriptions.push(
      deps.interactions.onDidChange((taskId) => {
        // A wait of a task not shown changes only its entry in the task list (its badge).
        if (taskId === undefined || taskId === this.parts.tasks.shown?.id) this.emit({ kind: 'state' });
        this.emit({ kind: 'tasks' });
      }),
      deps.settings.onDidChange(() => void this.parts.setup.refresh()),
    );
    // The stored tasks are read in the background; the snapshots before that say the history is loading.
    void this.parts.stored.load().then(() => this.emit({ kind: 'state' }));
    const mcp = deps.mcp;
    if (mcp) {
      this.subscriptions.push(
        mcp.onDidChange(() => {
          // Built only when a webview listens; the next snapshot includes it anyway.
          if (this.listeners.size > 0) this.emit({ kind: 'mcp', state: mcp.panelState() });
        }),
      );
    }
  }

  /** Tells the listener about every change of the panel state. */
  onDidChange(listener: (change: PanelChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The id of the task the chat shows, if any. */
  get openTaskId(): string | undefined {
    return this.parts.tasks.shown?.id;
  }

  /** True while the shown task's loop runs. */
  get isRunning(): boolean {
    return this.parts.tasks.shown?.run !== undefined;
  }

  /** The task list: the tasks the panel runs or holds, with their status and cost. */
  liveTasks(): LiveTask[] {
    return this.parts.tasks.list();
  }

  /** The whole panel state, as a `snapshot` message carries it. */
  snapshot(): PanelState {
    return panelSnapshot(this.parts, this.deps);
  }

  /** The shown task's assistant message as it streams (empty between responses). */
  streaming(): StreamingView | undefined {
    return streamingView(this.parts.tasks.shown);
  }

  /**
   * Starts a new task in the panel's Plan/Act state and mode and shows it; a task running meanwhile
   * runs on (listed). Before a provider is set up the task waits instead: the panel shows the
   * setup, and saving it starts the task.
   */
  async newTask(typed: string, images: readonly PanelImage[] = [], options: { readonly worktree?: boolean | WorktreeChoice } = {}): Promise<void> {
    if (!typed.trim()) throw new Error('Describe the task first.');
    const command = this.runPanelCommand(typed);
    if (command) return command;
    const text = await this.parts.lists.expandSlash(typed);
    if (await this.parts.setup.needsSetup()) {
      if (images.length > 0) throw new Error('Set up a model provider first (the Settings view), then send the images with the task.');
      if (options.worktree) throw new Error('Set up a model provider first (the Settings view), then start the task in a new worktree.');
      this.parts.setup.hold(text);
      return;
    }
    const worktree = options.worktree === true ? {} : options.worktree || undefined;
    await this.parts.lifecycle.start(text, images, worktree ? { worktree } : {});
  }

  /** Shows a task: one the panel holds as it is (running or not), or a stored one for viewing (it resumes only when the user continues it). */
  openTask(taskId: string): Promise<void> {
    return this.parts.lifecycle.open(taskId);
  }

  /** Closes a task the panel holds (stopping it first when it runs, ending its commands); the others run on. */
  closeTask(taskId: string): Promise<void> {
    return this.parts.lifecycle.closeHeld(taskId);
  }

  /**
   * Stops and closes every task the panel holds (their commands end too) and shows an empty chat;
   * resolves once all have ended. Leaving a task (New Task, another task) stops nothing: this does.
   */
  async closeAllTasks(): Promise<void> {
    await this.parts.lifecycle.closeAll();
    this.emit({ kind: 'state' });
  }

  /** Deletes a stored task (closing it first when the panel holds it). */
  deleteTask(taskId: string): Promise<void> {
    return this.parts.lifecycle.delete(taskId);
  }

  /** Acts on the worktree of a task the panel holds: review its changes at any time; merge, open a pull request, keep or discard it once the task is not running. */
  worktreeAction(taskId: string, action: WorktreeAction): Promise<void> {
    return this.parts.lifecycle.worktreeAction(taskId, action);
  }

  /** The user's message to `taskId` (absent: the shown task); see TaskConversation.send. */
  sendMessage(typed: string, images: readonly PanelImage[] = [], taskId?: string): Promise<void> {
    return this.conversation.send(typed, images, taskId);
  }

  /** Stops the running step of `taskId` (absent: the shown task); the other tasks run on. */
  cancel(taskId?: string): Promise<void> {
    return this.conversation.cancel(taskId);
  }

  /** Runs the task's loop again after a failure, a cancel or an interruption. */
  retry(taskId?: string): Promise<void> {
    return this.conversation.retry(taskId);
  }

  /** Shows a sub-agent's own chat of the shown task (it arrives with the next state); throws when it has none such. */
  openSubagentChat(taskId: string): void {
    const open = this.parts.tasks.require();
    this.parts.subagentChats.show(open.id, taskId);
    this.emit({ kind: 'state' });
  }

  closeSubagentChat(): void {
    this.parts.subagentChats.close();
    this.emit({ kind: 'state' });
  }

  /** Sets Plan or Act for new tasks and for the shown one. */
  setMode(mode: PlanAct): void {
    this.parts.modes.setMode(mode);
  }

  /** Sets the mode for new tasks and for the shown one; throws, listing the modes, when unknown. */
  setModeSlug(slug: string): void {
    this.parts.modes.setModeSlug(slug);
  }

  /**
   * Asks the webviews to show `view` (a title-bar or palette command). Each follows the request
   * once; the view the user then picks is theirs. A task waiting for the setup keeps waiting.
   */
  showView(view: PanelView): void {
    this.parts.views.request(view);
    this.viewOpened(view);
  }

  /** The user opened `view` in a webview: what it lists is read again (nothing moves the other webviews). */
  viewOpened(view: PanelView): void {
    // The lists may have changed on disk (the CLI shares the storage, modes and rules are files).
    if (view === 'history') this.parts.stored.changed();
    if (view === 'settings') {
      this.readRules();
      this.parts.lists.readSkills();
    }
    this.parts.modes.forget();
    this.emit({ kind: 'state' });
  }

  /** The mode files changed on disk: the picker lists them again. */
  modesChanged(): void {
    this.parts.modes.forget();
    this.emit({ kind: 'state' });
  }

  /** Gives the task waiting for the setup back to the Task box; it no longer starts by itself. */
  returnPendingTask(): void {
    this.insertText(this.parts.setup.giveBack());
  }

  /** Shows an empty chat: the shown task is closed unless it runs (then it runs on, listed). */
  async clearTask(): Promise<void> {
    await this.parts.lifecycle.leaveShown();
    this.parts.views.request('chat');
    this.emit({ kind: 'state' });
  }

  /** The page of the shown task's messages before the one keyed `before` (older pages of a stored task are read from its log now). */
  olderMessages(taskId: string, before: string): { start: number; messages: UiMessage[] } {
    const open = this.parts.tasks.shown;
    if (open?.id !== taskId) throw new Error('That task is no longer open.');
    return pageBefore(open, before);
  }

  /** Writes the task's conversation as Markdown (a save dialog by default). */
  async exportTask(taskId: string): Promise<void> {
    const held = this.parts.tasks.get(taskId);
    const events = held ? eventsOf(held) : this.parts.stored.events(taskId);
    await this.deps.saveExport(`smith-task-${taskId}.md`, taskMarkdown(events));
  }

  /** Approves the pending call of `taskId` (absent: the shown task) and allows it from now on in the chosen settings file. */
  approveAlways(callId: string, scope: AllowScope, feedback?: string, taskId?: string): void {
    this.conversation.approveAlways(callId, scope, feedback, taskId);
  }

  /** Saves the provider choice; the key goes to the key store, an empty key removes the stored one. */
  saveSettings(choice: ProviderChoice & { readonly apiKey?: string }): Promise<void> {
    return this.parts.setup.save(choice);
  }

  /** Puts text (an editor selection) into the Task box of the chat webview that is ready and visible, now or next. */
  insertText(text: string): void {
    this.inserts.push(text);
    this.emit({ kind: 'insertText' });
  }

  /** The text waiting for a Task box; each piece is handed out once, so only one webview gets it. */
  takeInserts(): readonly string[] {
    const taken = this.inserts;
    this.inserts = [];
    return taken;
  }

  dispose(): void {
    // The panel is going away: every task it holds is stopped (nobody waits for that to finish).
    void this.parts.lifecycle
      .closeAll()
      .catch((error: unknown) => this.deps.host.notify('warning', `A task did not close cleanly: ${(error as Error).message}`));
    for (const subscription of this.subscriptions) subscription.dispose();
    this.listeners.clear();
    this.taskEnded.dispose();
  }

  private readRules(): void {
    const open = this.parts.tasks.shown;
    this.parts.lists.readRules(open?.task?.state.modeSlug ?? this.parts.modes.modeSlug, open ? eventsOf(open) : []);
  }

  /** Runs a panel command typed in the Task box (panel-commands.ts); undefined when `typed` is none. */
  private runPanelCommand(typed: string): Promise<void> | undefined {
    return runPanelCommand(typed, {
      newTask: (text) => this.newTask(text),
      clearTask: () => this.clearTask(),
      condenseShown: () => {
        const open = this.parts.tasks.shown;
        return open ? this.actions.condense(open.id) : Promise.reject(new Error('There is no task to condense.'));
      },
      showSettings: () => this.showView('settings'),
      modes: this.parts.modes,
    });
  }

  private emit(change: PanelChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
