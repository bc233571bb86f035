import { DEFAULT_CONTEXT_POLICY, condenseTrigger, contextAction, requestBudget, type ContextLimits, type ContextPolicy } from '../context/context-window.js';
import { SummaryRequestError, summarizeHistory } from '../context/condense-history.js';
import { estimateRequestTokens, estimateTextTokens } from '../context/token-estimate.js';
import { planTruncation } from '../context/truncation-plan.js';
import { planShortening } from '../context/result-shortening.js';
import type { ApiProvider, ProviderMessage, TokenUsage, ToolDefinition, ToolProtocol } from '../providers/types.js';
import { apiProjection, resultTextsIn } from './api-projection.js';
import type { TaskLog } from '../log/task-log.js';

/** Share of the droppable turns removed per truncation step (Cline drops half). */
const TRUNCATE_SHARE = 0.5;
/** Turns after a summary during which the guard will not ask for another. */
const CONDENSE_COOLDOWN_TURNS = 3;

/**
 * Keeps each request inside the model's context window (every change is an event, so the
 * projections and the UI agree): condenses at the policy's threshold, truncates past the budget.
 */
export class ContextGuard {
  constructor(
    private readonly log: TaskLog,
    private readonly policy: ContextPolicy = DEFAULT_CONTEXT_POLICY,
    /** What a request's usage cost on this provider; undefined when its prices are unknown. */
    private readonly priceOf: (provider: ApiProvider, usage: TokenUsage) => number | undefined = () => undefined,
    /** The model that writes summaries (`smith.condenseProfile`, `--condense-model`); the task's own model when absent. */
    private readonly summarizer?: ApiProvider,
  ) {}

  /**
   * The messages for the next request, after any condensing or truncation it needed. Native tool
   * definitions travel with every request, so they count like the system prompt; images count a
   * fixed estimate each.
   */
  async prepare(
    systemPrompt: string,
    provider: ApiProvider,
    limits: ContextLimits | undefined,
    signal: AbortSignal,
    tooling: { readonly toolProtocol?: ToolProtocol; readonly tools?: readonly ToolDefinition[]; readonly includeImages?: boolean } = {},
  ): Promise<ProviderMessage[]> {
    const options = { ...(tooling.toolProtocol ? { toolProtocol: tooling.toolProtocol } : {}), ...(tooling.includeImages ? { includeImages: true } : {}) };
    const project = () => apiProjection(this.log.events, options);
    let messages = project();
    if (!limits) {
      this.measure(systemPrompt, tooling.tools, messages, undefined);
      return messages;
    }
    const fixedText = tooling.tools ? `${systemPrompt}\n${JSON.stringify(tooling.tools)}` : systemPrompt;
    let action = contextAction(estimateRequestTokens(fixedText, messages), limits, this.policy, this.condensedRecently());
    // Shortening large old results costs no request and keeps the recent detail: tried first.
    if (action !== 'none' && this.shortenOldResults()) {
      messages = project();
      action = contextAction(estimateRequestTokens(fixedText, messages), limits, this.policy, this.condensedRecently());
    }
    if (action === 'condense') {
      try {
        await this.condense(provider, signal);
        messages = project();
      } catch (error) {
        if (signal.aborted) throw error;
        // A failed summary is not fatal: truncation below still makes room.
      }
    }
    const budget = requestBudget(limits);
    while (estimateRequestTokens(fixedText, messages) > budget && this.truncate('the request would exceed the context window')) {
      messages = project();
    }
    this.measure(systemPrompt, tooling.tools, messages, limits);
    return messages;
  }

  /** Logs what the request holds (for the context bar): system prompt, tool definitions, conversation and its tool results. */
  private measure(
    systemPrompt: string,
    tools: readonly ToolDefinition[] | undefined,
    messages: readonly ProviderMessage[],
    limits: ContextLimits | undefined,
  ): void {
    const system = estimateTextTokens(systemPrompt);
    const toolTokens = tools ? estimateTextTokens(JSON.stringify(tools)) : 0;
    const conversation = estimateRequestTokens('', messages);
    this.log.append({
      type: 'context_measured',
      tokens: system + toolTokens + conversation,
      ...(limits ? { window: limits.contextWindow } : {}),
      system,
      tools: toolTokens,
      conversation,
      results: Math.min(conversation, toolResultTokens(messages)),
      // The trigger as a share of this window, whichever setting set it (the context bar draws it).
      condenseAt: limits ? Math.min(1, (condenseTrigger(limits, this.policy) ?? 0) / limits.contextWindow) : this.policy.autoCondenseThreshold,
    });
  }

  /**
   * Asks the model for a summary and logs it as the new start of the history (from a text-only
   * projection: no tools are offered then). The request's tokens and cost are logged with it, or
   * with a `condense_failed` event when the summary could not be used.
   */
  async condense(taskProvider: ApiProvider, signal?: AbortSignal): Promise<void> {
    const provider = this.summarizer ?? taskProvider;
    let result: Awaited<ReturnType<typeof summarizeHistory>>;
    try {
      result = await summarizeHistory(provider, apiProjection(this.log.events), signal);
    } catch (error) {
      if (error instanceof SummaryRequestError) this.log.append({ type: 'condense_failed', error: error.message, ...this.spent(provider, error.usage) });
      throw error;
    }
    this.log.append({ type: 'history_condensed', summary: result.summary, model: `${provider.id}/${provider.modelId}`, ...this.spent(provider, result.usage) });
  }

  /** Shortens the large tool results older than the last few turns; false when there were none. */
  private shortenOldResults(): boolean {
    const plan = planShortening(this.log.events);
    if (!plan) return false;
    this.log.append({ type: 'tool_results_shortened', ...plan });
    return true;
  }

  private spent(provider: ApiProvider, usage: TokenUsage | undefined): { usage?: TokenUsage; cost?: number } {
    if (!usage) return {};
    const cost = this.priceOf(provider, usage);
    return { usage, ...(cost === undefined ? {} : { cost }) };
  }

  /** Drops older turns; false when nothing is left to drop. */
  truncate(reason: string): boolean {
    const range = planTruncation(this.log.events, TRUNCATE_SHARE);
    if (!range) return false;
    this.log.append({ type: 'history_truncated', ...range, reason });
    return true;
  }

  /** True within a few turns of the last summary, so a still-large context truncates instead of condensing again and again. */
  private condensedRecently(): boolean {
    let responses = 0;
    for (let i = this.log.events.length - 1; i >= 0 && responses < CONDENSE_COOLDOWN_TURNS; i--) {
      const type = this.log.events[i]!.type;
      if (type === 'history_condensed') return true;
      if (type === 'model_response') responses++;
    }
    return false;
  }
}

/** Tokens of the tool results in the messages: native `tool_result` parts, and the results the XML protocol writes into the user's text. */
function toolResultTokens(messages: readonly ProviderMessage[]): number {
  let tokens = 0;
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const parts = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const part of parts) {
      if (part.type === 'tool_result') tokens += estimateTextTokens(part.content);
      else if (part.type === 'text') for (const result of resultTextsIn(part.text)) tokens += estimateTextTokens(result);
    }
  }
  return tokens;
}
