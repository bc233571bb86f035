import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { findModelInfo } from './model-catalog.js';
import { createOpenAiClient, openAiFetch } from './openai-client.js';
import { openAiSdk } from './provider-sdks.js';
import type { OpenAiClientOptions } from './openai-client.js';
import { addOpenAiToolCallDeltas, toOpenAiMessages, toOpenAiTools } from './openai-messages.js';
import { toProviderError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { reasoningEffort } from './reasoning-params.js';
import type { ReasoningEffort } from './reasoning-params.js';
import { StreamGuard } from './stream-guard.js';
import { wireQuirks, type WireQuirks } from './wire-quirks.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';
import { ProviderAbortedError } from './types.js';
import type { ApiProvider, ApiRequest, ApiStream, ProviderId, TokenUsage, VendorProviderOptions } from './types.js';
import { VendorProvider } from './vendor-provider.js';

export { PLACEHOLDER_API_KEY } from './openai-client.js';

/** How to build an OpenAiProvider. */
interface OpenAiProviderOptions extends OpenAiClientOptions, VendorProviderOptions {}

// Fields openai-compatible servers add to chat deltas and usage; not in the SDK's types.
type CompatDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };
type CompatUsage = NonNullable<ChatCompletionChunk['usage']> & { prompt_cache_hit_tokens?: number };
// Groq reports usage beside the choices of its last chunk.
type CompatChunk = ChatCompletionChunk & { x_groq?: { usage?: CompatUsage } };

/** Streams chat completions from OpenAI, Azure OpenAI or any server speaking its API (OpenRouter, Groq, Ollama, vLLM…). */
export class OpenAiProvider extends VendorProvider implements ApiProvider {
  readonly id: ProviderId;
  private readonly clientOptions: OpenAiClientOptions;
  private readonly maxOutputTokens: number | undefined;
  private readonly reasoningEffort: ReasoningEffort | undefined;
  private readonly errorContext: ProviderErrorContext;
  private readonly quirks: WireQuirks;

  constructor(options: OpenAiProviderOptions) {
    super(options);
    this.id = options.id;
    this.maxOutputTokens = options.maxOutputTokens;
    this.quirks = wireQuirks(options.id);
    this.clientOptions = options;
    this.errorContext = createOpenAiClient(options).errorContext;
    this.reasoningEffort = openAiReasoningEffort(options);
  }

  /**
   * Yields text and reasoning as they arrive, then the native tool calls (complete once the stream
   * ends), then one usage chunk if the server reported usage.
   */
  async *createMessage(request: ApiRequest): ApiStream {
    const { signal } = request;
    const params: ChatCompletionCreateParamsStreaming = {
      model: this.modelId,
      messages: toOpenAiMessages(request.systemPrompt, request.messages),
      stream: true,
      ...(this.quirks.noStreamOptions ? {} : { stream_options: { include_usage: true } }),
    };
    if (request.tools && request.tools.length > 0) params.tools = toOpenAiTools(request.tools);
    if (this.maxOutputTokens !== undefined) {
      // OpenAI's reasoning models reject max_tokens; most compatible servers only know max_tokens.
      if (this.quirks.maxCompletionTokens) params.max_completion_tokens = this.maxOutputTokens;
      else params.max_tokens = this.maxOutputTokens;
    }
    if (this.reasoningEffort && this.quirks.reasoning === 'openrouter') Object.assign(params, { reasoning: { effort: this.reasoningEffort } });
    else if (this.reasoningEffort) params.reasoning_effort = this.reasoningEffort;

    const guard = new StreamGuard(this.idleTimeoutMs, this.errorContext);
    const { client } = createOpenAiClient(this.clientOptions, guard.wrap(openAiFetch));
    let stream: AsyncIterable<ChatCompletionChunk>;
    try {
      stream = await client.chat.completions.create(params, { signal });
    } catch (err) {
      throw this.providerError(err, guard, signal, false);
    }

    let usage: TokenUsage | undefined;
    const toolCalls = new ToolCallAccumulator();
    const toolCallState = { last: -1 };
    try {
      for await (const chunk of stream) {
        const delta = chunk.choices?.[0]?.delta as CompatDelta | undefined;
        const reasoning = delta?.reasoning_content ?? delta?.reasoning;
        if (reasoning) yield { type: 'reasoning', text: reasoning };
        if (delta?.content) yield { type: 'text', text: delta.content };
        if (delta?.tool_calls) addOpenAiToolCallDeltas(toolCalls, delta.tool_calls, toolCallState);
        // Some compatible servers repeat usage on every chunk; the last one is the total.
        const reported = chunk.usage ?? (chunk as CompatChunk).x_groq?.usage;
        if (reported) usage = toTokenUsage(reported);
      }
    } catch (err) {
      throw this.providerError(err, guard, signal, true);
    }
    // The SDK ends the stream quietly when aborted mid-body instead of throwing.
    if (signal?.aborted) throw new ProviderAbortedError();
    if (guard.failure) throw guard.failure;
    yield* toolCalls.takeAll();
    if (usage) yield { type: 'usage', usage };
  }

  private providerError(err: unknown, guard: StreamGuard, signal: AbortSignal | undefined, midStream: boolean) {
    if (guard.failure && !signal?.aborted) return guard.failure;
    const { APIError, APIUserAbortError, APIConnectionError } = openAiSdk();
    return toProviderError(err, { APIError, APIUserAbortError, APIConnectionError }, this.errorContext, signal, midStream);
  }
}

/**
 * The reasoning effort to ask for, or undefined: non-reasoning OpenAI models reject it (an Azure
 * deployment named after its model too), some services have no such setting, and an unknown
 * model gets it because the user asked.
 */
export function openAiReasoningEffort(options: Pick<VendorProviderOptions, 'model' | 'reasoning'> & { readonly id: ProviderId }): ReasoningEffort | undefined {
  if (!options.reasoning || wireQuirks(options.id).reasoning === 'none') return undefined;
  const openAiModel = options.id === 'openai' || options.id === 'azure-openai';
  const supported = !openAiModel || (findModelInfo('openai', options.model)?.supportsReasoning ?? true);
  return supported ? reasoningEffort(options.reasoning) : undefined;
}

function toTokenUsage(usage: CompatUsage): TokenUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    ...(cached ? { cacheReadTokens: cached } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
