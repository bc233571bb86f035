import { checkRepeatedCalls, DEFAULT_MAX_REPEATED_CALLS } from './repeated-calls.js';
import { costOf } from '../providers/model-cost.js';
import { ProviderAbortedError, type ApiProvider, type TokenUsage } from '../providers/types.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { ContextGuard } from './context-guard.js';
import { redactingProvider } from '../secrets/redacting-provider.js';
import { requestEnvironmentDetails } from './environment-details.js';
import type { ModelTurn } from './model-turn.js';
import { TurnAbort, wasSteered } from './turn-abort.js';
import { RunLimits } from './run-limits.js';
import type { CostBudget } from '../log/cost-budget.js';
import { chargedCost, costBudgetFor } from './cost-limit.js';
import { noteMissingTool } from './missing-tool.js';
import { logModelResponse, requestModelTurn, type ModelRequestContext } from './model-request.js';
import { TaskLog } from '../log/task-log.js';
import type { RunBudget, TaskOptions, TaskOutcome, TaskUpdate } from './task-types.js';
import { runToolCalls, subagentStopKey } from './tool-call-runner.js';
import { currentPlanActAndMode, findMode, setupTurn } from './turn-setup.js';
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from '../modes/built-in-modes.js';
import { TaskCheckpoints } from '../checkpoints/task-checkpoints.js';
import { contextFields, type MentionedContext } from './mentioned-context.js';
import { newTaskId } from './new-task-id.js';
import { QueuedMessages } from './queued-messages.js';
import { TaskHooks } from './task-hooks.js';
import { ToolProgress } from './tool-progress.js';
import { toolCallEnvironment } from './tool-call-environment.js';
import { mayGoOnPastLimit, mayGoOnRepeating } from './go-on-questions.js';
import { prepareMessage, PromptBlockedError, type MessageSession } from './prepare-message.js';

export type { MentionedContext };
export type { RunBudget, TaskOptions, TaskOutcome, TaskUpdate } from './task-types.js';

/** The agent loop of docs/architecture.md. It orchestrates; parsing, tools, prompts and projections live elsewhere. */
export class Task {
  private readonly listeners = new Set<(update: TaskUpdate) => void>();
  private abortController = new AbortController();
  /** The executing tool calls that can be let go on in the background, by call id. */
  private readonly detachable = new Map<string, AbortController>();
  private readonly context: ContextGuard;
  private readonly progress: ToolProgress;
  /** Messages the user typed while the task worked, not yet delivered to the model. */
  private readonly queued = new QueuedMessages();
  private readonly turnAbort = new TurnAbort();
  private readonly hooks: TaskHooks;
  /** Rules-file notes already told (rules are re-read each turn; each note is told once). */
  private readonly toldRuleNotes = new Set<string>();
  private readonly checkpoints: TaskCheckpoints | undefined;
  /** The cost budget of the running run (shared with sub-agents and the chain): every cost logged is charged to it. */
  private costs: CostBudget | undefined;

  private constructor(
    readonly log: TaskLog,
    private readonly options: TaskOptions,
  ) {
    this.context = new ContextGuard(
      log,
      options.contextPolicy,
      (provider, usage) => this.costOf(provider, usage),
      options.condenseProvider ? redactingProvider(options.condenseProvider, options.redactor) : undefined,
    );
    this.progress = new ToolProgress(options.redactor);
    this.hooks = new TaskHooks(options, log, () => this.state.mode);
    this.checkpoints = options.checkpoints
      ? new TaskCheckpoints(
          options.checkpoints,
          log,
          (tool) => options.tools.get(tool)?.spec.group,
          (message) => options.host.notify('warning', message),
        )
      : undefined;
    log.onAppend((event) => {
      const cost = chargedCost(event);
      if (cost !== undefined) {
        this.costs?.charge(cost);
        options.sharedCosts?.charge(cost);
      }
      options.onEvent?.(event);
      this.emit({ type: 'event', event });
    });
  }

  /** Starts a new task and logs it; call run() to work on it. */
  static create(
    options: TaskOptions,
    taskText: string,
    start: { mode?: PlanAct; modeSlug?: string; taskId?: string; mentioned?: MentionedContext } = {},
  ): Task {
    const taskId = start.taskId ?? newTaskId();
    const modeSlug = findMode(options.modes ?? BUILT_IN_MODES, start.modeSlug ?? DEFAULT_MODE_SLUG).slug;
    const task = new Task(
      TaskLog.create(options.storageDir, taskId, () => options.host.clock.now(), options.redactor),
      options,
    );
    task.log.append({
      type: 'task_started',
      taskId,
      task: taskText,
      cwd: options.cwd,
      provider: options.provider.id,
      model: options.provider.modelId,
      mode: start.mode ?? 'act',
      modeSlug,
      ...contextFields(start.mentioned),
      ...(options.worktree ? { worktree: options.worktree } : {}),
    });
    task.hooks.logPromptHooks(start.mentioned);
    return task;
  }

  /**
   * The session of a task about to be created (its id chosen now, so its SessionStart and
   * UserPromptSubmit hooks get it): pass it to prepareMessage, then `taskId` to create().
   */
  static newSession(options: TaskOptions, start: { mode?: PlanAct } = {}): MessageSession & { readonly sessionId: string } {
    return TaskHooks.newSession(options, start);
  }

  /** This task's session for a message about to be added (prepareMessage): its SessionStart hooks first when they have not run yet. */
  messageSession(): MessageSession {
    return this.hooks.messageSession();
  }

  /** Reopens a task from its log and notes the interruption for the model. */
  static resume(options: TaskOptions, taskId: string): Task {
    const task = new Task(
      TaskLog.open(options.storageDir, taskId, () => options.host.clock.now(), options.redactor),
      options,
    );
    task.log.append({ type: 'task_resumed' });
    return task;
  }

  get id(): string {
    return this.log.taskId;
  }

  /** Plan/Act and the mode in force now. */
  get state(): { mode: PlanAct; modeSlug: string } {
    return currentPlanActAndMode(this.log.events);
  }

  onUpdate(listener: (update: TaskUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a message from the user (e.g. a follow-up after completion); run() again to act on it. */
  addUserMessage(text: string, mentioned?: MentionedContext): void {
    this.hooks.logPromptHooks(mentioned);
    this.log.append({ type: 'user_message', text, ...contextFields(mentioned) });
  }

  /** A queued message goes through the UserPromptSubmit hooks and its mentions like a typed one; a refused one is not sent. */
  private async deliverQueued(text: string): Promise<void> {
    try {
      const { expanded, hookErrors } = await prepareMessage(this.options, text, this.messageSession());
      for (const error of hookErrors) this.options.host.notify('warning', error);
      this.addUserMessage(text, expanded);
    } catch (error) {
      if (!(error instanceof PromptBlockedError)) throw error;
      this.options.host.notify('warning', `${error.message} (not sent: "${text}")`);
    }
  }

  /**
   * Queues a message the user typed while the task works: it is logged as a user message just
   * before the next model request, so the model reads it after the result it is waiting for.
   * A run that ends first leaves it queued; the next run() delivers it.
   */
  queueUserMessage(text: string): void {
    this.queued.push(text);
  }

  /**
   * Sends a message now: it is queued and the answer streaming now is cut off, so the model reads
   * it at once (told its answer was interrupted). While a tool runs it waits for the call's result.
   */
  steer(text: string): void {
    this.queueUserMessage(text);
    this.turnAbort.steer();
  }

  /** Replaces (or, without `text`, removes) a queued message not yet delivered; false when it has been delivered meanwhile. */
  updateQueued(index: number, text?: string): boolean {
    return this.queued.update(index, text);
  }

  /** The queued messages not yet delivered, oldest first. */
  get queuedMessages(): readonly string[] {
    return this.queued.all;
  }

  /** Removes and returns the undelivered queued messages (e.g. to hand them to the next task of a chain). */
  takeQueuedMessages(): string[] {
    return this.queued.takeAll();
  }

  switchMode(mode: PlanAct): void {
    if (this.state.mode !== mode) this.log.append({ type: 'mode_switched', mode });
  }

  /** Switches the mode; throws with the list of modes when the slug is unknown. */
  switchModeSlug(slug: string): void {
    findMode(this.options.modes ?? BUILT_IN_MODES, slug);
    if (this.state.modeSlug !== slug) this.log.append({ type: 'mode_slug_switched', modeSlug: slug });
  }

  /** Stops the running step: cancels the model request, a pending approval and the tool. */
  abort(): void {
    this.abortController.abort(new Error('aborted by user'));
  }

  /**
   * Lets a running call (a command) continue in the background now, as if it had gone quiet; the
   * loop goes on with its "still running" result. False when no such call is executing.
   */
  proceedWhileRunning(callId: string): boolean {
    const controller = this.detachable.get(callId);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /** Stops one running sub-agent of a use_subagents call; the others go on. False when none runs with that id. */
  stopSubagent(taskId: string): boolean {
    const controller = this.detachable.get(subagentStopKey(taskId));
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /**
   * Runs the loop until completion, failure, a limit, or abort. `iterationsUsed`: requests already
   * made by the tasks that handed over to this one (new_task); they count against maxIterations.
   * `costs`: the cost budget this task shares with the tasks it belongs to (a parent's, a chain's);
   * without one, a run with `maxCost` starts its own from what its log already cost.
   */
  async run(budget: RunBudget = {}): Promise<TaskOutcome> {
    if (this.abortController.signal.aborted) this.abortController = new AbortController();
    const signal = this.abortController.signal;
    const { options } = this;
    let stopHookRan = false;
    this.costs = budget.costs ?? costBudgetFor(options.maxCost, this.log.events);
    const limits = new RunLimits(options, budget.iterationsUsed ?? 0, this.costs);

    try {
      await this.hooks.startSession();
      for (;;) {
        const stop =
          (await limits.reached(this.log.events, (reason) => mayGoOnPastLimit(options.host.questions, reason, signal))) ??
          (await checkRepeatedCalls(
            this.log,
            options.maxRepeatedCalls ?? DEFAULT_MAX_REPEATED_CALLS,
            (question) => mayGoOnRepeating(options.host.questions, question, signal),
            budget.handedOverFrom,
          ));
        if (stop !== undefined) return this.fail(stop);
        for (const text of this.takeQueuedMessages()) await this.deliverQueued(text);
        // The prompt lists the MCP servers' tools: a server still connecting gets its timeout, no more.
        await options.waitForTools?.(signal);
        const setup = setupTurn(options, this.log.events);
        this.tellRuleNotes(setup.ruleNotes);
        // Asked per turn: a mode may use another model, and images go only to one that can see them.
        const modelSupportsImages = this.options.modelInfo?.(setup.provider)?.supportsImages === true;
        const environmentDetails = await requestEnvironmentDetails(options, this.log.events, setup);
        // Taken last, with nothing awaited before the request starts: another agent of the tree may have spent the budget meanwhile.
        const reservation = limits.reserveRequest();
        if (!reservation) continue;
        this.log.append({ type: 'request_started', environmentDetails });
        const request = this.turnAbort.begin(signal);
        let turn: ModelTurn;
        try {
          try {
            turn = await requestModelTurn(this.turnContext, setup, modelSupportsImages, request.signal);
          } catch (error) {
            // A steer stops only this answer: the next request carries the user's message.
            if (!signal.aborted && wasSteered(request.signal)) continue;
            throw error;
          } finally {
            request.end();
          }
          logModelResponse(this.log, setup, turn, this.costOf(setup.provider, turn.usage));
        } finally {
          // Its cost is charged (the append above) before its place is given up.
          reservation.release();
        }
        if (turn.tools.length === 0) {
          noteMissingTool(this.log, options.tools, turn.blocks, setup.allowedTools);
          continue;
        }
        // The previous step's checkpoint (or the first one) was taken while the model answered; it
        // must be complete before files change again. Read-only tools go on beside it.
        if (this.checkpoints && turn.tools.some((call) => this.checkpoints?.mayChange(call.name))) await this.checkpoints.settled();
        const outcome = await runToolCalls(
          turn.tools,
          toolCallEnvironment(options, this.log, setup, {
            signal,
            detachable: this.detachable,
            modelSupportsImages,
            ...(this.costs ? { costs: this.costs } : {}),
            onProgress: (callId, text) => this.emitProgress(callId, text),
          }),
          turn.ignoredTools,
        );
        // The last step's checkpoint belongs before the end of the task in the log.
        if (outcome.kind !== 'continue') await this.checkpoints?.settled();
        if (outcome.kind === 'completed' && !stopHookRan && options.hooks?.Stop) {
          // A Stop hook may send the model back to work once per run (exit 2: its reason is the message).
          stopHookRan = true;
          const blocked = await this.hooks.stop(outcome.result);
          if (blocked !== undefined) {
            this.log.append({ type: 'user_message', text: `The task is not finished yet (a Stop hook of the user says): ${blocked}` });
            continue;
          }
        }
        if (outcome.kind === 'completed') {
          // The logged (redacted) result is the one handed back.
          const done = this.log.append({ type: 'task_completed', result: outcome.result, ...(outcome.command ? { command: outcome.command } : {}) });
          return { status: 'completed', result: done.result, ...(done.command ? { command: done.command } : {}) };
        }
        if (outcome.kind === 'new_task') {
          this.log.append({ type: 'new_task_requested', context: outcome.context });
          return { status: 'new_task', context: outcome.context };
        }
      }
    } catch (error) {
      if (signal.aborted || error instanceof ProviderAbortedError) {
        this.log.append({ type: 'task_aborted', reason: 'cancelled by the user' });
        return { status: 'aborted' };
      }
      return this.fail((error as Error).message);
    }
  }

  /** Condenses the history now (the /condense command); the summary replaces older turns. */
  async condense(): Promise<void> {
    await this.context.condense(redactingProvider(setupTurn(this.options, this.log.events).provider, this.options.redactor), this.abortController.signal);
  }

  private tellRuleNotes(notes: readonly string[]): void {
    for (const note of notes) {
      if (this.toldRuleNotes.has(note)) continue;
      this.toldRuleNotes.add(note);
      this.options.host.notify('warning', `Rules: ${note}`);
    }
  }

  /** What a model request needs of this task. */
  private get turnContext(): ModelRequestContext {
    return { log: this.log, options: this.options, context: this.context, emit: (update) => this.emit(update) };
  }

  private costOf(provider: ApiProvider, usage: TokenUsage): number | undefined {
    const info = this.options.modelInfo?.(provider);
    return info ? costOf(usage, info) : undefined;
  }

  private fail(message: string): TaskOutcome {
    this.log.append({ type: 'error', message });
    return { status: 'failed', error: message };
  }

  /** A running tool's output for the UI, with a tail that could start a secret held back (the logged result is complete). */
  private emitProgress(callId: string, text: string): void {
    const shown = this.progress.shown(callId, text);
    if (shown !== undefined) this.emit({ type: 'progress', callId, text: shown });
  }

  private emit(update: TaskUpdate): void {
    for (const listener of this.listeners) listener(update);
  }
}
