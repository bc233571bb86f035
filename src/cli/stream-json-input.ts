import { createInterface } from 'node:readline';
import * as z from '../shared/zod-config.js';
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest, QuestionPort } from '../core/ports.js';

/** One line of `--input stream-json` (the schema is the single source: the type comes from it). */
const streamJsonInputLine = z.discriminatedUnion('type', [
  /** A message for the model, delivered with its next request (queued like one typed at a terminal). */
  z.strictObject({ type: z.literal('message'), text: z.string().check(z.minLength(1)) }),
  /** The answer to an approval; without `callId` it answers the one waiting (or the next one asked). */
  z.strictObject({ type: z.literal('approval'), callId: z.optional(z.string()), approved: z.boolean(), feedback: z.optional(z.string()) }),
  /** The answer to a follow-up question. */
  z.strictObject({ type: z.literal('answer'), text: z.string() }),
]);
type StreamJsonInputLine = z.infer<typeof streamJsonInputLine>;

interface Waiter<T> {
  readonly match: (line: T) => boolean;
  resolve(line: T | undefined): void;
}

type ApprovalLine = Extract<StreamJsonInputLine, { type: 'approval' }>;
type AnswerLine = Extract<StreamJsonInputLine, { type: 'answer' }>;

/**
 * Reads JSON lines from stdin and routes them: messages to the task (`onMessage`), approvals and
 * answers to whoever waits for them. A line that arrives before its question is kept until asked.
 * A line that is not valid is reported (`onProblem`) and skipped; the run goes on. When the input
 * ends, a waiting approval is rejected and a waiting question goes unanswered, as without a user.
 */
export class StreamJsonInput {
  private readonly approvals: ApprovalLine[] = [];
  private readonly answers: AnswerLine[] = [];
  private approvalWaiter: Waiter<ApprovalLine> | undefined;
  private answerWaiter: Waiter<AnswerLine> | undefined;
  private ended = false;
  private readonly reader: ReturnType<typeof createInterface>;
  /** Where message lines go (the running task's queue); messages before it is set wait for it. */
  private messageSink: ((text: string) => void) | undefined;
  private readonly earlyMessages: string[] = [];

  constructor(
    private readonly input: NodeJS.ReadableStream & { destroy?(): void },
    private readonly onProblem: (message: string) => void,
  ) {
    let lineNumber = 0;
    const reader = createInterface({ input, terminal: false });
    this.reader = reader;
    reader.on('line', (raw) => {
      lineNumber++;
      if (raw.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (error) {
        this.onProblem(`input line ${lineNumber} ignored: ${(error as Error).message}`);
        return;
      }
      const parsed = streamJsonInputLine.safeParse(value);
      if (!parsed.success) {
        const why = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'line'}: ${issue.message}`).join('; ');
        this.onProblem(`input line ${lineNumber} ignored: ${why}`);
        return;
      }
      this.route(parsed.data);
    });
    reader.on('close', () => {
      this.ended = true;
      this.approvalWaiter?.resolve(undefined);
      this.answerWaiter?.resolve(undefined);
    });
  }

  set onMessage(sink: (text: string) => void) {
    this.messageSink = sink;
    for (const text of this.earlyMessages.splice(0)) sink(text);
  }

  /** Stops reading (the run is over); nothing waits any more. */
  close(): void {
    this.reader.close();
    this.input.destroy?.();
  }

  /** The approval port: waits for an approval line for this call. */
  readonly approvalPort: ApprovalPort = {
    ask: async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> => {
      const match = (line: ApprovalLine) => line.callId === undefined || line.callId === request.callId;
      const line = await this.wait(this.approvals, match, (waiter) => (this.approvalWaiter = waiter), signal);
      this.approvalWaiter = undefined;
      if (!line) return { approved: false, feedback: `No answer: the input ended before the approval was given.${request.reason ? ` ${request.reason}` : ''}` };
      return line.approved
        ? { approved: true, ...(line.feedback ? { feedback: line.feedback } : {}) }
        : { approved: false, ...(line.feedback ? { feedback: line.feedback } : {}) };
    },
  };

  /** The question port: waits for an answer line. */
  readonly questionPort: QuestionPort = {
    ask: async (_question: string, _options: readonly string[], signal: AbortSignal): Promise<string | undefined> => {
      const line = await this.wait(
        this.answers,
        () => true,
        (waiter) => (this.answerWaiter = waiter),
        signal,
      );
      this.answerWaiter = undefined;
      return line?.text;
    },
  };

  private route(line: StreamJsonInputLine): void {
    if (line.type === 'message') {
      if (this.messageSink) this.messageSink(line.text);
      else this.earlyMessages.push(line.text);
    } else if (line.type === 'approval') this.offer(line, this.approvals, this.approvalWaiter);
    else this.offer(line, this.answers, this.answerWaiter);
  }

  private offer<T>(line: T, queue: T[], waiter: Waiter<T> | undefined): void {
    if (waiter?.match(line)) waiter.resolve(line);
    else queue.push(line);
  }

  private wait<T>(queue: T[], match: (line: T) => boolean, register: (waiter: Waiter<T>) => void, signal: AbortSignal): Promise<T | undefined> {
    const index = queue.findIndex(match);
    if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      register({
        match,
        resolve: (line) => {
          signal.removeEventListener('abort', onAbort);
          resolve(line);
        },
      });
    });
  }
}
