import { describeRecoveredRestore, recoverInterruptedRestores } from '../core/checkpoints/interrupted-restores.js';
import type { Host } from '../core/ports.js';
import type { TaskEnvironment } from '../core/session/task-environment.js';
import type { WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import { loadModes } from '../core/modes/mode-loader.js';
import type { Mode } from '../core/modes/mode.js';
import type { PlanAct } from '../shared/plan-act.js';
import { DEFAULT_MODE_SLUG } from '../core/modes/built-in-modes.js';
import { Task, type MentionedContext, type TaskOutcome } from '../core/task/task.js';
import { messageContext, type PanelImage } from './message-context.js';
import { findMode } from '../core/task/turn-setup.js';
import type { PanelState, PanelView, ProviderName, ProviderSettingsView } from '../shared/protocol.js';
import { SubagentChats } from './subagent-chats.js';
import { PanelLists } from './panel-lists.js';
import { rememberAllowRules, type AllowScope } from './always-allow.js';
import { panelCommand, type PanelCommand } from './slash-input.js';
import { readModeArgument } from '../shared/builtin-commands.js';
import { OpenTaskActions } from './open-task-actions.js';
import type { PanelChange, PanelSource, StreamingView } from './panel-changes.js';
import { EMPTY_MCP_PANEL_STATE } from './mcp-panel-state.js';
import { historyState } from './panel-state.js';
import { emptyStreamingView } from './streaming-message.js';
import { taskMarkdown } from './task-export.js';
import { eventsOf, taskView, type OpenTask } from './open-task.js';
import { firstIndex, pageBefore } from './chat-window.js';
import type { UiMessage } from '../shared/ui-messages.js';
import { Emitter, type Disposable } from './event-emitter.js';
import { LiveTasks } from './live-task.js';
import type { CheckpointViews, EditReview, McpPanelSource, PanelProviderSettings, ProviderChoice } from './panel-ports.js';
import { StoredTasks } from './stored-tasks.js';
import { ViewRequests } from './view-requests.js';
import type { WebviewInteractions } from './webview-interactions.js';

/** What the controller is built from: the editor's parts as ports (see panel-ports.ts). */
interface TaskControllerDeps {
  readonly storageDir: string;
  /** The folder tasks work in; undefined when no folder is open. */
  readonly cwd: () => string | undefined;
  /** The other folders of a multi-root workspace (inside the boundary; mentions reach them). */
  readonly additionalRoots?: () => readonly WorkspaceFolderInput[];
  readonly host: Host;
  readonly settings: PanelProviderSettings;
  readonly interactions: WebviewInteractions;
  readonly edits: EditReview;
  /** The window's MCP servers: shown in the panel's MCP view (tasks get them from the settings port). */
  readonly mcp?: McpPanelSource;
  /** Where an exported task goes (in VS Code: a save dialog). */
  readonly saveExport: (suggestedName: string, markdown: string) => Promise<void>;
  /** Where checkpoints are compared, and how a restore asks before overwriting the user's changes. */
  readonly checkpointViews: CheckpointViews;
}

/**
 * Owns the panel's task: starts, continues, resumes, cancels, deletes and exports tasks, and
 * derives the PanelState the webviews render. Both webviews (side bar and editor tab) read it.
 */
export class TaskController implements PanelSource, Disposable {
  private readonly listeners = new Set<(change: PanelChange) => void>();
  private readonly taskEnded = new Emitter<TaskOutcome>();
  /** Fires when a run of the panel's task ends (completed, failed or cancelled). */
  readonly onTaskEnded = this.taskEnded.event;
  private readonly subscriptions: Disposable[] = [];
  private current: OpenTask | undefined;
  private readonly views = new ViewRequests();
  private mode: PlanAct = 'act';
  private modeSlug = DEFAULT_MODE_SLUG;
  private settingsView: ProviderSettingsView;
  /** Counts settings refreshes; a refresh applies only while it is the latest. */
  private settingsGeneration = 0;
  private readonly stored: StoredTasks;
  private modes: readonly Mode[] | undefined;
  /** Text for the Task box that no webview has taken yet. */
  private inserts: string[] = [];
  /**
   * A task sent before the provider was set up: it waits, whatever view the user opens, and starts
   * once the setup is complete (saved in Settings or in the settings file).
   */
  private pendingTask: string | undefined;
  /** Saves of the Settings form under way. */
  private saving = 0;
  private readonly lists: PanelLists;
  private readonly subagentChats: SubagentChats;
  /** Compare, restore, edit and condense the open task, its todos and screenshots. */
  readonly actions: OpenTaskActions;

  private readonly live: LiveTasks;

  constructor(private readonly deps: TaskControllerDeps) {
    this.actions = new OpenTaskActions({
      host: deps.host,
      checkpointViews: deps.checkpointViews,
      live: () => this.live,
      current: () => this.current,
      emit: (change) => this.emit(change),
      historyChanged: () => this.stored.changed(),
    });
    this.stored = new StoredTasks(deps.storageDir, (message) => deps.host.notify('warning', message));
    // A restore a crash interrupted (in this or any workspace) is finished first, and the user told what was done.
    for (const recovered of recoverInterruptedRestores(deps.storageDir)) deps.host.notify('warning', describeRecoveredRestore(recovered));
    this.subagentChats = new SubagentChats(deps.storageDir);
    this.lists = new PanelLists({
      storageDir: deps.storageDir,
      cwd: deps.cwd,
      ...(deps.additionalRoots ? { additionalRoots: deps.additionalRoots } : {}),
      settings: deps.settings,
      mcp: () => deps.mcp?.hub,
    });
    this.live = new LiveTasks({
      host: deps.host,
      edits: deps.edits,
      createEnvironment: () => this.createEnvironment(),
      current: () => this.current,
      follow: (previous, next) => {
        if (this.current === previous) this.current = next;
      },
      emit: (change) => this.emit(change),
      historyChanged: () => this.stored.changed(),
      ended: (outcome) => this.taskEnded.fire(outcome),
    });
    this.settingsView = deps.settings.basics();
    void this.refreshSettings();
    this.subscriptions.push(
      deps.interactions.onDidChange(() => this.emit({ kind: 'state' })),
      deps.settings.onDidChange(() => void this.refreshSettings()),
    );
    // The stored tasks are read in the background; the snapshots before that say the history is loading.
    void this.stored.load().then(() => this.emit({ kind: 'state' }));
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

  /** The id of the open task, if any. */
  get openTaskId(): string | undefined {
    return this.current?.id;
  }

  /** True while the open task's loop runs. */
  get isRunning(): boolean {
    return this.current?.run !== undefined;
  }

  /** The whole panel state, as a `snapshot` message carries it. */
  snapshot(): PanelState {
    return {
      ...this.views.state(),
      ...(this.current ? { task: taskView(this.current, this.deps.interactions) } : {}),
      settings: this.settingsView,
      ...historyState(this.stored.history()),
      modes: this.availableModes().map((s) => ({ slug: s.slug, name: s.name })),
      mode: this.mode,
      modeSlug: this.modeSlug,
      mcp: this.deps.mcp?.panelState() ?? EMPTY_MCP_PANEL_STATE,
      ...(this.pendingTask !== undefined ? { pendingTask: this.pendingTask } : {}),
      autoApprove: this.deps.settings.autoApprove(),
      ...this.lists.state(),
      ...this.subagentChats.state(this.current?.id),
    };
  }

  /** The open task's assistant message as it streams (empty between responses). */
  streaming(): StreamingView | undefined {
    const open = this.current;
    if (!open) return undefined;
    const streaming = open.streaming;
    return streaming ? { taskId: open.id, key: streaming.key, text: streaming.text, reasoning: streaming.reasoning } : emptyStreamingView(open.id);
  }

  /**
   * Starts a new task (ending the open one) in the panel's Plan/Act state and mode. Before a provider is set
   * up the task waits instead: the panel shows the setup, and saving it starts the task.
   */
  async newTask(typed: string, images: readonly PanelImage[] = []): Promise<void> {
    if (!typed.trim()) throw new Error('Describe the task first.');
    const command = panelCommand(typed);
    if (command) return this.runPanelCommand(command);
    const text = await this.lists.expandSlash(typed);
    if (await this.needsSetup()) {
      if (images.length > 0) throw new Error('Set up a model provider first (the Settings view), then send the images with the task.');
      this.pendingTask = text;
      this.views.request('settings');
      this.emit({ kind: 'state' });
      return;
    }
    await this.startTask(text, images);
  }

  /** Starts `text` (slash commands expanded) as the panel's new task; the view stays the user's. */
  private async startTask(text: string, images: readonly PanelImage[], options: { showSetup?: boolean } = {}): Promise<void> {
    // Built first: when the settings are incomplete the open task stays as it was.
    const environment = await this.createEnvironment(options);
    let mentioned: MentionedContext;
    const session = Task.newSession(environment.options, { mode: this.mode });
    try {
      mentioned = await messageContext(environment.options, text, images, session);
    } catch (error) {
      await environment.dispose();
      throw error;
    }
    await this.closeCurrent();
    const task = Task.create(environment.options, text, { mode: this.mode, modeSlug: this.modeSlug, taskId: session.sessionId, mentioned });
    const open: OpenTask = { id: task.id, messages: [], messagesFrom: 0 };
    this.current = open;
    this.live.goLive(open, task, environment);
    this.live.startRun(open);
  }

  /**
   * The user's message: an answer, a rejection with feedback, a follow-up, or a new task. Its
   * @-mentions attach what they name and its images go with it (not while Smith works: a queued
   * message is text, its mentions read when it is delivered).
   */
  async sendMessage(typed: string, images: readonly PanelImage[] = []): Promise<void> {
    const { interactions } = this.deps;
    if (interactions.pendingQuestion) return interactions.answerQuestion(typed);
    const approval = interactions.pendingApproval;
    if (approval) return interactions.answerApproval(approval.callId, false, typed);
    const command = panelCommand(typed);
    if (command) return this.runPanelCommand(command);
    const open = this.current;
    if (!open) return this.newTask(typed, images);
    if (!typed.trim()) throw new Error('The message is empty.');
    const text = await this.lists.expandSlash(typed);
    if (open.run && open.task) {
      if (images.length > 0) throw new Error('Images go with a message once Smith has finished its step: send them then, or cancel first.');
      // Smith is working: the message waits for its next request (shown as queued until then).
      open.task.queueUserMessage(text);
      this.emit({ kind: 'state' });
      return;
    }
    const task = await this.live.ensureLive(open);
    // Messages left queued when the last run ended go first, in the order they were sent.
    if (task.queuedMessages.length > 0 && images.length === 0) task.queueUserMessage(text);
    else task.addUserMessage(text, await messageContext(open.environment!.options, text, images, task.messageSession()));
    this.live.startRun(open);
  }

  /** Sends a message now: while Smith works, the answer streaming now is cut off so the model reads it at once. */
  async steerMessage(typed: string): Promise<void> {
    const open = this.current;
    if (!open?.run || !open.task) return this.sendMessage(typed);
    if (!typed.trim()) throw new Error('The message is empty.');
    open.task.steer(await this.lists.expandSlash(typed));
    this.emit({ kind: 'state' });
  }

  /** Changes or (without `text`) removes the queued message `was` at `index`; throws when it has been delivered meanwhile. */
  updateQueued(index: number, was: string, text?: string): void {
    if (text !== undefined && !text.trim()) throw new Error('The message is empty: remove it instead.');
    const task = this.current?.task;
    if (task?.queuedMessages[index] !== was || !task.updateQueued(index, text)) throw new Error('That message has already been sent to the model.');
    this.emit({ kind: 'state' });
  }

  /** Runs the open task's loop again after a failure, a cancel or an interruption. */
  async retry(): Promise<void> {
    const open = this.current;
    if (!open) throw new Error('There is no task to retry.');
    if (open.run) throw new Error('The task is already running.');
    await this.live.ensureLive(open);
    this.live.startRun(open);
  }

  /** Stops the open task's running step (model request, approval, command). */
  async cancel(): Promise<void> {
    const open = this.current;
    if (!open?.run || !open.task) return;
    open.task.abort();
    await open.run;
  }

  /** Lets the open task's running command continue in the background; a no-op when it has just finished. */
  proceedWhileRunning(callId: string): void {
    this.current?.task?.proceedWhileRunning(callId);
  }

  /** Stops one running sub-agent of the open task; a no-op when it has just finished. */
  stopSubagent(taskId: string): void {
    this.current?.task?.stopSubagent(taskId);
  }

  /** Shows a sub-agent's own chat of the open task (it arrives with the next state); throws when it has none such. */
  openSubagentChat(taskId: string): void {
    const open = this.current;
    if (!open) throw new Error('No task is open.');
    this.subagentChats.show(open.id, taskId);
    this.emit({ kind: 'state' });
  }

  closeSubagentChat(): void {
    this.subagentChats.close();
    this.emit({ kind: 'state' });
  }

  /** Sets Plan or Act for new tasks and for the open one. */
  setMode(mode: PlanAct): void {
    this.mode = mode;
    const open = this.current;
    if (open?.task) open.task.switchMode(mode);
    else if (open) open.pendingMode = mode;
    this.emit({ kind: 'state' });
  }

  /** Sets the mode for new tasks and for the open one; throws, listing the modes, when unknown. */
  setModeSlug(slug: string): void {
    findMode(this.availableModes(), slug);
    this.modeSlug = slug;
    const open = this.current;
    if (open?.task) open.task.switchModeSlug(slug);
    else if (open) open.pendingModeSlug = slug;
    this.emit({ kind: 'state' });
  }

  /**
   * Asks the webviews to show `view` (a title-bar or palette command). Each follows the request
   * once; the view the user then picks is theirs. A task waiting for the setup keeps waiting.
   */
  showView(view: PanelView): void {
    this.views.request(view);
    this.viewOpened(view);
  }

  /** The user opened `view` in a webview: what it lists is read again (nothing moves the other webviews). */
  viewOpened(view: PanelView): void {
    // The lists may have changed on disk (the CLI shares the storage, modes and rules are files).
    if (view === 'history') this.stored.changed();
    if (view === 'settings') {
      this.readRules();
      this.lists.readSkills();
    }
    this.modes = undefined;
    this.emit({ kind: 'state' });
  }

  /** Gives the task waiting for the setup back to the Task box; it no longer starts by itself. */
  returnPendingTask(): void {
    const text = this.pendingTask;
    if (text === undefined) throw new Error('No task is waiting for the setup.');
    this.pendingTask = undefined;
    this.insertText(text);
    this.emit({ kind: 'state' });
  }

  /** Closes the open task (ending its commands) and shows an empty chat. */
  async clearTask(): Promise<void> {
    await this.closeCurrent();
    this.views.request('chat');
    this.emit({ kind: 'state' });
  }

  /** Opens a stored task for viewing; it resumes only when the user continues it. */
  async openTask(taskId: string): Promise<void> {
    if (this.current?.id !== taskId) {
      const { facts, messages, pages } = this.stored.open(taskId);
      await this.closeCurrent();
      this.current = {
        id: taskId,
        messages,
        messagesFrom: firstIndex(facts.messageCount - messages.length, pages.more),
        olderPages: pages,
        stored: { facts, storageDir: this.deps.storageDir },
      };
    }
    // The webview that opened it shows its chat; the others stay where their users are.
    this.emit({ kind: 'state' });
  }

  /** The page of the open task's messages before the one keyed `before` (older pages of a stored task are read from its log now). */
  olderMessages(taskId: string, before: string): { start: number; messages: UiMessage[] } {
    const open = this.current;
    if (open?.id !== taskId) throw new Error('That task is no longer open.');
    return pageBefore(open, before);
  }

  /** Deletes a stored task (closing it first when it is open). */
  async deleteTask(taskId: string): Promise<void> {
    this.stored.requireStored(taskId);
    if (this.current?.id === taskId) await this.closeCurrent();
    await this.stored.delete(taskId);
    this.emit({ kind: 'state' });
  }

  /** Writes the task's conversation as Markdown (a save dialog by default). */
  async exportTask(taskId: string): Promise<void> {
    const open = this.current;
    const events = open?.id === taskId ? eventsOf(open) : this.stored.events(taskId);
    await this.deps.saveExport(`smith-task-${taskId}.md`, taskMarkdown(events));
  }

  /** Approves the pending call and writes the rules that allow it from now on ("always allow") to the chosen settings file. */
  approveAlways(callId: string, scope: AllowScope, feedback?: string): void {
    const pending = this.deps.interactions.pendingApproval;
    if (pending?.callId !== callId) throw new Error('That call is no longer waiting for approval.');
    if (!pending.allowRules) throw new Error('No rule can allow this call (a command with parts Smith cannot judge): approve it once instead.');
    const file = rememberAllowRules(pending.allowRules, scope, { storageDir: this.deps.storageDir, cwd: this.deps.cwd() });
    this.deps.host.notify('info', `Allowed from now on: ${pending.allowRules.join(', ')} (in ${file}).`);
    this.deps.interactions.answerApproval(callId, true, feedback);
  }

  /** Turns a rules file on or off; the list and the open task's next request follow. */
  async setRuleEnabled(label: string, enabled: boolean): Promise<void> {
    await this.lists.setRuleEnabled(label, enabled);
    this.readRules();
    this.emit({ kind: 'state' });
  }

  /** Turns an Agent Skill on or off; the list and the open task's next request follow. */
  async setSkillEnabled(name: string, enabled: boolean): Promise<void> {
    await this.lists.setSkillEnabled(name, enabled);
    this.lists.readSkills();
    this.emit({ kind: 'state' });
  }

  /** Completions for the command being typed at the start of the Task box; they arrive with the next state. */
  suggestCommands(query: string): void {
    this.lists.suggestCommands(query);
    this.emit({ kind: 'state' });
  }

  /** Completions for the @-mention being typed; they arrive with the next state. */
  async suggestMentions(query: string): Promise<void> {
    await this.lists.suggestMentions(query);
    this.emit({ kind: 'state' });
  }

  /** Lists the models of the provider the Settings form names; they arrive with the next state. */
  async listModels(provider: ProviderName, baseUrl: string): Promise<void> {
    await this.lists.listModels(provider, baseUrl);
    this.emit({ kind: 'state' });
  }

  /** Writes the chat's auto-approve toggles and limits to the settings (the change event refreshes the panel). */
  async saveAutoApprove(change: Parameters<PanelProviderSettings['saveAutoApprove']>[0]): Promise<void> {
    await this.deps.settings.saveAutoApprove(change);
    this.emit({ kind: 'state' });
  }

  /** Saves the provider choice; the key goes to the key store, an empty key removes the stored one. */
  async saveSettings(choice: ProviderChoice & { readonly apiKey?: string }): Promise<void> {
    // A save writes its keys one by one (each a change event): only the whole of it may start the waiting task.
    this.saving += 1;
    try {
      await this.deps.settings.save(choice);
      await this.refreshSettings();
    } finally {
      this.saving -= 1;
    }
    // The task sent before the setup starts now (its failure is the Save's), unless the setup is
    // still incomplete or the settings change already started it.
    await this.startPendingTask();
  }

  /** Starts the task waiting for the setup once the setup is complete; the view stays the user's. */
  private async startPendingTask(options: { showSetup?: boolean } = {}): Promise<void> {
    const pending = this.pendingTask;
    if (pending === undefined || (await this.needsSetup())) return;
    // Taken before the first await below, so a save and a settings change never start it twice.
    if (this.pendingTask !== pending) return;
    this.pendingTask = undefined;
    try {
      await this.startTask(pending, [], options);
    } catch (error) {
      this.pendingTask ??= pending;
      this.emit({ kind: 'state' });
      throw error;
    }
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
    void this.closeCurrent();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.listeners.clear();
    this.taskEnded.dispose();
  }

  private readRules(): void {
    const open = this.current;
    this.lists.readRules(open?.task?.state.modeSlug ?? this.modeSlug, open ? eventsOf(open) : []);
  }

  /** `/newtask`, `/condense`, `/plan`, `/act`, `/mode` typed in the Task box. */
  private async runPanelCommand(command: PanelCommand): Promise<void> {
    switch (command.name) {
      case 'newtask':
        return command.args ? this.newTask(command.args) : this.clearTask();
      case 'condense':
        if (!this.current) throw new Error('There is no task to condense.');
        return this.actions.condense(this.current.id);
      case 'skills':
        // The Settings view lists the skills, each with its folder and toggle.
        return this.showView('settings');
      case 'plan':
      case 'act':
        return this.setMode(command.name);
      case 'mode': {
        const slugs = this.availableModes().map((m) => m.slug);
        const wanted = readModeArgument(command.args, slugs);
        if (wanted.kind === 'planAct') return this.setMode(wanted.planAct);
        if (wanted.kind === 'mode') return this.setModeSlug(wanted.slug);
        throw new Error(
          `${wanted.kind === 'unknown' ? `Unknown mode "${wanted.slug}". ` : ''}Usage: /mode <slug> (${slugs.join(', ')}); /plan or /act for Plan/Act`,
        );
      }
    }
  }

  /** True when the provider cannot run a task yet (refreshes what the panel shows about it). */
  private async needsSetup(): Promise<boolean> {
    const view = await this.deps.settings.view();
    this.settingsView = view;
    return (view.missing?.length ?? 0) > 0;
  }

  /** The task's environment; without a complete setup it throws, and (`showSetup`, for a user's action) asks for the Settings view. */
  private async createEnvironment(options: { showSetup?: boolean } = {}): Promise<TaskEnvironment> {
    const cwd = this.deps.cwd();
    if (!cwd) throw new Error('Open a folder first: Smith works inside a workspace folder.');
    const environment = await this.deps.settings.createEnvironment(cwd, this.deps.additionalRoots?.() ?? []);
    if (environment) return environment;
    if (options.showSetup !== false) {
      this.views.request('settings');
      this.emit({ kind: 'state' });
    }
    throw new Error('Set up a model provider first: the Settings view shows what is missing.');
  }

  private async closeCurrent(): Promise<void> {
    const open = this.current;
    if (!open) return;
    this.current = undefined;
    if (open.run) {
      open.task?.abort();
      await open.run;
    }
    open.unsubscribe?.();
    await open.environment?.dispose();
    await this.deps.edits.discard({ all: true });
    // A task only viewed from its log left it as it was: the history stays as measured.
    if (!open.stored) this.stored.changed();
  }

  private async refreshSettings(): Promise<void> {
    // Several refreshes run at once (one Save changes settings and the key, each firing an event);
    // only the latest read may land, and an older one finishing late must not overwrite it.
    const generation = ++this.settingsGeneration;
    const view = await this.deps.settings.view();
    if (generation !== this.settingsGeneration) return;
    this.settingsView = view;
    // A live task keeps the provider it was built with; drop it so the next run uses the new
    // settings (at once when idle, else when the run under way ends).
    const open = this.current;
    if (open?.task && !open.run) await this.live.dropLive(open);
    else if (open?.run) open.settingsChanged = true;
    this.emit({ kind: 'state' });
    // A setup completed outside the Settings form (the settings file, another window) starts the
    // waiting task too, wherever the user is; a failure is told, and the task waits on.
    if (this.pendingTask !== undefined && this.saving === 0 && (view.missing?.length ?? 0) === 0) {
      this.startPendingTask({ showSetup: false }).catch((error: unknown) =>
        this.deps.host.notify('error', `The task waiting for the setup did not start: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }

  private availableModes(): readonly Mode[] {
    const cwd = this.deps.cwd();
    this.modes ??= loadModes({ storageDir: this.deps.storageDir, ...(cwd ? { workspaceRoot: cwd } : {}) }).modes;
    return this.modes;
  }

  private emit(change: PanelChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
