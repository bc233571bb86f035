import { checkElicitationContent } from '../../shared/elicitation-form.js';
import type { McpElicitationAnswer, McpElicitationRequest, McpElicitor } from './mcp-elicitation.js';

/** An answer the form's own check refused; the form stays up. */
export class ElicitationAnswerError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/**
 * The forms waiting for an answer, for a UI that shows them all at once (the panel): `elicit` adds
 * one, `answer` settles it after checking it; a timed-out or withdrawn request leaves the list.
 */
export class McpElicitationQueue {
  private readonly waiting = new Map<string, { readonly request: McpElicitationRequest; settle(answer: McpElicitationAnswer): void }>();
  private readonly listeners = new Set<() => void>();

  /** The elicitor to give the hub. */
  readonly elicit: McpElicitor = (request, signal) =>
    new Promise((resolve) => {
      const done = () => {
        if (!this.waiting.delete(request.id)) return;
        signal.removeEventListener('abort', withdrawn);
        this.changed();
      };
      const withdrawn = () => {
        done();
        resolve({ action: 'cancel' });
      };
      this.waiting.set(request.id, {
        request,
        settle: (answer) => {
          done();
          resolve(answer);
        },
      });
      signal.addEventListener('abort', withdrawn, { once: true });
      this.changed();
    });

  /** The forms waiting now, oldest first. */
  pending(): McpElicitationRequest[] {
    return [...this.waiting.values()].map((entry) => entry.request);
  }

  /** Settles a form; an accepted answer that does not match its schema throws and the form stays up. */
  answer(id: string, answer: McpElicitationAnswer): void {
    const entry = this.waiting.get(id);
    if (!entry) throw new ElicitationAnswerError('That request is no longer waiting for an answer (it was answered, timed out or withdrawn by the server).');
    if (answer.action === 'accept') {
      const check = checkElicitationContent(entry.request.fields, answer.content);
      if (!check.ok) {
        const list = Object.entries(check.errors).map(([field, problem]) => `${field || 'answer'}: ${problem}`);
        throw new ElicitationAnswerError(`The answer does not match the form: ${list.join('; ')}`, check.errors);
      }
      entry.settle({ action: 'accept', content: check.content });
      return;
    }
    entry.settle(answer);
  }

  /** Cancels every waiting form (the window closes). */
  cancelAll(): void {
    for (const entry of [...this.waiting.values()]) entry.settle({ action: 'cancel' });
  }

  /** Called whenever a form arrives or leaves; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
