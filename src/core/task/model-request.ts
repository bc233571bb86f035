import type { ContextLimits } from '../context/context-window.js';
import { withRetries } from '../providers/retrying-provider.js';
import { ProviderError, type ApiProvider } from '../providers/types.js';
import { redactingProvider } from '../secrets/redacting-provider.js';
import type { ContextGuard } from './context-guard.js';
import { TurnInterruptedError, runModelTurn, type ModelTurn, type TurnDelta } from './model-turn.js';
import { RedactedDeltas } from './redacted-deltas.js';
import type { TaskOptions, TaskUpdate } from './task-types.js';
import type { TaskLog } from '../log/task-log.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import { userStopReason } from './turn-abort.js';
import type { setupTurn } from './turn-setup.js';

/** What one model request needs of its task. */
export interface ModelRequestContext {
  readonly log: TaskLog;
  readonly options: Pick<TaskOptions, 'redactor' | 'retry' | 'tools' | 'modelInfo' | 'contextLimits'>;
  readonly context: ContextGuard;
  emit(update: TaskUpdate): void;
}

type TurnSetup = ReturnType<typeof setupTurn>;

/**
 * One model request. Retries happen in the provider layer (withRetries, the one retry loop):
 * failed requests are retried with backoff, and a stream that breaks mid-response is restarted
 * from the beginning, so nothing half-parsed is executed. The task only records what that loop
 * reports: `response_interrupted` for output that was dropped, `request_retried` for each wait.
 * A "context too long" answer truncates the history and the request is made once more.
 */
export async function requestModelTurn(task: ModelRequestContext, setup: TurnSetup, includeImages: boolean, signal: AbortSignal): Promise<ModelTurn> {
  const toModel = redactingProvider(setup.provider, task.options.redactor);
  try {
    return await streamTurn(task, setup, toModel, includeImages, signal);
  } catch (error) {
    if (signal.aborted || !isContextTooLong(error) || !task.context.truncate('the provider said the context was too long')) throw error;
    return await streamTurn(task, setup, toModel, includeImages, signal);
  }
}

/** The window a request must fit: the configured one, else the model's. */
function contextLimitsOf(options: Pick<TaskOptions, 'modelInfo' | 'contextLimits'>, provider: ApiProvider): ContextLimits | undefined {
  if (options.contextLimits) return options.contextLimits;
  const info = options.modelInfo?.(provider);
  return info ? { contextWindow: info.contextWindow, maxOutputTokens: info.maxOutputTokens } : undefined;
}

/** Streams one turn through the retrying provider, logging its retries and interruptions. */
async function streamTurn(task: ModelRequestContext, setup: TurnSetup, toModel: ApiProvider, includeImages: boolean, signal: AbortSignal): Promise<ModelTurn> {
  const { log, options } = task;
  const redactor = options.redactor;
  const provider = withRetries(toModel, {
    ...options.retry,
    restartMidStream: true,
    // Logged, so the panel shows the retry in the conversation; the log redacts the reason.
    onRetry: ({ attempt, maxRetries, delayMs, error }) => {
      const retried = log.append({ type: 'request_retried', attempt, maxRetries, delayMs, reason: error.message });
      task.emit({ type: 'retry', attempt, maxRetries, delayMs, reason: retried.reason });
    },
  });
  const tools = setup.toolDefinitions;
  const messages = await task.context.prepare(setup.systemPrompt, toModel, contextLimitsOf(options, setup.provider), signal, {
    toolProtocol: setup.toolProtocol,
    includeImages,
    ...(tools ? { tools } : {}),
  });
  const request = { systemPrompt: setup.systemPrompt, messages, signal, ...(tools ? { tools } : {}) };
  let deltas = redactor ? new RedactedDeltas(redactor) : undefined;
  const onDelta = (delta: TurnDelta) => {
    if (!deltas) task.emit({ type: 'delta', delta });
    else for (const shown of deltas.map(delta)) task.emit({ type: 'delta', delta: shown });
  };
  const onInterrupted = (partialText: string, reason: string) => {
    log.append({ type: 'response_interrupted', partialText, error: reason });
    // The restarted response streams from its beginning, with nothing held back from the dropped one.
    deltas = redactor ? new RedactedDeltas(redactor) : undefined;
  };
  try {
    return await runModelTurn(provider, request, options.tools.grammar(), onDelta, onInterrupted);
  } catch (error) {
    if (!(error instanceof TurnInterruptedError)) throw error;
    if (signal.aborted) {
      // Stopped by the user: what the model had said stays in the chat, and the model is told.
      log.append({ type: 'response_interrupted', partialText: error.partialText, error: userStopReason(signal), byUser: true });
      throw error;
    }
    // Broke off and not retried (not retryable, or the restarts are used up): shown as interrupted, never run.
    log.append({ type: 'response_interrupted', partialText: error.partialText, error: error.message });
    throw error.cause;
  }
}

/** Logs a model's complete answer with its usage and cost (unknown without the model's prices). */
export function logModelResponse(log: TaskLog, setup: TurnSetup, turn: ModelTurn, cost: number | undefined): void {
  log.append({
    type: 'model_response',
    text: serializeBlocks(turn.blocks),
    reasoning: turn.reasoning,
    blocks: turn.blocks,
    usage: turn.usage,
    ...(cost === undefined ? {} : { cost }),
    ...(setup.toolProtocol === 'native' && turn.signedReasoning.length > 0 ? { signedReasoning: turn.signedReasoning } : {}),
  });
}

function isContextTooLong(error: unknown): boolean {
  return error instanceof ProviderError && (error as ProviderError & { contextTooLong?: boolean }).contextTooLong === true;
}
