// One ACP session: a Smith task (its id is the session id) run turn by turn through the engine's
// own loop (runTaskChain), its updates sent to the client as they happen. A prompt turn ends when
// the task completes, fails or is cancelled, or when the model asks the user a question: the
// question is the turn's last message, and the next prompt is its answer.
import { readFileSync, statSync } from 'node:fs';
import type { ContentBlock, McpServer, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/ports.js';
import { rememberAllowRules } from '../../core/permissions/remember-allow-rules.js';
import { readGuardOf } from '../../core/permissions/read-rule-guard.js';
import { refusalReason } from '../../core/workspace/read-guard.js';
import { runTaskChain } from '../../core/task/task-chain.js';
import { prepareMessage, type MessageSession } from '../../core/task/prepare-message.js';
import { Task, type MentionedContext, type TaskOutcome } from '../../core/task/task.js';
import { currentPlanActAndMode } from '../../core/task/turn-setup.js';
import type { TaskEvent } from '../../core/log/events.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { stopLeftoverProcesses } from '../leftover-processes.js';
import { acpModeState, parseAcpModeId } from './acp-modes.js';
import { permissionChoice, permissionRequest } from './acp-permission.js';
import { acpPromptMessage, type AcpPromptMessage } from './acp-prompt.js';
import { openAcpEnvironment, type AcpEnvironment, type AcpRun } from './acp-session-setup.js';
import { DEFAULT_MODE_SLUG } from '../../core/modes/built-in-modes.js';
import { AcpUpdateMapper } from './acp-updates.js';
import { questionText } from './acp-tool-calls.js';

/** Largest file whose text is read for an edit's diff. */
const MAX_DIFF_FILE_BYTES = 1024 * 1024;

/** What a session needs of the client: its notifications and its permission requests. */
export interface AcpClientPort {
  update(sessionId: string, update: SessionUpdate): Promise<void>;
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
}

/** A prompt that cannot be sent as it is (the error names what is wrong); answered as invalid params. */
export class AcpPromptError extends Error {}

/** A file's text for a diff: undefined when it is missing, not a regular file, too large or not text. */
function fileText(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > MAX_DIFF_FILE_BYTES) return undefined;
    const text = readFileSync(path, 'utf8');
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export class AcpSession {
  private task: Task | undefined;
  private start: { mode: PlanAct; modeSlug: string };
  private readonly mapper: AcpUpdateMapper;
  /** Notifications go out one after another; a turn's answer waits for them. */
  private sent: Promise<void> = Promise.resolve();
  private offUpdates: (() => void) | undefined;
  private turn: { promise: Promise<StopReason>; resolve(reason: StopReason): void } | undefined;
  private run: Promise<void> | undefined;
  /** Answers the question the task waits on (the next prompt's text). */
  private question: ((answer: string | undefined) => void) | undefined;
  private cancelled = false;

  private constructor(
    readonly id: string,
    private readonly run_: AcpRun,
    private readonly client: AcpClientPort,
    private readonly environment: AcpEnvironment,
    start: { mode: PlanAct; modeSlug: string },
    /** The hooks' view of a task not yet created (its first message runs SessionStart). */
    private readonly firstMessage: MessageSession | undefined,
  ) {
    this.start = start;
    this.mapper = new AcpUpdateMapper(environment.cwd, false, fileText, start);
  }

  /** A new session in `cwd`, in Act and the default mode: its id is the id its task will have. */
  static async open(run: AcpRun, client: AcpClientPort, cwd: string, servers: readonly McpServer[]): Promise<AcpSession> {
    let session: AcpSession | undefined;
    const environment = await openAcpEnvironment(
      run,
      cwd,
      servers,
      AcpSession.ports(() => session),
    );
    const hooks = Task.newSession(environment.environment.options, { mode: 'act' });
    session = new AcpSession(hooks.sessionId, run, client, environment, { mode: 'act', modeSlug: DEFAULT_MODE_SLUG }, hooks);
    return session;
  }

  /** A stored task reopened as a session: its log is replayed to the client, then it resumes. */
  static async load(
    run: AcpRun,
    client: AcpClientPort,
    taskId: string,
    events: readonly TaskEvent[],
    cwd: string,
    servers: readonly McpServer[],
  ): Promise<AcpSession> {
    let session: AcpSession | undefined;
    const environment = await openAcpEnvironment(
      run,
      cwd,
      servers,
      AcpSession.ports(() => session),
    );
    session = new AcpSession(taskId, run, client, environment, currentPlanActAndMode(events), undefined);
    const replay = new AcpUpdateMapper(cwd, true, fileText, session.start);
    for (const event of events) session.sendAll(replay.event(event));
    // A resumed task never runs beside the processes its commands left when Smith was killed.
    await stopLeftoverProcesses(events, run.err, run.style);
    session.follow(Task.resume(environment.environment.options, taskId));
    await session.sent;
    return session;
  }

  /** The approvals and questions of the session's host, reaching the session once it exists. */
  private static ports(session: () => AcpSession | undefined) {
    const live = () => {
      const found = session();
      if (!found) throw new Error('the session is not open yet');
      return found;
    };
    return {
      approvals: { ask: (request: ApprovalRequest, signal: AbortSignal) => live().askPermission(request, signal) },
      questions: { ask: (question: string, options: readonly string[], signal: AbortSignal) => live().askQuestion(question, options, signal) },
    };
  }

  /** The session's modes and the one in force. */
  get modes() {
    return acpModeState(this.environment.environment.modes.modes, this.task?.state ?? this.start);
  }

  /** Runs one prompt turn; resolves with why it stopped. */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn) throw new AcpPromptError('A prompt is still running in this session: cancel it or wait for its answer.');
    const message = this.read(blocks);
    this.cancelled = false;
    const turn = deferred<StopReason>();
    this.turn = turn;
    try {
      if (this.question) this.answer(message);
      else await this.startRun(message);
    } catch (error) {
      this.turn = undefined;
      throw error;
    }
    try {
      return await turn.promise;
    } finally {
      this.turn = undefined;
    }
  }

  /** Stops the turn: the model request, a pending approval or question, and running commands. */
  cancel(): void {
    this.cancelled = true;
    this.task?.abort();
  }

  /** Switches the mode and Plan/Act; throws for an id that names no mode. */
  setMode(id: string): void {
    const chosen = parseAcpModeId(id, this.environment.environment.modes.modes);
    if (!chosen) throw new AcpPromptError(`unknown mode "${id}"; available: ${this.modes.availableModes.map((m) => m.id).join(', ')}`);
    if (this.task) {
      // Logged, so the next request uses them and a loaded session starts in them.
      this.task.switchMode(chosen.mode);
      this.task.switchModeSlug(chosen.modeSlug);
    } else {
      this.start = chosen;
      this.sendAll(this.mapper.switchTo(chosen));
    }
  }

  async dispose(): Promise<void> {
    this.cancel();
    this.question?.(undefined);
    await this.run;
    this.offUpdates?.();
    await this.environment.dispose();
  }

  private read(blocks: readonly ContentBlock[]): AcpPromptMessage {
    const options = this.environment.environment.options;
    const guard = readGuardOf(options.permissions, { cwd: options.cwd, ...(options.workspace ? { workspace: options.workspace } : {}) });
    const message = acpPromptMessage(blocks, this.environment.cwd, (path) => {
      if (options.ignore?.isIgnored(path)) return `excluded by ${options.ignore.source}`;
      const refusal = guard.refusal(path);
      return refusal ? `withheld: ${refusalReason(refusal)}` : undefined;
    });
    if (message.text === '' && message.context === '' && message.images.length === 0) throw new AcpPromptError('The prompt is empty.');
    if (message.images.length > 0 && options.modelInfo?.(options.provider)?.supportsImages !== true) {
      throw new AcpPromptError(`${options.provider.modelId} does not take images as far as Smith knows; start smith acp with --vision if it does.`);
    }
    return message;
  }

  private async startRun(message: AcpPromptMessage): Promise<void> {
    const options = this.environment.environment.options;
    if (message.problems.length > 0) this.sendAll([{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: message.problems.join('\n') } }]);
    let prepared: Awaited<ReturnType<typeof prepareMessage>>;
    try {
      prepared = await prepareMessage(options, message.text, this.task ? this.task.messageSession() : this.firstMessage);
    } catch (error) {
      // A UserPromptSubmit hook refused the message: the user reads why, nothing is sent.
      this.say(`Not sent: ${(error as Error).message}`);
      void this.finishTurn('end_turn');
      return;
    }
    for (const problem of prepared.hookErrors) this.run_.err.write(`${problem}\n`);
    const mentioned = mergeMentioned(prepared.expanded, message);
    if (this.task) this.task.addUserMessage(message.text, mentioned);
    else this.follow(Task.create(options, message.text, { ...this.start, taskId: this.id, mentioned }));
    if (this.cancelled) {
      void this.finishTurn('cancelled');
      return;
    }
    const first = this.task!;
    this.run = runTaskChain(first, options, (next) => this.follow(next)).then(
      ({ outcome }) => this.finishTurn(stopReason(outcome)),
      (error: unknown) => {
        this.say(`Smith stopped: ${(error as Error).message}`);
        return this.finishTurn('end_turn');
      },
    );
  }

  private answer(message: AcpPromptMessage): void {
    const answer = this.question!;
    this.question = undefined;
    answer([message.text, message.context].filter(Boolean).join('\n\n'));
  }

  private follow(task: Task): void {
    this.task = task;
    this.offUpdates?.();
    this.offUpdates = task.onUpdate((update) => this.sendAll(this.mapper.update(update)));
  }

  private async finishTurn(reason: StopReason): Promise<void> {
    await this.sent;
    this.turn?.resolve(reason);
  }

  private say(text: string): void {
    this.sendAll([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }]);
  }

  private sendAll(updates: readonly SessionUpdate[]): void {
    for (const update of updates) {
      this.sent = this.sent.then(
        () => this.client.update(this.id, update),
        () => this.client.update(this.id, update),
      );
    }
    // A failed notification (the client went away) is reported once the chain reaches it, never thrown into the task.
    this.sent = this.sent.catch((error: unknown) => void this.run_.err.write(`smith acp: a session update was not delivered: ${(error as Error).message}\n`));
  }

  private async askPermission(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    // The call's own notification goes first, so the client knows the call it is asked about.
    await this.sent;
    const response = await this.client.requestPermission(permissionRequest(this.id, request, this.environment.cwd), signal);
    if (signal.aborted) throw signal.reason;
    const choice = permissionChoice(response, request);
    if (choice.remember) {
      try {
        const file = rememberAllowRules(choice.remember.rules, choice.remember.scope, { storageDir: this.run_.storageDir, cwd: this.environment.cwd });
        await this.environment.reloadRules();
        this.run_.err.write(`Allowed from now on: ${choice.remember.rules.join(', ')} (in ${file}).\n`);
      } catch (error) {
        // The call itself was approved; only remembering it failed.
        this.say(`Approved once; the rule was not saved: ${(error as Error).message}`);
      }
    }
    return choice.answer;
  }

  /**
   * A question (the model's, or the loop's own: go on past a limit?) is the turn's last message,
   * with its answers as a list; the next prompt answers it.
   */
  private askQuestion(question: string, options: readonly string[], signal: AbortSignal): Promise<string | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const text = questionText(question, options);
      if (text.trim() !== '') this.say(text);
      const onAbort = () => this.question?.(undefined);
      this.question = (answer) => {
        this.question = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void this.finishTurn('end_turn');
    });
  }
}

/** How a run's end reads as ACP's stop reason; a failure's message was sent as the agent's words. */
function stopReason(outcome: TaskOutcome): StopReason {
  return outcome.status === 'aborted' ? 'cancelled' : 'end_turn';
}

/** The mentions of the text (and hook context) with what the client embedded. */
function mergeMentioned(expanded: MentionedContext | undefined, message: AcpPromptMessage): MentionedContext | undefined {
  if (!expanded && message.context === '' && message.images.length === 0 && message.attachments.length === 0) return undefined;
  return {
    ...expanded,
    context: [expanded?.context ?? '', message.context].filter(Boolean).join('\n\n'),
    attachments: [...(expanded?.attachments ?? []), ...message.attachments],
    images: [...(expanded?.images ?? []), ...message.images],
  };
}
