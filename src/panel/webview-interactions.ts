import type { ApprovalAnswer, ApprovalPort, ApprovalRequest, PreviewShown, QuestionPort } from '../core/ports.js';
import { type ApprovalPreview, previewApplicable, summarizePreview } from '../shared/command-preview-facts.js';
import { resolveWorkspacePath } from '../core/workspace/workspace-paths.js';
import type { WorkspaceRoots } from '../core/workspace/workspace-roots.js';
import type { PendingApproval, PendingQuestion } from '../shared/protocol.js';
import { Emitter, type Disposable } from './event-emitter.js';
import type { EditReview } from './panel-ports.js';

/** The user's decision on a waiting approval. */
interface Decision {
  readonly approved: boolean;
  readonly feedback?: string;
  readonly applyPreview?: true;
}

interface ApprovalWait {
  pending: PendingApproval;
  readonly resolve: (decision: Decision) => void;
  /** Runs the command's preview (absent: none is offered). */
  readonly preview?: () => Promise<PreviewShown>;
}

interface QuestionWait {
  readonly pending: PendingQuestion;
  readonly resolve: (answer: string) => void;
}

/** What one task waits on, and the ports its engine asks through. */
interface Channel {
  /** The task asking; a new_task hand-over moves the channel to the task it started. */
  taskId: string | undefined;
  approval?: ApprovalWait;
  question?: QuestionWait;
  /** The batch (calls of one response) the user approved as a whole. */
  approvedBatch?: string;
}

/** The approval and question ports of one task: what the panel wires into that task's host. */
export interface TaskAsks {
  readonly approvals: ApprovalPort;
  readonly questions: QuestionPort;
  /** Names the task that asks through these ports (set once its id is known, moved by a hand-over). */
  bind(taskId: string): void;
  /** Forgets the channel (the task was closed); a wait still under way ends with its abort signal. */
  dispose(): void;
}

/** A wait of one task, as the attention notices and the task list read it. */
export interface TaskWait {
  readonly taskId: string | undefined;
  readonly approval?: PendingApproval;
  readonly question?: PendingQuestion;
}

/**
 * The engine's approval and question ports, answered from the panel. Each task asks through its
 * own channel (`forTask`), so several tasks can wait at once and an answer reaches only the task
 * it names. An edit's approval also opens its diff editor; the user's changes there come back as
 * `editedContent`. `approvals` and `questions` are the ports of a channel for anything that is
 * not a panel task.
 */
export class WebviewInteractions implements Disposable {
  private readonly channels = new Set<Channel>();
  private readonly shared: TaskAsks;
  private readonly changed = new Emitter<string | undefined>();
  /** Fires (with the task's id) when a question or approval starts or ends waiting. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly diff: EditReview,
    /** The workspace the shown paths are in: its folder, or all its folders. */
    private readonly cwd: () => string | WorkspaceRoots,
    private readonly onDiffError: (message: string) => void = () => {},
  ) {
    this.shared = this.forTask();
  }

  get approvals(): ApprovalPort {
    return this.shared.approvals;
  }

  get questions(): QuestionPort {
    return this.shared.questions;
  }

  /** A channel of its own for one task (`taskId` may come later, with `bind`). */
  forTask(taskId?: string): TaskAsks {
    const channel: Channel = { taskId };
    this.channels.add(channel);
    return {
      approvals: { ask: (request, signal) => this.askApproval(channel, request, signal) },
      questions: { ask: (question, options, signal) => this.askQuestion(channel, question, options, signal) },
      bind: (id) => {
        channel.taskId = id;
      },
      dispose: () => this.channels.delete(channel),
    };
  }

  /** Every wait under way, oldest channel first. */
  waits(): TaskWait[] {
    const waits: TaskWait[] = [];
    for (const channel of this.channels) {
      if (!channel.approval && !channel.question) continue;
      waits.push({
        taskId: channel.taskId,
        ...(channel.approval ? { approval: channel.approval.pending } : {}),
        ...(channel.question ? { question: channel.question.pending } : {}),
      });
    }
    return waits;
  }

  /** The first approval waiting, of any task. */
  get pendingApproval(): PendingApproval | undefined {
    return this.approvalOf(undefined);
  }

  /** The first question waiting, of any task. */
  get pendingQuestion(): PendingQuestion | undefined {
    return this.questionOf(undefined);
  }

  /** The approval `taskId` waits for (undefined: the first waiting anywhere). */
  approvalOf(taskId: string | undefined): PendingApproval | undefined {
    return this.find(taskId, (channel) => channel.approval !== undefined)?.approval?.pending;
  }

  /** The question `taskId` waits on (undefined: the first waiting anywhere). */
  questionOf(taskId: string | undefined): PendingQuestion | undefined {
    return this.find(taskId, (channel) => channel.question !== undefined)?.question?.pending;
  }

  /**
   * The user's decision on `taskId`'s pending tool call; throws when `callId` is not the one it
   * waits on. Without a task, the call is looked up among all waiting approvals (refused when two
   * tasks wait on calls of the same id). `all` approves the rest of its batch too: the other calls
   * of the same response do not ask.
   */
  answerApproval(callId: string, approved: boolean, feedback?: string, all = false, taskId?: string, applyPreview = false): void {
    const channel = this.approvalChannel(callId, taskId);
    const waiting = channel.approval!;
    if (applyPreview && (!approved || waiting.pending.preview?.applicable !== true)) {
      throw new Error(
        'There is no preview of this command that Apply could write: preview it first (a preview that does not show everything cannot be applied).',
      );
    }
    channel.approvedBatch = approved && all ? waiting.pending.batch?.id : undefined;
    waiting.resolve({ approved, ...(feedback?.trim() ? { feedback: feedback.trim() } : {}), ...(applyPreview ? { applyPreview: true as const } : {}) });
  }

  /**
   * Runs the preview of the command `taskId`'s approval waits on (docs/command-preview.md); the
   * pending approval shows it running, then its summary. Throws when that call does not wait or
   * offers no preview.
   */
  async previewApproval(callId: string, taskId?: string): Promise<PreviewShown> {
    const channel = this.approvalChannel(callId, taskId);
    const waiting = channel.approval!;
    if (!waiting.preview) throw new Error('This approval offers no preview.');
    if (waiting.pending.preview?.running) throw new Error('A preview of this command is already running.');
    const show = (preview: ApprovalPreview) => {
      if (channel.approval !== waiting) return;
      waiting.pending = { ...waiting.pending, preview };
      this.changed.fire(channel.taskId);
    };
    show({ running: true, applicable: false });
    try {
      const shown = await waiting.preview();
      const files = [...shown.result.created, ...shown.result.changed, ...shown.result.deleted];
      show({
        running: false,
        summary: summarizePreview(shown.result),
        counts: Object.fromEntries(files.map((f) => [f.path, { added: f.added, removed: f.removed }])),
        applicable: previewApplicable(shown.result),
      });
      return shown;
    } catch (error) {
      show({ running: false, applicable: false, error: (error as Error).message });
      throw error;
    }
  }

  /** The user's answer to `taskId`'s pending question (without a task: the only one waiting); throws when none is waiting. */
  answerQuestion(text: string, taskId?: string): void {
    const waiting = [...this.channels].filter((channel) => channel.question && (taskId === undefined || channel.taskId === taskId));
    if (waiting.length === 0) throw new Error(taskId === undefined ? 'No question is waiting for an answer.' : 'That task asks no question now.');
    if (waiting.length > 1) throw new Error('Several tasks ask a question: say which task the answer is for.');
    waiting[0]!.question!.resolve(text);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private find(taskId: string | undefined, waits: (channel: Channel) => boolean): Channel | undefined {
    for (const channel of this.channels) if (waits(channel) && (taskId === undefined || channel.taskId === taskId)) return channel;
    return undefined;
  }

  private approvalChannel(callId: string, taskId: string | undefined): Channel {
    const candidates = [...this.channels].filter((channel) => channel.approval && (taskId === undefined || channel.taskId === taskId));
    const matching = candidates.filter((channel) => channel.approval!.pending.callId === callId);
    if (matching.length === 1) return matching[0]!;
    if (matching.length > 1) throw new Error(`Several tasks wait on a call ${callId}: say which task the answer is for.`);
    if (candidates.length === 1) throw new Error(`The pending approval is for ${candidates[0]!.approval!.pending.callId}, not ${callId}.`);
    throw new Error(
      taskId === undefined || candidates.length > 0 ? 'No tool call is waiting for approval.' : 'No tool call of that task is waiting for approval.',
    );
  }

  private async askApproval(channel: Channel, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    // The user approved the whole batch this call belongs to.
    if (request.batch !== undefined && request.batch.id === channel.approvedBatch) return { approved: true };
    const target = request.proposal && request.path ? resolveWorkspacePath(this.cwd(), request.path).absolute : undefined;
    // The approval is offered at once; the diff editor opens beside it (it takes a second or more),
    // and the answer is applied to the review only after it has opened.
    const presenting =
      target && request.proposal
        ? this.diff.present(target, request.proposal).catch((error: unknown) => {
            // The panel still has the unified diff, so the decision can go on without the editor.
            this.onDiffError(`Could not open the diff editor: ${(error as Error).message}`);
          })
        : Promise.resolve();
    let decision: Decision;
    try {
      decision = await this.wait<Decision>(
        channel,
        signal,
        (resolve) => {
          channel.approval = { pending: pendingApproval(request), resolve, ...(request.preview ? { preview: request.preview } : {}) };
        },
        () => (channel.approval = undefined),
      );
    } catch (error) {
      await presenting;
      if (target) await this.diff.reject(target);
      throw error;
    }
    await presenting;
    if (!target) return decision;
    if (!decision.approved) {
      await this.diff.reject(target);
      return decision;
    }
    const { editedContent } = await this.diff.accept(target);
    return { ...decision, approved: true, ...(editedContent !== undefined ? { editedContent } : {}) };
  }

  private askQuestion(channel: Channel, question: string, options: readonly string[], signal: AbortSignal): Promise<string> {
    return this.wait<string>(
      channel,
      signal,
      (resolve) => {
        channel.question = { pending: { question, options: [...options] }, resolve };
      },
      () => (channel.question = undefined),
    );
  }

  /** Waits for the user (or the abort signal), announcing the start and the end of the wait. */
  private wait<T>(channel: Channel, signal: AbortSignal, start: (resolve: (value: T) => void) => void, end: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortError(signal));
        return;
      }
      const onAbort = () => finish(() => reject(abortError(signal)));
      const finish = (settle: () => void) => {
        signal.removeEventListener('abort', onAbort);
        end();
        this.changed.fire(channel.taskId);
        settle();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      start((value) => finish(() => resolve(value)));
      this.changed.fire(channel.taskId);
    });
  }
}

/** What the panel shows is what the engine logged as shown; the file texts stay with the diff editor. */
function pendingApproval(request: ApprovalRequest): PendingApproval {
  const { proposal: _proposal, preview, ...shown } = request;
  return preview ? { ...shown, preview: { running: false, applicable: false } } : shown;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
