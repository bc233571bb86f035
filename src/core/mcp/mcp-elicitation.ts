import { checkElicitationContent, elicitationFields, type ElicitationField, type ElicitationValue } from '../../shared/elicitation-form.js';

/** A server's `elicitation/create` (form mode), read into fields for whoever answers it. */
export interface McpElicitationRequest {
  /** Unique in this process; answers name it. */
  readonly id: string;
  readonly server: string;
  readonly message: string;
  readonly fields: readonly ElicitationField[];
  /** When Smith stops waiting and cancels the request (ms since the epoch). */
  readonly expiresAt: number;
}

/** What the user did with a form. */
export type McpElicitationAnswer =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, ElicitationValue>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * Puts a request before the user and resolves with their answer. The signal aborts when the request
 * timed out or the server withdrew it (cancelled, disconnected): the answerer then takes its form down.
 */
export type McpElicitor = (request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>;

/** The result sent back to the server (the protocol's ElicitResult). */
type ElicitResult = { action: 'accept'; content: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

/** How long a form waits for an answer by default before it is cancelled. */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 5 * 60_000;

let lastId = 0;

/** What answering one request needs from the hub. */
interface ElicitationContext {
  readonly server: string;
  /** Absent when nobody can answer (no terminal, stream-json, tests): the request is declined. */
  readonly elicitor: McpElicitor | undefined;
  readonly timeoutMs: number;
  /** The server's own signal: it cancelled the request or the connection closed. */
  readonly signal: AbortSignal;
  log(level: string, text: string): void;
}

/**
 * Answers one form-mode elicitation: declined when its schema cannot be shown as a form or nobody
 * can answer; cancelled when the user does not answer within the timeout or the server withdraws it;
 * an accepted answer is checked against the schema again here, so no answerer can send content the
 * server did not ask for (a failing one is cancelled, never sent).
 */
export async function answerElicitation(
  params: { readonly message: string; readonly requestedSchema: unknown },
  context: ElicitationContext,
): Promise<ElicitResult> {
  const fields = elicitationFields(params.requestedSchema);
  if (typeof fields === 'string') {
    context.log('warning', `elicitation declined: ${fields}`);
    return { action: 'decline' };
  }
  if (!context.elicitor) {
    context.log('info', `elicitation declined: nobody can answer it here (${oneLine(params.message)})`);
    return { action: 'decline' };
  }
  const request: McpElicitationRequest = {
    id: `elicitation-${++lastId}`,
    server: context.server,
    message: params.message,
    fields,
    expiresAt: Date.now() + context.timeoutMs,
  };
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error('the form timed out'));
  }, context.timeoutMs);
  const withdraw = () => stop.abort(new Error('the server withdrew the request'));
  if (context.signal.aborted) withdraw();
  else context.signal.addEventListener('abort', withdraw, { once: true });
  try {
    const stopped = new Promise<'stopped'>((resolve) => stop.signal.addEventListener('abort', () => resolve('stopped'), { once: true }));
    const answer = await Promise.race([context.elicitor(request, stop.signal), stopped]);
    if (answer === 'stopped') {
      context.log(
        'info',
        timedOut ? `elicitation cancelled: no answer within ${Math.round(context.timeoutMs / 1000)} s` : 'elicitation withdrawn by the server',
      );
      return { action: 'cancel' };
    }
    if (answer.action !== 'accept') return { action: answer.action };
    const check = checkElicitationContent(fields, answer.content);
    if (!check.ok) {
      context.log('error', `elicitation cancelled: the answer does not match the requested schema (${JSON.stringify(check.errors)})`);
      return { action: 'cancel' };
    }
    return { action: 'accept', content: { ...check.content } as Record<string, ElicitationValue> };
  } catch (error) {
    context.log('error', `elicitation cancelled: ${error instanceof Error ? error.message : String(error)}`);
    return { action: 'cancel' };
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', withdraw);
    if (!stop.signal.aborted) stop.abort(new Error('answered'));
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
