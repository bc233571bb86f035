import type { TaskEnvironment } from '../core/session/task-environment.js';
import { Task, type MentionedContext } from '../core/task/task.js';
import type { WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import type { WorktreeAction } from '../shared/protocol.js';
import { firstIndex } from './chat-window.js';
import { titleOf, type HeldTasks } from './held-tasks.js';
import type { LiveTasks } from './live-task.js';
import { messageContext, type PanelImage } from './message-context.js';
import { eventsOf, type OpenTask } from './open-task.js';
import type { PanelChange } from './panel-changes.js';
import type { PanelModes } from './panel-modes.js';
import type { EditReview, PanelProviderSettings, TaskPlace } from './panel-ports.js';
import type { StoredTasks } from './stored-tasks.js';
import type { TaskWorktrees, WorktreeChoice } from './task-worktrees.js';
import type { ViewRequests } from './view-requests.js';
import type { TotalCostLimit } from '../core/log/total-cost-limit.js';
import { countedEnvironment } from './total-cost.js';
import type { TaskAsks, WebviewInteractions } from './webview-interactions.js';

/** What the lifecycle of the panel's tasks works with; the TaskController provides it. */
interface TaskLifecycleDeps {
  readonly storageDir: string;
  readonly cwd: () => string | undefined;
  readonly additionalRoots?: () => readonly WorkspaceFolderInput[];
  readonly settings: PanelProviderSettings;
  readonly interactions: WebviewInteractions;
  readonly edits: EditReview;
  readonly tasks: HeldTasks;
  readonly live: () => LiveTasks;
  readonly stored: StoredTasks;
  readonly worktrees: TaskWorktrees;
  readonly modes: PanelModes;
  readonly views: ViewRequests;
  /** The total cost limit over the tasks the panel holds (`smith.maxTotalCost`): each environment joins it. */
  readonly totalCost: TotalCostLimit;
  readonly emit: (change: PanelChange) => void;
}

/**
 * Starting, showing, leaving, closing and deleting the panel's tasks, each in its own environment
 * (in its own worktree, when it has one). Which tasks stay held when the chat leaves them is here
 * (`leaveShown`).
 */
export class TaskLifecycle {
  constructor(private readonly deps: TaskLifecycleDeps) {}

  /**
   * Starts `text` (slash commands expanded) as a new task and shows it; the view stays the user's.
   * `worktree`: in a git worktree and branch made for it (its folder is the task's workspace), with
   * the name and base chosen (absent: from the task's text, and the branch checked out).
   */
  async start(text: string, images: readonly PanelImage[], options: { showSetup?: boolean; worktree?: WorktreeChoice } = {}): Promise<void> {
    const { tasks, modes } = this.deps;
    // Built first: when the settings are incomplete the shown task stays as it was.
    const asks = this.deps.interactions.forTask();
    let environment: TaskEnvironment;
    let mentioned: MentionedContext;
    let worktree: OpenTask['worktree'];
    try {
      if (options.worktree) {
        const cwd = this.deps.cwd();
        if (!cwd) throw new Error('Open a folder first: Smith works inside a workspace folder.');
        const { created, held } = await this.deps.worktrees.create(cwd, text, options.worktree);
        worktree = { ...held, workspace: created.workspace };
      }
      environment = await this.createEnvironment(asks, options, worktree);
    } catch (error) {
      asks.dispose();
      throw error;
    }
    const session = Task.newSession(environment.options, { mode: modes.mode });
    try {
      mentioned = await messageContext(environment.options, text, images, session);
    } catch (error) {
      asks.dispose();
      await environment.dispose();
      throw error;
    }
    await this.leaveShown();
    const task = Task.create(environment.options, text, { mode: modes.mode, modeSlug: modes.modeSlug, taskId: session.sessionId, mentioned });
    const open: OpenTask = { id: task.id, messages: [], messagesFrom: 0, ...(worktree ? { worktree } : {}) };
    tasks.show(open);
    this.deps.live().goLive(open, task, environment, asks);
    this.deps.live().startRun(open);
  }

  /** Shows a task: one the panel holds as it is (running or not), or a stored one for viewing (it resumes only when the user continues it). */
  async open(taskId: string): Promise<void> {
    const { tasks, stored } = this.deps;
    const held = tasks.get(taskId);
    if (held) {
      if (held !== tasks.shown) {
        await this.leaveShown();
        tasks.show(held);
      }
    } else {
      const { facts, messages, pages } = stored.open(taskId);
      await this.leaveShown();
      tasks.show({
        id: taskId,
        messages,
        messagesFrom: firstIndex(facts.messageCount - messages.length, pages.more),
        olderPages: pages,
        stored: { facts, storageDir: this.deps.storageDir },
      });
    }
    // The webview that opened it shows its chat; the others stay where their users are.
    this.deps.emit({ kind: 'state' });
    this.deps.emit({ kind: 'tasks' });
  }

  /** Acts on a held task's worktree: review at any time; merge, open a pull request, keep or discard once the task is not running. */
  async worktreeAction(taskId: string, action: WorktreeAction): Promise<void> {
    const open = this.deps.tasks.require(taskId);
    const worktree = open.worktree;
    if (!worktree) throw new Error('That task has no worktree of its own.');
    if (worktree.outcome === 'discarded') throw new Error(`${worktree.worktree.branch} was discarded.`);
    if (open.run && action !== 'review') throw new Error('Smith is still working on this task: wait for it to finish, or stop it first.');
    const outcome = await this.deps.worktrees.act(worktree, action, titleOf(eventsOf(open)));
    // Its folder is gone: the task's environment (commands, checkpoints) goes too, and it cannot run there again.
    if (outcome === 'discarded') await this.deps.live().dropLive(open);
  }

  /** Closes a held task (stopping it first when it runs, ending its commands); the others run on. */
  async closeHeld(taskId: string): Promise<void> {
    await this.close(this.deps.tasks.require(taskId));
    this.deps.emit({ kind: 'state' });
  }

  /** Deletes a stored task (closing it first when the panel holds it). */
  async delete(taskId: string): Promise<void> {
    const { tasks, stored } = this.deps;
    stored.requireStored(taskId);
    const held = tasks.get(taskId);
    if (held) await this.close(held);
    await stored.delete(taskId);
    this.deps.emit({ kind: 'state' });
  }

  /** Stops and closes every held task, all at once; settles when each one's run and environment have ended. */
  async closeAll(): Promise<void> {
    const closed = await Promise.allSettled(this.deps.tasks.all().map((open) => this.close(open)));
    // Each task is closed even when another's environment fails to end; the first failure is reported.
    const failed = closed.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * The task's environment, asking through `asks`, in its worktree when it has one, counted in the
   * panel's total cost limit from what the task has `spent` so far until it is disposed; without a
   * complete setup it throws, and (`showSetup`, for a user's action) asks for the Settings view.
   */
  async createEnvironment(asks: TaskAsks, options: { showSetup?: boolean } = {}, worktree?: OpenTask['worktree'], spent = 0): Promise<TaskEnvironment> {
    if (worktree?.outcome === 'discarded') throw new Error(`The worktree of this task (${worktree.worktree.branch}) was discarded.`);
    const cwd = worktree?.workspace ?? this.deps.cwd();
    if (!cwd) throw new Error('Open a folder first: Smith works inside a workspace folder.');
    const place: TaskPlace = { asks, ...(worktree ? { worktree: worktree.worktree } : {}) };
    const environment = await this.deps.settings.createEnvironment(cwd, this.deps.additionalRoots?.() ?? [], place);
    if (environment) return countedEnvironment(environment, this.deps.totalCost.join(spent));
    if (options.showSetup !== false) {
      this.deps.views.request('settings');
      this.deps.emit({ kind: 'state' });
    }
    throw new Error('Set up a model provider first: the Settings view shows what is missing.');
  }

  /**
   * The chat stops showing its task. A running one runs on, listed; so does one that ran here while
   * the panel holds other tasks (the user is working with several). Otherwise it is closed, as a
   * single task always was, and a stored task only viewed is let go.
   */
  async leaveShown(): Promise<void> {
    const { tasks } = this.deps;
    const open = tasks.shown;
    if (!open) return;
    const others = tasks.all().some((other) => other !== open);
    if (open.run || (others && !open.stored)) tasks.show(undefined);
    else await this.close(open);
  }

  /** The settings changed: a live task keeps the provider it was built with, so it is rebuilt for its next run (at once when idle). */
  async settingsChanged(): Promise<void> {
    for (const open of this.deps.tasks.all()) {
      if (open.task && !open.run) await this.deps.live().dropLive(open);
      else if (open.run) open.settingsChanged = true;
    }
  }

  private async close(open: OpenTask): Promise<void> {
    const { tasks } = this.deps;
    if (!tasks.holds(open)) return;
    tasks.remove(open);
    if (open.run) {
      open.task?.abort();
      await open.run;
    }
    open.unsubscribe?.();
    open.asks?.dispose();
    await open.environment?.dispose();
    // Reviews still open in the editor are this task's only when no other task is live.
    if (!tasks.all().some((other) => other.task)) await this.deps.edits.discard({ all: true });
    // A task only viewed from its log left it as it was: the history stays as measured.
    if (!open.stored) this.deps.stored.changed();
    this.deps.emit({ kind: 'tasks' });
  }
}
