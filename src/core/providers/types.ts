/** One provider-neutral message of the conversation sent to the model. */
export interface ProviderMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** What a streaming model response yields, whatever the vendor. */
export type ApiStreamChunk =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'usage'; readonly usage: TokenUsage };

/** Token counts reported by the provider for one response. */
export interface TokenUsage {
  /** All prompt tokens, cached ones included, so it measures the context window whatever the vendor. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
}

/** A stream of response chunks; iterate it once. */
export type ApiStream = AsyncIterable<ApiStreamChunk>;

/** The request the engine makes of a provider. */
export interface ApiRequest {
  readonly systemPrompt: string;
  readonly messages: readonly ProviderMessage[];
  readonly signal?: AbortSignal;
}

/** One LLM vendor behind the common streaming interface. */
export interface ApiProvider {
  readonly id: ProviderId;
  readonly modelId: string;
  createMessage(request: ApiRequest): ApiStream;
}

export type ProviderId = 'openai' | 'anthropic' | 'openai-compatible' | 'gemini';

/** How hard a reasoning model should think; only sent to models that support it. */
export interface ReasoningConfig {
  /** OpenAI's reasoning_effort; mapped to a thinking budget for Anthropic and Gemini when no budget is given. */
  readonly effort?: 'low' | 'medium' | 'high';
  /** Anthropic's thinking budget_tokens / Gemini's thinkingBudget; mapped to an effort for OpenAI. */
  readonly budgetTokens?: number;
}

/** Settings needed to build a provider. */
export interface ProviderConfig {
  readonly provider: ProviderId;
  readonly model: string;
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly maxOutputTokens?: number;
  /** Extended thinking / reasoning effort; absent means the vendor's default (usually no visible reasoning). */
  readonly reasoning?: ReasoningConfig;
}

/** A provider failure with a message fit to show the user. */
export class ProviderError extends Error {
  /** The vendor said the prompt does not fit the model's context window: truncate and retry once. */
  readonly contextTooLong: boolean = false;

  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
    /** How long the server asked us to wait before retrying (from `retry-after`), if it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The prompt is longer than the model's context window; `contextTooLong` is always true. */
export class ContextTooLongError extends ProviderError {
  override readonly contextTooLong: boolean = true;

  constructor(message: string, status?: number) {
    super(message, status, false);
    this.name = 'ContextTooLongError';
  }
}

/** The request was cancelled through its AbortSignal; not a failure to report or retry. */
export class ProviderAbortedError extends ProviderError {
  constructor() {
    super('The request was cancelled.');
    this.name = 'ProviderAbortedError';
  }
}
