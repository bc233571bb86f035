import { DEFAULT_CONTEXT_POLICY, contextAction, requestBudget, type ContextLimits, type ContextPolicy } from '../context/context-window.js';
import { SummaryRequestError, summarizeHistory } from '../context/condense-history.js';
import { estimateRequestTokens } from '../context/token-estimate.js';
import { planTruncation } from '../context/truncation-plan.js';
import type { ApiProvider, ProviderMessage, TokenUsage, ToolDefinition, ToolProtocol } from '../providers/types.js';
import { apiProjection } from './api-projection.js';
import type { TaskLog } from './task-log.js';

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
    if (!limits) return messages;
    const fixedText = tooling.tools ? `${systemPrompt}\n${JSON.stringify(tooling.tools)}` : systemPrompt;
    const action = contextAction(estimateRequestTokens(fixedText, messages), limits, this.policy, this.condensedRecently());
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
    return messages;
  }

  /**
   * Asks the model for a summary and logs it as the new start of the history (from a text-only
   * projection: no tools are offered then). The request's tokens and cost are logged with it, or
   * with a `condense_failed` event when the summary could not be used.
   */
  async condense(provider: ApiProvider, signal?: AbortSignal): Promise<void> {
    let result: Awaited<ReturnType<typeof summarizeHistory>>;
    try {
      result = await summarizeHistory(provider, apiProjection(this.log.events), signal);
    } catch (error) {
      if (error instanceof SummaryRequestError) this.log.append({ type: 'condense_failed', error: error.message, ...this.spent(provider, error.usage) });
      throw error;
    }
    this.log.append({ type: 'history_condensed', summary: result.summary, ...this.spent(provider, result.usage) });
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
