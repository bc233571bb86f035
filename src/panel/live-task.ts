import type { Host } from '../core/ports.js';
import type { TaskEnvironment } from '../core/session/task-environment.js';
import { describeLeftovers, stopLeftoverCommands } from '../core/task/leftover-commands.js';
import { runTaskChain } from '../core/task/task-chain.js';
import { unpricedModels } from '../core/task/cost-limit.js';
import type { TaskOptions } from '../core/task/task-types.js';
import { Task, type TaskOutcome, type TaskUpdate } from '../core/task/task.js';
import { emptyUiProjection, foldUiEvents } from '../core/task/ui-projection.js';
import { retryText } from '../shared/retry-text.js';
import type { UiMessage } from '../shared/ui-messages.js';
import { streamEditsToDiff } from './edit-streaming.js';
import { StreamingMessage } from './streaming-message.js';
import { eventsOf, type OpenTask } from './open-task.js';
import { changesProgress, taskProgress } from './task-facts.js';
import type { PanelChange } from './panel-changes.js';
import { firstChangedIndex } from './panel-state.js';
import type { EditReview } from './panel-ports.js';
import type { TaskAsks, WebviewInteractions } from './webview-interactions.js';

/** What the panel's live tasks are run with; the TaskController provides it. */
interface LiveTaskDeps {
  readonly host: Host;
  readonly edits: EditReview;
  /** Where each task gets its own approval and question channel. */
  readonly interactions: Pick<WebviewInteractions, 'forTask'>;
  /** An environment for `open` (in its worktree, when it has one) from the current settings, asking through `asks`; throws saying what to fix. */
  createEnvironment(asks: TaskAsks, open: OpenTask): Promise<TaskEnvironment>;
  /** The task the panel shows: only its updates are sent to the webviews. */
  shown(): OpenTask | undefined;
  /** True while the panel holds `open` (it was not closed meanwhile). */
  holds(open: OpenTask): boolean;
  /** A new_task hand-over started `next`: it takes `previous`'s place (in the list, and shown when that was). */
  follow(previous: OpenTask, next: OpenTask): void;
  emit(change: PanelChange): void;
  /** The stored tasks changed (one started, went live or ended): the history is read again. */
  historyChanged(): void;
  /** A run of a held task ended (shown or not). */
  ended(outcome: TaskOutcome, open: OpenTask): void;
}

/**
 * The panel's task while it is live: resumed from its log, run (through the same task chain as
 * the CLI), its updates folded into the chat and streamed, and turned back into a viewed task.
 */
export class LiveTasks {
  /** Counts the streaming messages, so each gets its own key. */
  private streamedMessages = 0;

  constructor(private readonly deps: LiveTaskDeps) {}

  /** Makes a viewed task live again (resuming it from its log) so it can run. */
  async ensureLive(open: OpenTask): Promise<Task> {
    if (open.task) return open.task;
    // A crash or a killed window can leave the task's commands running; they must not run beside it.
    for (const line of describeLeftovers(await stopLeftoverCommands(eventsOf(open)))) {
      this.deps.host.notify(line.stopped ? 'info' : 'warning', line.text);
    }
    const asks = this.deps.interactions.forTask(open.id);
    let environment: TaskEnvironment;
    try {
      environment = await this.deps.createEnvironment(asks, open);
    } catch (error) {
      asks.dispose();
      throw error;
    }
    const discard = async () => {
      asks.dispose();
      await environment.dispose();
    };
    if (!this.deps.holds(open)) {
      await discard();
      throw new Error('The task was closed.');
    }
    // Another request made it live while this one was building its environment.
    if (open.task) {
      await discard();
      return open.task;
    }
    const task = Task.resume(environment.options, open.id);
    this.goLive(open, task, environment, asks);
    if (open.pendingMode) task.switchMode(open.pendingMode);
    if (open.pendingModeSlug) task.switchModeSlug(open.pendingModeSlug);
    open.pendingMode = undefined;
    open.pendingModeSlug = undefined;
    return task;
  }

  goLive(open: OpenTask, task: Task, environment: TaskEnvironment, asks: TaskAsks): void {
    asks.bind(open.id);
    open.asks = asks;
    open.task = task;
    open.ui = undefined;
    // The live log holds every event: the stored view's reader and facts are done with.
    open.stored = undefined;
    open.olderPages = undefined;
    open.viewedEvents = undefined;
    open.environment = environment;
    const streamEdits = streamEditsToDiff(this.deps.edits, environment.options.workspace ?? environment.options.cwd, environment.options.ignore);
    open.unsubscribe = task.onUpdate((update) => {
      streamEdits(update);
      this.onTaskUpdate(open, update);
    });
    this.deps.historyChanged();
    // Events appended before the listener existed (task_started, task_resumed).
    this.refreshMessages(open);
  }

  /**
   * Runs the open task's loop. A new_task hand-over starts the new task with the carried context,
   * as the CLI does (runTaskChain), and the panel moves to it: same environment, same run.
   */
  startRun(first: OpenTask): void {
    let open = first;
    const { task, environment } = first;
    warnOfUnpricedCostLimit(environment!.options, this.deps.host);
    const chain = runTaskChain(task!, environment!.options, (next) => {
      const previous = open;
      open = { id: next.id, messages: [], messagesFrom: 0, run: previous.run, ...(previous.worktree ? { worktree: previous.worktree } : {}) };
      // The finished task becomes a viewed one; its environment (and running commands) carry on.
      previous.unsubscribe?.();
      previous.unsubscribe = undefined;
      previous.run = undefined;
      if (previous.task) previous.viewedEvents = previous.task.log.events;
      previous.task = undefined;
      previous.environment = undefined;
      const asks = previous.asks!;
      previous.asks = undefined;
      this.deps.follow(previous, open);
      this.goLive(open, next, environment!, asks);
      this.deps.emit({ kind: 'state' });
      this.deps.emit({ kind: 'tasks' });
    });
    const run = chain.then(
      (result) => result.outcome,
      (error: unknown): TaskOutcome => ({ status: 'failed', error: (error as Error).message }),
    );
    first.run = run;
    this.deps.emit({ kind: 'state' });
    this.deps.emit({ kind: 'tasks' });
    void run.then(async (outcome) => {
      if (open.run === run) open.run = undefined;
      open.streaming = undefined;
      if (open.settingsChanged && !open.run) {
        open.settingsChanged = false;
        await this.dropLive(open);
      }
      // Background commands (dev servers) outlive a completed turn, not a cancelled one.
      if (outcome.status === 'aborted') await open.environment?.commands.killAll();
      if (!this.deps.holds(open)) return;
      this.deps.ended(outcome, open);
      this.deps.historyChanged();
      this.deps.emit({ kind: 'tasks' });
      if (this.deps.shown() !== open) return;
      this.deps.emit({ kind: 'streaming' });
      this.deps.emit({ kind: 'state' });
    });
  }

  /**
   * Every held task keeps its chat and streaming message current, so showing it later needs no
   * catching up; only the shown task's changes are sent to the webviews.
   */
  private onTaskUpdate(open: OpenTask, update: TaskUpdate): void {
    const shown = this.deps.shown() === open;
    if (update.type === 'progress') {
      if (shown) this.deps.emit({ kind: 'commandOutput', taskId: open.id, callId: update.callId, text: update.text });
    } else if (update.type === 'delta') {
      // Raw text is shown through the parsed blocks' deltas, which leave the tool calls out.
      if (update.delta.kind === 'text') return;
      open.streaming ??= new StreamingMessage(`${open.id}:${++this.streamedMessages}`);
      if (open.streaming.apply(update.delta) && shown) this.deps.emit({ kind: 'streaming' });
    } else if (update.type === 'retry') {
      // The interrupted response is dropped; its replacement streams from the start.
      open.streaming = undefined;
      if (shown) this.deps.emit({ kind: 'streaming' });
      this.deps.host.notify('info', retryText(update));
    } else {
      if (update.event.type === 'request_started' || update.event.type === 'model_response') {
        open.streaming = undefined;
        if (shown) this.deps.emit({ kind: 'streaming' });
      }
      this.refreshMessages(open);
      // The task list shows each task's cost.
      if (update.event.type === 'model_response') this.deps.emit({ kind: 'tasks' });
      if (!shown) return;
      if (changesProgress(update.event)) this.refreshProgress(open);
      // A queued message was delivered: the queue shown beside the Task box changed.
      if (update.event.type === 'user_message') this.deps.emit({ kind: 'state' });
    }
  }

  /**
   * Folds the events appended since the last refresh into the open task's chat and sends the
   * changed tail. Going live starts a new fold of the whole log, compared once with what was
   * shown (of a stored task, the newest messages: compared where they lie in the whole chat).
   */
  refreshMessages(open: OpenTask): void {
    const previous = open.messages;
    const previousEnd = open.messagesFrom + previous.length;
    let start: number;
    if (open.ui) {
      start = foldUiEvents(open.ui, eventsOf(open));
    } else {
      open.ui = emptyUiProjection();
      foldUiEvents(open.ui, eventsOf(open));
      start = changedFrom(previous, open.messagesFrom, open.ui.messages);
    }
    const next = open.ui.messages;
    open.messages = next;
    open.messagesFrom = 0;
    // A task not shown is sent whole (in a snapshot) when it is shown.
    if (this.deps.shown() !== open) return;
    if (start < next.length || previousEnd !== next.length) {
      this.deps.emit({ kind: 'messages', taskId: open.id, start, messages: next.slice(start) });
    }
  }

  /** Sends the usage line, todo list and context figures when a logged event changed them. */
  private refreshProgress(open: OpenTask): void {
    const progress = taskProgress(eventsOf(open));
    const key = JSON.stringify(progress);
    if (key === open.progressKey) return;
    open.progressKey = key;
    this.deps.emit({ kind: 'progress', taskId: open.id, progress });
  }

  /** Turns a live idle task back into a viewed one; detaches before awaiting, so no other caller sees it half done. */
  async dropLive(open: OpenTask): Promise<void> {
    const { task, environment, unsubscribe, asks } = open;
    if (!task) return;
    open.viewedEvents = task.log.events;
    open.task = undefined;
    open.environment = undefined;
    open.unsubscribe = undefined;
    open.asks = undefined;
    unsubscribe?.();
    asks?.dispose();
    await environment?.dispose();
  }
}

/** The first index at which the chat `next` differs from the messages held (`held`, the first at index `from`); 0 when they do not line up. */
function changedFrom(held: readonly UiMessage[], from: number, next: readonly UiMessage[]): number {
  if (from === 0) return firstChangedIndex(held, next);
  if (held.length === 0 || next[from]?.id !== held[0]!.id) return 0;
  return from + firstChangedIndex(held, next.slice(from));
}

/** A cost limit set for models whose prices are unknown cannot count anything: the user is told at each run, not left believing it holds. */
function warnOfUnpricedCostLimit(options: TaskOptions, host: Host): void {
  const limits = [
    ...(options.maxCost !== undefined ? [`The cost limit of $${options.maxCost} (smith.maxCost)`] : []),
    ...(options.sharedCosts && Number.isFinite(options.sharedCosts.currentLimit)
      ? [`The total cost limit of $${options.sharedCosts.currentLimit} (smith.maxTotalCost)`]
      : []),
  ];
  if (limits.length === 0) return;
  const unpriced = unpricedModels(options);
  if (unpriced.length === 0) return;
  for (const limit of limits) {
    host.notify(
      'warning',
      `${limit} cannot apply: the prices of ${unpriced.join(', ')} are unknown. Set smith.modelInputPrice and smith.modelOutputPrice for it to count.`,
    );
  }
}
