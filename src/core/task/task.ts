import type { AssistantBlock } from '../parse/types.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import type { Host } from '../ports.js';
import type { ModelInfo } from '../providers/model-catalog.js';
import { costOf } from '../providers/model-cost.js';
import { withRetries, type RetryOptions } from '../providers/retrying-provider.js';
import { ProviderAbortedError, ProviderError, type ApiProvider, type TokenUsage } from '../providers/types.js';
import type { Mode } from '../skills/skill.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { NOTHING_IGNORED, type IgnorePolicy } from '../workspace/ignore-policy.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { ContextLimits, ContextPolicy } from '../context/context-window.js';
import { ContextGuard } from './context-guard.js';
import { RedactedDeltas } from './redacted-deltas.js';
import { redactingProvider } from '../secrets/redacting-provider.js';
import type { RedactingStream, SecretRedactor } from '../secrets/secret-redactor.js';
import type { AutoApprovePolicy } from './approval-policy.js';
import { renderEnvironmentDetails } from './environment-details.js';
import type { TaskEvent } from './events.js';
import { TurnInterruptedError, runModelTurn, type ModelTurn, type TurnDelta } from './model-turn.js';
import { TurnAbort, userStopReason, wasSteered } from './turn-abort.js';
import { loopCounters } from './loop-counters.js';
import { usageTotals } from './usage-totals.js';
import { TaskLog } from './task-log.js';
import { runToolCalls, subagentStopKey } from './tool-call-runner.js';
import { currentModeAndSkill, findSkill, setupTurn, type TurnInputs } from './turn-setup.js';
import { BUILT_IN_SKILLS, DEFAULT_SKILL_SLUG } from '../skills/built-in-skills.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { TaskCheckpoints } from '../checkpoints/task-checkpoints.js';
import type { ExpandedMessage } from '../context/mentions.js';
import { contextFields, type MentionedContext } from './message-context.js';

export type { MentionedContext };
import type { PermissionRule } from '../permissions/permission-rules.js';
import { runHooks, type HookSettings } from '../hooks/hooks.js';
import { logHookRuns } from '../hooks/hook-log.js';
import { prepareMessage, PromptBlockedError } from '../context/prepare-message.js';
import { todoListSection } from '../context/todo-list.js';
import { visibleEvents } from './visible-events.js';

/** Everything a task needs from its host application. */
export interface TaskOptions extends TurnInputs {
  readonly storageDir: string;
  readonly host: Host;
  readonly tools: ToolRegistry;
  /** A function is read before each tool call, so a change of the user's settings applies at once. */
  readonly policy: AutoApprovePolicy | (() => AutoApprovePolicy);
  readonly maxIterations: number;
  /** US dollars a run may cost before Smith stops and asks (needs the model's prices). */
  readonly maxCost?: number;
  readonly maxConsecutiveMistakes?: number;
  /** The workspace's .smithignore rules (default: nothing ignored). */
  readonly ignore?: IgnorePolicy;
  /** All folders of a multi-root workspace, `cwd` the primary one (absent: `cwd` alone). */
  readonly workspace?: WorkspaceRoots;
  /** A capped listing of the workspace for the first request. */
  listWorkspace?(): Promise<string>;
  /** Extra environment-detail sections for each request (visible files, running commands). */
  environmentSections?(): readonly string[];
  /** The model's window (default: from modelInfo); without either, no condensing or truncation happens. */
  readonly contextLimits?: ContextLimits;
  /** What is known of a provider's model: window, output limit, prices. Undefined when unknown. */
  modelInfo?(provider: ApiProvider): ModelInfo | undefined;
  /** How failed requests are retried (default: 3 retries, exponential backoff from 1 s). */
  readonly retry?: Omit<RetryOptions, 'onRetry' | 'restartMidStream'>;
  readonly contextPolicy?: ContextPolicy;
  /** Sees every appended event (e.g. to track edited files). */
  onEvent?(event: TaskEvent): void;
  /** The user's secrets, kept out of the log, the model's requests and the UI's streamed output. */
  readonly redactor?: SecretRedactor;
  /** The user's permission rules: deny, ask and allow by tool, command and path (docs/permissions.md); a function is read before each call. */
  readonly permissions?: readonly PermissionRule[] | (() => readonly PermissionRule[]);
  /** The user's hooks (docs/permissions.md#hooks). */
  readonly hooks?: HookSettings;
  /** The workspace's checkpoint store; without one, no checkpoints are taken. */
  readonly checkpoints?: CheckpointStore;
  /** Expands the @-mentions of a message queued while the task worked, when it is delivered. */
  expandMentions?(text: string): Promise<ExpandedMessage>;
}


/** How a run of the loop ended. */
export type TaskOutcome =
  | { readonly status: 'completed'; readonly result: string; readonly command?: string }
  | { readonly status: 'new_task'; readonly context: string }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'aborted' };

/** Transient updates for a UI: appended events plus streaming output that is never logged. */
export type TaskUpdate =
  | { readonly type: 'event'; readonly event: TaskEvent }
  | { readonly type: 'delta'; readonly delta: TurnDelta }
  | { readonly type: 'progress'; readonly callId: string; readonly text: string }
  /** A failed request will be retried after a wait the UI shows ("retrying in 4 s, attempt 2/3"). */
  | { readonly type: 'retry'; readonly attempt: number; readonly maxRetries: number; readonly delayMs: number; readonly reason: string };

const DEFAULT_MAX_MISTAKES = 3;

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
  private readonly checkpoints: TaskCheckpoints | undefined;

  private constructor(
    readonly log: TaskLog,
    private readonly options: TaskOptions,
  ) {
    this.context = new ContextGuard(log, options.contextPolicy, (provider, usage) => this.costOf(provider, usage));
    this.checkpoints = options.checkpoints
      ? new TaskCheckpoints(options.checkpoints, log, (tool) => options.tools.get(tool)?.spec.group, (message) => options.host.notify('warning', message))
      : undefined;
    log.onAppend((event) => {
      options.onEvent?.(event);
      this.emit({ type: 'event', event });
    });
  }

  /** Starts a new task and logs it; call run() to work on it. */
  static create(options: TaskOptions, taskText: string, start: { mode?: Mode; skill?: string; taskId?: string; mentioned?: MentionedContext } = {}): Task {
    const taskId = start.taskId ?? newTaskId();
    const skill = findSkill(options.skills ?? BUILT_IN_SKILLS, start.skill ?? DEFAULT_SKILL_SLUG).slug;
    const task = new Task(TaskLog.create(options.storageDir, taskId, () => options.host.clock.now(), options.redactor), options);
    task.log.append({
      type: 'task_started',
      taskId,
      task: taskText,
      cwd: options.cwd,
      provider: options.provider.id,
      model: options.provider.modelId,
      mode: start.mode ?? 'act',
      skill,
      ...contextFields(start.mentioned),
    });
    task.logPromptHooks(start.mentioned);
    return task;
  }

  /** Reopens a task from its log and notes the interruption for the model. */
  static resume(options: TaskOptions, taskId: string): Task {
    const task = new Task(TaskLog.open(options.storageDir, taskId, () => options.host.clock.now(), options.redactor), options);
    task.log.append({ type: 'task_resumed' });
    return task;
  }

  get id(): string {
    return this.log.taskId;
  }

  /** The mode and skill in force now. */
  get state(): { mode: Mode; skill: string } {
    return currentModeAndSkill(this.log.events);
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
      const { expanded, hookErrors } = await prepareMessage(this.options, text);
      for (const error of hookErrors) this.options.host.notify('warning', error);
      this.addUserMessage(text, expanded);
    } catch (error) {
      if (!(error instanceof PromptBlockedError)) throw error;
      this.options.host.notify('warning', `${error.message} (not sent: "${text}")`);
    }
  }

  /** The UserPromptSubmit hooks that ran on a message, logged with it. */
  private logPromptHooks(mentioned: MentionedContext | undefined): void {
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

  switchMode(mode: Mode): void {
    if (this.state.mode !== mode) this.log.append({ type: 'mode_switched', mode });
  }

  /** Switches skill; throws with the list of skills when the slug is unknown. */
  switchSkill(slug: string): void {
    findSkill(this.options.skills ?? BUILT_IN_SKILLS, slug);
    if (this.state.skill !== slug) this.log.append({ type: 'skill_switched', skill: slug });
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
   */
  async run(budget: { readonly iterationsUsed?: number } = {}): Promise<TaskOutcome> {
    if (this.abortController.signal.aborted) this.abortController = new AbortController();
    const signal = this.abortController.signal;
    const { options } = this;
    const maxMistakes = options.maxConsecutiveMistakes ?? DEFAULT_MAX_MISTAKES;
    let stopHookRan = false;
    // The limits of this run; the user may raise them when one is reached.
    let maxRequests = options.maxIterations;
    let maxCost = options.maxCost;

    try {
      await this.startSession();
      for (;;) {
        // Read from the log, so a resumed task goes on counting where it stopped.
        const counted = loopCounters(this.log.events);
        if ((budget.iterationsUsed ?? 0) + counted.requests >= maxRequests) {
          const stop = `Stopped after ${maxRequests} iterations (the iteration limit) before the task was completed.`;
          if (!(await this.mayGoOn(stop, signal))) return this.fail(stop);
          maxRequests += options.maxIterations;
        }
        const spent = usageTotals(this.log.events).cost ?? 0;
        if (maxCost !== undefined && spent >= maxCost) {
          const stop = `Stopped at $${spent.toFixed(4)}, over the cost limit of $${maxCost.toFixed(2)}, before the task was completed.`;
          if (!(await this.mayGoOn(stop, signal))) return this.fail(stop);
          maxCost += options.maxCost ?? 0;
        }
        if (counted.consecutiveMistakes >= maxMistakes) {
          return this.fail(`Stopped after ${counted.consecutiveMistakes} consecutive mistakes by the model (invalid or failed tool calls). Try a more capable model or give more guidance.`);
        }
        for (const text of this.takeQueuedMessages()) await this.deliverQueued(text);
        const setup = setupTurn(options, this.log.events);
        // Asked per turn: a mode may use another model, and images go only to one that can see them.
        const modelSupportsImages = this.options.modelInfo?.(setup.provider)?.supportsImages === true;
        this.log.append({ type: 'request_started', environmentDetails: await this.environmentDetails(setup.mode, setup.skill.slug) });
        const request = this.turnAbort.begin(signal);
        let turn: ModelTurn;
        try {
          turn = await this.requestTurn(setup, modelSupportsImages, request.signal);
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
        if (turn.tools.length === 0) {
          this.noteMissingTool(turn.blocks, setup.allowedTools);
          continue;
        }
        // The previous step's checkpoint was taken while the model answered; it must be complete before files change again.
        await this.checkpoints?.settled();
        const outcome = await runToolCalls(
          turn.tools,
          {
            log: this.log,
            tools: options.tools,
            host: options.host,
            cwd: options.cwd,
            ...(options.workspace ? { workspace: options.workspace } : {}),
            policy: typeof options.policy === 'function' ? options.policy() : options.policy,
            ignore: options.ignore ?? NOTHING_IGNORED,
            allowedTools: setup.allowedTools,
            skill: setup.skill,
            modelSupportsImages,
            signal,
            detachable: this.detachable,
            ...(options.permissions ? { permissions: options.permissions } : {}),
            ...(options.hooks ? { hooks: options.hooks } : {}),
            onProgress: (callId, text) => this.emitProgress(callId, text),
          },
          turn.ignoredTools,
        );
        // The last step's checkpoint belongs before the end of the task in the log.
        if (outcome.kind !== 'continue') await this.checkpoints?.settled();
        if (outcome.kind === 'completed' && !stopHookRan && options.hooks?.Stop) {
          // A Stop hook may send the model back to work once per run (exit 2: its reason is the message).
          stopHookRan = true;
          const stop = await runHooks(options.hooks, 'Stop', { task_id: this.id, result: outcome.result }, options.cwd);
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
    const outcome = await runHooks(this.options.hooks, 'SessionStart', { task_id: this.id, source }, this.options.cwd);
    for (const error of outcome.errors) this.options.host.notify('warning', error);
    logHookRuns(this.log, 'SessionStart', outcome, { context: outcome.context.join('\n\n') });
  }

  /** Condenses the history now (the /condense command); the summary replaces older turns. */
  async condense(): Promise<void> {
    await this.context.condense(redactingProvider(setupTurn(this.options, this.log.events).provider, this.options.redactor), this.abortController.signal);
  }

  /**
   * One model request. Retries happen in the provider layer (withRetries, the one retry loop):
   * failed requests are retried with backoff, and a stream that breaks mid-response is restarted
   * from the beginning, so nothing half-parsed is executed. The task only records what that loop
   * reports: `response_interrupted` for output that was dropped, `request_retried` for each wait.
   * A "context too long" answer truncates the history and the request is made once more.
   */
  private async requestTurn(setup: ReturnType<typeof setupTurn>, includeImages: boolean, signal: AbortSignal): Promise<ModelTurn> {
    const toModel = redactingProvider(setup.provider, this.options.redactor);
    try {
      return await this.streamTurn(setup, toModel, includeImages, signal);
    } catch (error) {
      if (signal.aborted || !isContextTooLong(error) || !this.context.truncate('the provider said the context was too long')) throw error;
      return await this.streamTurn(setup, toModel, includeImages, signal);
    }
  }

  /** Streams one turn through the retrying provider, logging its retries and interruptions. */
  private async streamTurn(setup: ReturnType<typeof setupTurn>, toModel: ApiProvider, includeImages: boolean, signal: AbortSignal): Promise<ModelTurn> {
    const redactor = this.options.redactor;
    const provider = withRetries(toModel, {
      ...this.options.retry,
      restartMidStream: true,
      // Logged, so the panel shows the retry in the conversation; the log redacts the reason.
      onRetry: ({ attempt, maxRetries, delayMs, error }) => {
        const retried = this.log.append({ type: 'request_retried', attempt, maxRetries, delayMs, reason: error.message });
        this.emit({ type: 'retry', attempt, maxRetries, delayMs, reason: retried.reason });
      },
    });
    const tools = setup.toolDefinitions;
    const messages = await this.context.prepare(setup.systemPrompt, toModel, this.contextLimits(setup.provider), signal, { toolProtocol: setup.toolProtocol, includeImages, ...(tools ? { tools } : {}) });
    const request = { systemPrompt: setup.systemPrompt, messages, signal, ...(tools ? { tools } : {}) };
    let deltas = redactor ? new RedactedDeltas(redactor) : undefined;
    const onDelta = (delta: TurnDelta) => {
      const shown = deltas ? deltas.map(delta) : delta;
      if (shown) this.emit({ type: 'delta', delta: shown });
    };
    const onInterrupted = (partialText: string, reason: string) => {
      this.log.append({ type: 'response_interrupted', partialText, error: reason });
      // The restarted response streams from its beginning, with nothing held back from the dropped one.
      deltas = redactor ? new RedactedDeltas(redactor) : undefined;
    };
    try {
      return await runModelTurn(provider, request, this.options.tools.grammar(), onDelta, onInterrupted);
    } catch (error) {
      if (!(error instanceof TurnInterruptedError)) throw error;
      if (signal.aborted) {
        // Stopped by the user: what the model had said stays in the chat, and the model is told.
        this.log.append({ type: 'response_interrupted', partialText: error.partialText, error: userStopReason(signal), byUser: true });
        throw error;
      }
      // Broke off and not retried (not retryable, or the restarts are used up): shown as interrupted, never run.
      this.log.append({ type: 'response_interrupted', partialText: error.partialText, error: error.message });
      throw error.cause;
    }
  }

  private contextLimits(provider: ApiProvider): ContextLimits | undefined {
    if (this.options.contextLimits) return this.options.contextLimits;
    const info = this.options.modelInfo?.(provider);
    return info ? { contextWindow: info.contextWindow, maxOutputTokens: info.maxOutputTokens } : undefined;
  }

  private costOf(provider: ApiProvider, usage: TokenUsage): number | undefined {
    const info = this.options.modelInfo?.(provider);
    return info ? costOf(usage, info) : undefined;
  }

  private async environmentDetails(mode: Mode, skill: string): Promise<string> {
    const firstRequest = !this.log.events.some((e) => e.type === 'request_started');
    return renderEnvironmentDetails({
      now: this.options.host.clock.now(),
      cwd: this.options.cwd,
      mode: `${mode === 'plan' ? 'PLAN' : 'ACT'} mode, skill "${skill}"`,
      extra: [...(this.options.environmentSections?.() ?? []), todoListSection(visibleEvents(this.log.events))].filter((section) => section !== ''),
      ...(firstRequest && this.options.listWorkspace ? { fileListing: await this.options.listWorkspace() } : {}),
    });
  }

  /** Asks the user whether to go on past a limit (another allowance of the same size); no user, no. */
  private async mayGoOn(reason: string, signal: AbortSignal): Promise<boolean> {
    const answer = await this.options.host.questions.ask(`${reason.replace(/^Stopped/, 'The task reached a limit:')} Continue with the same allowance again?`, ['Continue', 'Stop'], signal);
    return answer !== undefined && /^\s*(continue|c|yes|y)\b/i.test(answer);
  }

  /** Tells the model it used no tool, naming a tag that looked like a tool but is not one. */
  private noteMissingTool(blocks: readonly AssistantBlock[], allowedTools: ReadonlySet<string>): void {
    const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
    const unknown = [...text.matchAll(/<([a-z][a-z0-9]*(?:_[a-z0-9]+)+)>/g)]
      .map((m) => m[1]!)
      .find((name) => !this.options.tools.get(name));
    if (!unknown) {
      this.log.append({ type: 'no_tool_used' });
      return;
    }
    const available = [...allowedTools].join(', ');
    this.log.append({
      type: 'tool_error',
      callId: `call-${this.log.events.length}`,
      tool: unknown,
      error: `"${unknown}" is not a tool. Use one of: ${available}.`,
      mistake: true,
    });
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

function isContextTooLong(error: unknown): boolean {
  return error instanceof ProviderError && (error as ProviderError & { contextTooLong?: boolean }).contextTooLong === true;
}

/** A sortable, unique task id: time first, then randomness. */
export function newTaskId(now = Date.now()): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${random}`;
}
