import type { ResponseCreateParamsStreaming, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import { findModelInfo } from './model-catalog.js';
import { createOpenAiClient, openAiFetch } from './openai-client.js';
import type { OpenAiClientOptions } from './openai-client.js';
import { openAiReasoningEffort } from './openai-provider.js';
import { toResponsesInput, toResponsesTools } from './openai-responses-input.js';
import { midStreamErrorEvent, toProviderError, truncatedStreamError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { openAiSdk } from './provider-sdks.js';
import type { ReasoningEffort } from './reasoning-params.js';
import { StreamGuard } from './stream-guard.js';
import { syntheticToolCallId, ToolCallAccumulator } from './tool-call-accumulator.js';
import { ProviderAbortedError, ProviderError } from './types.js';
import type { ApiProvider, ApiRequest, ApiStream, ApiStreamChunk, ProviderId, TokenUsage, VendorProviderOptions } from './types.js';
import { VendorProvider } from './vendor-provider.js';

/** How to build an OpenAiResponsesProvider. */
interface OpenAiResponsesProviderOptions extends OpenAiClientOptions, VendorProviderOptions {}

// Failure codes of `response.failed` and `error` events that are worth another attempt.
const RETRYABLE_FAILURE_CODES = new Set(['server_error', 'rate_limit_exceeded', 'internal_error', 'server_is_overloaded', 'slow_down']);

/**
 * Streams responses through OpenAI's Responses API (`POST /responses`), from OpenAI, Azure OpenAI
 * (its v1 API) or a compatible server. Nothing is kept at the vendor (`store: false`): the
 * reasoning items come back encrypted and are sent again with the calls they led to.
 */
export class OpenAiResponsesProvider extends VendorProvider implements ApiProvider {
  readonly id: ProviderId;
  private readonly clientOptions: OpenAiClientOptions;
  private readonly maxOutputTokens: number | undefined;
  private readonly reasoningEffort: ReasoningEffort | undefined;
  /** Who its reasoning items come from: the provider and model (an Azure deployment), as `provider:model`. */
  private readonly issuer: string;
  /** Ask for the encrypted reasoning, to send back: with an effort set, or for a model the catalogue knows reasons anyway. */
  private readonly carryReasoning: boolean;
  private readonly errorContext: ProviderErrorContext;

  constructor(options: OpenAiResponsesProviderOptions) {
    super(options);
    this.id = options.id;
    this.maxOutputTokens = options.maxOutputTokens;
    this.clientOptions = { ...options, api: 'responses' };
    this.errorContext = createOpenAiClient(this.clientOptions).errorContext;
    this.reasoningEffort = openAiReasoningEffort(options);
    this.issuer = `${options.id}:${options.model}`;
    const openAiModel = options.id === 'openai' || options.id === 'azure-openai';
    this.carryReasoning = this.reasoningEffort !== undefined || (openAiModel && findModelInfo('openai', options.model)?.supportsReasoning === true);
  }

  /**
   * Yields text and reasoning summaries as they arrive, each function call and each encrypted
   * reasoning item when its output item is done (in the order the model produced them), then one
   * usage chunk from `response.completed`.
   */
  async *createMessage(request: ApiRequest): ApiStream {
    const { signal } = request;
    const params: ResponseCreateParamsStreaming = {
      model: this.modelId,
      input: toResponsesInput(request.messages, this.issuer),
      stream: true,
      // Nothing of the conversation is kept at the vendor; the reasoning travels encrypted instead.
      store: false,
    };
    if (request.systemPrompt) params.instructions = request.systemPrompt;
    if (request.tools && request.tools.length > 0) params.tools = toResponsesTools(request.tools);
    if (this.maxOutputTokens !== undefined) params.max_output_tokens = this.maxOutputTokens;
    if (this.reasoningEffort) params.reasoning = { effort: this.reasoningEffort, summary: 'auto' };
    if (this.carryReasoning) params.include = ['reasoning.encrypted_content'];

    const guard = new StreamGuard(this.idleTimeoutMs, this.errorContext);
    const { client } = createOpenAiClient(this.clientOptions, guard.wrap(openAiFetch));
    let stream: AsyncIterable<ResponseStreamEvent>;
    try {
      stream = await client.responses.create(params, { signal });
    } catch (err) {
      throw this.providerError(err, guard, signal, false);
    }

    const reader = new ResponseEventReader(this.errorContext, this.issuer);
    try {
      for await (const event of stream) yield* reader.read(event);
    } catch (err) {
      throw this.providerError(err, guard, signal, true);
    }
    // The SDK ends the stream quietly when aborted mid-body instead of throwing.
    if (signal?.aborted) throw new ProviderAbortedError();
    if (guard.failure) throw guard.failure;
    // The API always ends with response.completed (or .incomplete); without it the body was cut short.
    if (!reader.usage) throw truncatedStreamError(this.errorContext);
    yield { type: 'usage', usage: reader.usage };
  }

  private providerError(err: unknown, guard: StreamGuard, signal: AbortSignal | undefined, midStream: boolean) {
    if (guard.failure && !signal?.aborted) return guard.failure;
    const { APIError, APIUserAbortError, APIConnectionError } = openAiSdk();
    return toProviderError(err, { APIError, APIUserAbortError, APIConnectionError }, this.errorContext, signal, midStream);
  }
}

/** Turns the Responses API's stream events into Smith's chunks, one event at a time. */
class ResponseEventReader {
  /** Set by response.completed or response.incomplete: the stream ended as the API ends it. */
  usage: TokenUsage | undefined;
  private readonly calls = new ToolCallAccumulator();

  constructor(
    private readonly errorContext: ProviderErrorContext,
    /** Who gives the reasoning items read (see ReasoningItemPart.issuer). */
    private readonly issuer: string,
  ) {}

  *read(event: ResponseStreamEvent): Generator<ApiStreamChunk> {
    switch (event.type) {
      case 'response.output_text.delta':
        if (event.delta) yield { type: 'text', text: event.delta };
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta) yield { type: 'reasoning', text: event.delta };
        break;
      case 'response.reasoning_summary_part.added':
        // Summary parts are paragraphs of one summary.
        if (event.summary_index > 0) yield { type: 'reasoning', text: '\n\n' };
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call')
          this.calls.add(event.output_index, { id: event.item.call_id, name: event.item.name, arguments: event.item.arguments });
        break;
      case 'response.function_call_arguments.delta':
        if (this.calls.has(event.output_index)) this.calls.add(event.output_index, { arguments: event.delta });
        break;
      case 'response.output_item.done': {
        const { item } = event;
        if (item.type === 'function_call') {
          // The finished item holds the whole arguments; the deltas are only a fallback for servers that leave them out.
          const streamed = this.calls.take(event.output_index);
          yield {
            type: 'tool_call',
            // A server that gives no call_id gets one made up, logged, and sent back with the call and its output alike.
            id: item.call_id || streamed?.id || syntheticToolCallId(),
            name: item.name || streamed?.name || '',
            arguments: item.arguments || streamed?.arguments || '',
          };
        } else if (item.type === 'reasoning' && item.encrypted_content) {
          // Without its encrypted content (not asked for, or a server that has none) an item cannot be sent back under store: false.
          yield {
            type: 'signed_reasoning',
            part: {
              type: 'reasoning_item',
              id: item.id,
              encryptedContent: item.encrypted_content,
              summary: item.summary.map((s) => s.text),
              issuer: this.issuer,
            },
          };
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        // Incomplete is an answer cut at max_output_tokens (or by the content filter): what came is kept, as a finish_reason of length is.
        this.usage = toTokenUsage(event.response.usage);
        break;
      case 'response.failed': {
        const error = event.response.error;
        throw this.failure(error?.code ?? undefined, error?.message ?? 'the response failed');
      }
      case 'error':
        throw this.failure(event.code ?? undefined, event.message);
    }
  }

  private failure(code: string | undefined, message: string): ProviderError {
    const failure = midStreamErrorEvent(message, { error: { code, message } }, this.errorContext);
    if (failure.contextTooLong || failure.retryable || !code || !RETRYABLE_FAILURE_CODES.has(code)) return failure;
    return new ProviderError(failure.message, undefined, true);
  }
}

function toTokenUsage(usage: ResponseUsage | null | undefined): TokenUsage {
  const cached = usage?.input_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage?.output_tokens_details?.reasoning_tokens ?? 0;
  return {
    // input_tokens counts the cached ones too, as TokenUsage.inputTokens wants.
    inputTokens: usage?.input_tokens ?? 0,
    // output_tokens includes the reasoning, which is billed as output.
    outputTokens: usage?.output_tokens ?? 0,
    ...(cached ? { cacheReadTokens: cached } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
