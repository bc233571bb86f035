import { checkRepeatedCalls, DEFAULT_MAX_REPEATED_CALLS } from './repeated-calls.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import { costOf } from '../providers/model-cost.js';
import { ProviderAbortedError, type ApiProvider, type TokenUsage } from '../providers/types.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';
import { ContextGuard } from './context-guard.js';
import { redactingProvider } from '../secrets/redacting-provider.js';
import type { RedactingStream } from '../secrets/secret-redactor.js';
import { renderEnvironmentDetails } from './environment-details.js';
import type { ModelTurn } from './model-turn.js';
import { TurnAbort, wasSteered } from './turn-abort.js';
import { RunLimits } from './run-limits.js';
import type { CostBudget } from '../log/cost-budget.js';
import { costBudgetFor } from './cost-limit.js';
import { noteMissingTool } from './missing-tool.js';
import { requestModelTurn, type ModelRequestContext } from './model-request.js';
import { TaskLog, taskEventsFile } from '../log/task-log.js';
import type { TaskOptions, TaskOutcome, TaskUpdate } from './task-types.js';
import type { TaskEvent } from '../log/events.js';
import { runToolCalls, subagentStopKey } from './tool-call-runner.js';
import { currentPlanActAndMode, findMode, setupTurn } from './turn-setup.js';
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from '../modes/built-in-modes.js';
import { TaskCheckpoints } from '../checkpoints/task-checkpoints.js';
import { contextFields, type MentionedContext } from './mentioned-context.js';
import { runHooks } from '../hooks/hooks.js';
import { logHookRuns } from '../hooks/hook-log.js';
import { hookPermissionMode, taskHookSession, type HookSession } from '../hooks/hook-session.js';
import { prepareMessage, PromptBlockedError, type MessageSession } from './prepare-message.js';
import { todoListSection } from '../context/todo-list.js';
import { visibleEvents } from '../log/visible-events.js';

export type { MentionedContext };
export type { TaskOptions, TaskOutcome, TaskUpdate } from './task-types.js';

/** The agent loop of docs/architecture.md. It orchestrates; parsing, tools, prompts and projections live elsewhere. */
export class Task {
  private readonly listeners = new Set<(update: TaskUpdate) => void>();
  private abortController = new AbortController();
  /** The executing tool calls that can be let go on in the background, by call id. */
  private readonly detachable = new Map<string, AbortController>();
  private readonly context: ContextGuard;
  private readonly progressStreams = new Map<string, RedactingStream>();
  /** Messages the user typed while the task worked, not yet delivered to the model. */
  private readonly queued: string[] = [];
  private readonly turnAbort = new TurnAbort();
  private sessionStarted = false;
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
      if (cost !== undefined) this.costs?.charge(cost);
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
    task.logPromptHooks(start.mentioned);
    return task;
  }

  /**
   * The session of a task about to be created (its id chosen now, so its SessionStart and
   * UserPromptSubmit hooks get it): pass it to prepareMessage, then `taskId` to create().
   */
  static newSession(options: TaskOptions, start: { mode?: PlanAct } = {}): MessageSession & { readonly sessionId: string } {
    const taskId = newTaskId();
    const policy = typeof options.policy === 'function' ? options.policy() : options.policy;
    return {
      cwd: options.cwd,
      sessionId: taskId,
      transcriptPath: taskEventsFile(options.storageDir, taskId),
      permissionMode: hookPermissionMode(start.mode ?? 'act', policy),
      startSource: 'startup',
    };
  }

  /** This task's session for a message about to be added (prepareMessage): its SessionStart hooks first when they have not run yet. */
  messageSession(): MessageSession {
    const pending = !this.sessionStarted && this.options.hooks?.SessionStart !== undefined;
    return { ...this.hookSession(), ...(pending ? { startSource: this.log.events.some((e) => e.type === 'task_resumed') ? 'resume' : 'startup' } : {}) };
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
    this.logPromptHooks(mentioned);
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

  /** The hooks that ran on a message, logged with it: the SessionStart ones that ran before it first, then UserPromptSubmit. */
  private logPromptHooks(mentioned: MentionedContext | undefined): void {
    if (mentioned?.sessionStart) {
      this.sessionStarted = true;
      logHookRuns(this.log, 'SessionStart', { runs: mentioned.sessionStart.runs, context: [], errors: [] }, { context: mentioned.sessionStart.context });
    }
    if (mentioned?.hookRuns) logHookRuns(this.log, 'UserPromptSubmit', { runs: mentioned.hookRuns, context: [], errors: [] });
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
    if (index < 0 || index >= this.queued.length) return false;
    if (text === undefined) this.queued.splice(index, 1);
    else this.queued[index] = text;
    return true;
  }

  /** The queued messages not yet delivered, oldest first. */
  get queuedMessages(): readonly string[] {
    return this.queued;
  }

  /** Removes and returns the undelivered queued messages (e.g. to hand them to the next task of a chain). */
  takeQueuedMessages(): string[] {
    return this.queued.splice(0);
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
      await this.startSession();
      for (;;) {
        const stop =
          (await limits.reached(this.log.events, (reason) => this.mayGoOn(reason, signal))) ??
          (await checkRepeatedCalls(this.log, options.maxRepeatedCalls ?? DEFAULT_MAX_REPEATED_CALLS, (question) => this.mayGoOnRepeating(question, signal)));
        if (stop !== undefined) return this.fail(stop);
        for (const text of this.takeQueuedMessages()) await this.deliverQueued(text);
        // The prompt lists the MCP servers' tools: a server still connecting gets its timeout, no more.
        await options.waitForTools?.(signal);
        const setup = setupTurn(options, this.log.events);
        this.tellRuleNotes(setup.ruleNotes);
        // Asked per turn: a mode may use another model, and images go only to one that can see them.
        const modelSupportsImages = this.options.modelInfo?.(setup.provider)?.supportsImages === true;
        const environmentDetails = await this.environmentDetails(setup.mode, setup.activeMode.slug);
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
          const cost = this.costOf(setup.provider, turn.usage);
          this.log.append({
            type: 'model_response',
            text: serializeBlocks(turn.blocks),
            reasoning: turn.reasoning,
            blocks: turn.blocks,
            usage: turn.usage,
            ...(cost === undefined ? {} : { cost }),
            ...(setup.toolProtocol === 'native' && turn.signedReasoning.length > 0 ? { signedReasoning: turn.signedReasoning } : {}),
          });
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
        const policy = typeof options.policy === 'function' ? options.policy() : options.policy;
        const outcome = await runToolCalls(
          turn.tools,
          {
            log: this.log,
            tools: options.tools,
            host: options.host,
            cwd: options.cwd,
            ...(options.workspace ? { workspace: options.workspace } : {}),
            policy,
            permissionMode: hookPermissionMode(setup.mode, policy),
            ignore: options.ignore ?? NOTHING_IGNORED,
            allowedTools: setup.allowedTools,
            activeMode: setup.activeMode,
            ...(setup.activeSkill ? { activeSkill: setup.activeSkill } : {}),
            modelSupportsImages,
            signal,
            detachable: this.detachable,
            ...(options.permissions ? { permissions: options.permissions } : {}),
            ...(options.editScope ? { editScope: options.editScope } : {}),
            ...(options.hooks ? { hooks: options.hooks } : {}),
            ...(this.costs ? { costs: this.costs } : {}),
            onProgress: (callId, text) => this.emitProgress(callId, text),
          },
          turn.ignoredTools,
        );
        // The last step's checkpoint belongs before the end of the task in the log.
        if (outcome.kind !== 'continue') await this.checkpoints?.settled();
        if (outcome.kind === 'completed' && !stopHookRan && options.hooks?.Stop) {
          // A Stop hook may send the model back to work once per run (exit 2: its reason is the message).
          stopHookRan = true;
          const stop = await runHooks(options.hooks, 'Stop', { result: outcome.result }, this.hookSession());
          logHookRuns(this.log, 'Stop', stop);
          for (const error of stop.errors) options.host.notify('warning', error);
          if (stop.blocked !== undefined) {
            this.log.append({ type: 'user_message', text: `The task is not finished yet (a Stop hook of the user says): ${stop.blocked}` });
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

  /**
   * The user's SessionStart hooks, once per Task object (a start, or a resume after a reload):
   * what they print goes to the model with the next request.
   */
  private async startSession(): Promise<void> {
    if (this.sessionStarted || !this.options.hooks?.SessionStart) return;
    this.sessionStarted = true;
    const source = this.log.events.some((e) => e.type === 'task_resumed') ? 'resume' : 'startup';
    const outcome = await runHooks(this.options.hooks, 'SessionStart', { source }, this.hookSession());
    for (const error of outcome.errors) this.options.host.notify('warning', error);
    logHookRuns(this.log, 'SessionStart', outcome, { context: outcome.context.join('\n\n') });
  }

  /** Who the hooks run for: this task, its log, its mode and approval policy. */
  private hookSession(): HookSession {
    const policy = typeof this.options.policy === 'function' ? this.options.policy() : this.options.policy;
    return taskHookSession(this.options.cwd, this.log, hookPermissionMode(this.state.mode, policy));
  }

  /** Condenses the history now (the /condense command); the summary replaces older turns. */
  async condense(): Promise<void> {
    await this.context.condense(redactingProvider(setupTurn(this.options, this.log.events).provider, this.options.redactor), this.abortController.signal);
  }

  /** What a model request needs of this task. */
  private tellRuleNotes(notes: readonly string[]): void {
    for (const note of notes) {
      if (this.toldRuleNotes.has(note)) continue;
      this.toldRuleNotes.add(note);
      this.options.host.notify('warning', `Rules: ${note}`);
    }
  }

  private get turnContext(): ModelRequestContext {
    return { log: this.log, options: this.options, context: this.context, emit: (update) => this.emit(update) };
  }

  private costOf(provider: ApiProvider, usage: TokenUsage): number | undefined {
    const info = this.options.modelInfo?.(provider);
    return info ? costOf(usage, info) : undefined;
  }

  private async environmentDetails(mode: PlanAct, modeSlug: string): Promise<string> {
    const firstRequest = !this.log.events.some((e) => e.type === 'request_started');
    return renderEnvironmentDetails({
      now: this.options.host.clock.now(),
      cwd: this.options.cwd,
      mode: `${mode === 'plan' ? 'PLAN' : 'ACT'} (Plan/Act), mode "${modeSlug}"`,
      extra: [...(this.options.environmentSections?.() ?? []), todoListSection(visibleEvents(this.log.events))].filter((section) => section !== ''),
      ...(firstRequest && this.options.listWorkspace ? { fileListing: await this.options.listWorkspace() } : {}),
    });
  }

  /** Asks the user whether to go on past a limit (another allowance of the same size); no user, no. */
  private async mayGoOn(reason: string, signal: AbortSignal): Promise<boolean> {
    const answer = await this.options.host.questions.ask(
      `${reason.replace(/^Stopped/, 'The task reached a limit:')} Continue with the same allowance again?`,
      ['Continue', 'Stop'],
      signal,
    );
    return answer !== undefined && /^\s*(continue|c|yes|y)\b/i.test(answer);
  }

  /** Asks the user whether the model may go on repeating a call; no user, no. */
  private async mayGoOnRepeating(question: string, signal: AbortSignal): Promise<boolean> {
    const answer = await this.options.host.questions.ask(question, ['Let it go on', 'Stop the task'], signal);
    return answer !== undefined && /^\s*(let it go on|go on|continue|c|yes|y)\b/i.test(answer);
  }

  private fail(message: string): TaskOutcome {
    this.log.append({ type: 'error', message });
    return { status: 'failed', error: message };
  }

  /** A running tool's output for the UI, with a tail that could start a secret held back (the logged result is complete). */
  private emitProgress(callId: string, text: string): void {
    const redactor = this.options.redactor;
    if (!redactor) {
      this.emit({ type: 'progress', callId, text });
      return;
    }
    let stream = this.progressStreams.get(callId);
    if (!stream) {
      stream = redactor.stream();
      this.progressStreams.set(callId, stream);
    }
    const shown = stream.push(text);
    if (shown !== '') this.emit({ type: 'progress', callId, text: shown });
  }

  private emit(update: TaskUpdate): void {
    for (const listener of this.listeners) listener(update);
  }
}

/** What a run counts against: the limits it shares with the tasks before it in a chain and the task that started it. */
interface RunBudget {
  /** Requests made by the tasks that handed over to this one (new_task). */
  readonly iterationsUsed?: number;
  /** The cost budget shared with the rest of the tree (cost-budget.ts). */
  readonly costs?: CostBudget;
}

/** What an event cost that is charged to the budget when logged: this task's own requests (sub-agents charge theirs themselves). */
function chargedCost(event: TaskEvent): number | undefined {
  switch (event.type) {
    case 'model_response':
    case 'history_condensed':
    case 'condense_failed':
      return event.cost;
    default:
      return undefined;
  }
}

/** A sortable, unique task id: time first, then randomness. */
export function newTaskId(now = Date.now()): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${random}`;
}
