import type { ApprovalAnswer, ApprovalPort, ApprovalRequest, QuestionPort } from '../core/ports.js';
import { resolveWorkspacePath } from '../core/workspace/workspace-paths.js';
import type { WorkspaceRoots } from '../core/workspace/workspace-roots.js';
import type { PendingApproval, PendingQuestion } from '../shared/protocol.js';
import { Emitter, type Disposable } from './event-emitter.js';
import type { EditReview } from './panel-ports.js';

interface ApprovalWait {
  readonly pending: PendingApproval;
  readonly resolve: (decision: { readonly approved: boolean; readonly feedback?: string }) => void;
}

interface QuestionWait {
  readonly pending: PendingQuestion;
  readonly resolve: (answer: string) => void;
}

/**
 * The engine's approval and question ports, answered from the panel. An edit's approval also
 * opens its diff editor; the user's changes there come back as `editedContent`.
 */
export class WebviewInteractions implements Disposable {
  private approval: ApprovalWait | undefined;
  private question: QuestionWait | undefined;
  /** The batch (calls of one response) the user approved as a whole. */
  private approvedBatch: string | undefined;
  private readonly changed = new Emitter<void>();
  /** Fires when a question or approval starts or ends waiting. */
  readonly onDidChange = this.changed.event;

  readonly approvals: ApprovalPort = { ask: (request, signal) => this.askApproval(request, signal) };
  readonly questions: QuestionPort = { ask: (question, options, signal) => this.askQuestion(question, options, signal) };

  constructor(
    private readonly diff: EditReview,
    /** The task's workspace folder, against which request paths are resolved. */
    /** The workspace the shown paths are in: its folder, or all its folders. */
    private readonly cwd: () => string | WorkspaceRoots,
    private readonly onDiffError: (message: string) => void = () => {},
  ) {}

  get pendingApproval(): PendingApproval | undefined {
    return this.approval?.pending;
  }

  get pendingQuestion(): PendingQuestion | undefined {
    return this.question?.pending;
  }

  /**
   * The user's decision on the pending tool call; throws when `callId` is not the one waiting.
   * `all` approves the rest of its batch too: the other calls of the same response do not ask.
   */
  answerApproval(callId: string, approved: boolean, feedback?: string, all = false): void {
    const waiting = this.approval;
    if (!waiting || waiting.pending.callId !== callId) {
      throw new Error(waiting ? `The pending approval is for ${waiting.pending.callId}, not ${callId}.` : 'No tool call is waiting for approval.');
    }
    this.approvedBatch = approved && all ? waiting.pending.batch?.id : undefined;
    waiting.resolve({ approved, ...(feedback?.trim() ? { feedback: feedback.trim() } : {}) });
  }

  /** The user's answer to the pending question; throws when none is waiting. */
  answerQuestion(text: string): void {
    if (!this.question) throw new Error('No question is waiting for an answer.');
    this.question.resolve(text);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async askApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    // The user approved the whole batch this call belongs to.
    if (request.batch !== undefined && request.batch.id === this.approvedBatch) return { approved: true };
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
    let decision: { readonly approved: boolean; readonly feedback?: string };
    try {
      decision = await this.wait<{ readonly approved: boolean; readonly feedback?: string }>(
        signal,
        (resolve) => {
          this.approval = { pending: pendingApproval(request), resolve };
        },
        () => (this.approval = undefined),
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

  private askQuestion(question: string, options: readonly string[], signal: AbortSignal): Promise<string> {
    return this.wait<string>(
      signal,
      (resolve) => {
        this.question = { pending: { question, options: [...options] }, resolve };
      },
      () => (this.question = undefined),
    );
  }

  /** Waits for the user (or the abort signal), announcing the start and the end of the wait. */
  private wait<T>(signal: AbortSignal, start: (resolve: (value: T) => void) => void, end: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortError(signal));
        return;
      }
      const onAbort = () => finish(() => reject(abortError(signal)));
      const finish = (settle: () => void) => {
        signal.removeEventListener('abort', onAbort);
        end();
        this.changed.fire();
        settle();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      start((value) => finish(() => resolve(value)));
      this.changed.fire();
    });
  }
}

/** What the panel shows is what the engine logged as shown; the file texts stay with the diff editor. */
function pendingApproval(request: ApprovalRequest): PendingApproval {
  const { proposal: _proposal, ...shown } = request;
  return shown;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
