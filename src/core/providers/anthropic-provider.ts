import type { Anthropic } from '@anthropic-ai/sdk';
import type { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { toAnthropicMessages, toAnthropicTools } from './anthropic-messages.js';
import { normalizeConversation } from './message-conversion.js';
import { findModelInfo } from './model-catalog.js';
import { toProviderError, truncatedStreamError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { type VertexLocation, VertexClaudeClients } from './anthropic-vertex-client.js';
import { awsCredentialsError } from './aws-credentials.js';
import { credentialsError } from './google-credentials.js';
import { anthropicThinkingPlan } from './reasoning-params.js';
import type { AnthropicThinkingPlan } from './reasoning-params.js';
import { sdkLogger } from './sdk-logger.js';
import { StreamGuard } from './stream-guard.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';
import { ProviderAbortedError } from './types.js';
import type { ApiProvider, ApiRequest, ApiStream, TokenUsage, VendorProviderOptions } from './types.js';
import { VendorProvider, vendorErrorContext } from './vendor-provider.js';
import { anthropicSdk } from './provider-sdks.js';

/** Output budget when the settings give none; every current Claude model allows at least this. */
const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** How to build an AnthropicProvider. */
interface AnthropicProviderOptions extends VendorProviderOptions {
  /** Anthropic's key; none on Vertex AI, which takes Google Cloud's credentials. */
  readonly apiKey?: string;
  /** Defaults to the SDK's (ANTHROPIC_BASE_URL, else api.anthropic.com; on Vertex AI the region's endpoint); the SDK appends /v1/messages. */
  readonly baseUrl?: string;
  /** Claude on Vertex AI in this project and region. */
  readonly vertex?: VertexLocation;
  /** Claude on Amazon Bedrock in this AWS region (`apiKey`, when given, is a Bedrock API key). */
  readonly bedrock?: { readonly region: string };
}

/** Streams Claude responses through the Anthropic Messages API, or Vertex AI's. */
export class AnthropicProvider extends VendorProvider implements ApiProvider {
  readonly id: 'anthropic' | 'vertex-anthropic' | 'bedrock';
  private readonly client: Anthropic | AnthropicBedrock | undefined;
  private readonly vertex: VertexClaudeClients | undefined;
  private readonly maxTokens: number;
  private readonly thinking: AnthropicThinkingPlan | undefined;
  private readonly promptCache: boolean;
  private readonly errorContext: ProviderErrorContext;

  constructor(options: AnthropicProviderOptions) {
    super(options);
    this.maxTokens = options.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
    // Models the catalogue does not know are assumed to be recent Claudes: every one since Claude 3
    // caches, and the user asked for thinking explicitly.
    const info = findModelInfo('anthropic', options.model);
    this.promptCache = info?.supportsPromptCache ?? true;
    const reasoning = info?.supportsReasoning === false ? undefined : options.reasoning;
    this.thinking = reasoning
      ? anthropicThinkingPlan(reasoning, options.maxOutputTokens, DEFAULT_ANTHROPIC_MAX_TOKENS, info?.maxOutputTokens ?? Number.MAX_SAFE_INTEGER)
      : undefined;
    this.id = options.vertex ? 'vertex-anthropic' : options.bedrock ? 'bedrock' : 'anthropic';
    this.vertex = options.vertex ? new VertexClaudeClients(options.vertex, options.baseUrl) : undefined;
    // Smith retries itself, visibly; SDK retries would hide minutes of waiting.
    const { Anthropic, AnthropicBedrock } = anthropicSdk();
    const common = { maxRetries: 0, logger: sdkLogger, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) };
    if (options.bedrock) {
      // Without a Bedrock API key, AWS's credential chain signs each request (SigV4).
      this.client = new AnthropicBedrock({ ...common, awsRegion: options.bedrock.region, ...(options.apiKey ? { apiKey: options.apiKey } : { apiKey: null }) });
    } else {
      this.client = options.vertex ? undefined : new Anthropic({ ...common, apiKey: options.apiKey ?? null });
    }
    this.errorContext = vendorErrorContext(
      options.vertex ? 'Vertex AI' : options.bedrock ? 'Amazon Bedrock' : 'Anthropic',
      options,
      this.vertex?.baseUrl ?? this.client!.baseURL,
    );
  }

  /**
   * Yields text and thinking as they arrive (a thinking block's signature once it is complete, a
   * redacted thinking block whole),
   * each native tool call when its block closes, then one usage chunk with the response's totals.
   */
  async *createMessage(request: ApiRequest): ApiStream {
    const { signal } = request;
    const params: MessageCreateParamsStreaming = {
      model: this.modelId,
      max_tokens: this.thinking?.maxTokens ?? this.maxTokens,
      messages: toAnthropicMessages(normalizeConversation(request.messages), this.promptCache),
      stream: true,
    };
    if (request.tools && request.tools.length > 0) params.tools = toAnthropicTools(request.tools);
    // An empty system text block is a 400, so leave the field out instead.
    if (request.systemPrompt) {
      params.system = this.promptCache ? [{ type: 'text', text: request.systemPrompt, cache_control: EPHEMERAL }] : request.systemPrompt;
    }
    if (this.thinking) params.thinking = { type: 'enabled', budget_tokens: this.thinking.budgetTokens };

    const guard = new StreamGuard(this.idleTimeoutMs, this.errorContext);
    let stream: AsyncIterable<RawMessageStreamEvent>;
    try {
      const client = this.vertex ? await this.vertex.client(guard.wrap(fetch), this.errorContext) : this.client!.withOptions({ fetch: guard.wrap(fetch) });
      stream = await client.messages.create(params, { signal });
    } catch (err) {
      throw this.providerError(err, guard, signal, false);
    }

    const usage = new UsageTotals();
    const toolCalls = new ToolCallAccumulator();
    let sawMessageStop = false;
    try {
      for await (const event of stream) {
        switch (event.type) {
          case 'message_start':
            usage.add(event.message.usage);
            break;
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') toolCalls.add(event.index, { id: event.content_block.id, name: event.content_block.name });
            // Redacted thinking arrives whole; it must go back with the tool calls exactly as it came.
            else if (event.content_block.type === 'redacted_thinking')
              yield { type: 'signed_reasoning', part: { type: 'redacted_thinking', data: event.content_block.data } };
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') yield { type: 'text', text: event.delta.text };
            else if (event.delta.type === 'thinking_delta') yield { type: 'reasoning', text: event.delta.thinking };
            else if (event.delta.type === 'signature_delta') yield { type: 'reasoning_signature', signature: event.delta.signature };
            else if (event.delta.type === 'input_json_delta' && toolCalls.has(event.index)) toolCalls.add(event.index, { arguments: event.delta.partial_json });
            break;
          case 'content_block_stop': {
            const call = toolCalls.take(event.index);
            if (call) yield call;
            break;
          }
          case 'message_delta':
            usage.add(event.usage);
            break;
          case 'message_stop':
            sawMessageStop = true;
            break;
        }
      }
    } catch (err) {
      throw this.providerError(err, guard, signal, true);
    }
    // The SDK ends the stream quietly when aborted mid-body instead of throwing.
    if (signal?.aborted) throw new ProviderAbortedError();
    if (guard.failure) throw guard.failure;
    // The API always closes with message_stop; without it the body was cut short.
    if (!sawMessageStop) throw truncatedStreamError(this.errorContext);
    yield { type: 'usage', usage: usage.toTokenUsage() };
  }

  private providerError(err: unknown, guard: StreamGuard, signal: AbortSignal | undefined, midStream: boolean) {
    if (guard.failure && !signal?.aborted) return guard.failure;
    // Vertex AI and Bedrock: credentials that could not be had are a credentials problem, not the network's.
    const { APIConnectionError, APIError, APIUserAbortError } = anthropicSdk();
    const credentials =
      err instanceof APIConnectionError
        ? this.vertex
          ? credentialsError(err, this.errorContext)
          : this.id === 'bedrock'
            ? awsCredentialsError(err, this.errorContext)
            : undefined
        : undefined;
    return credentials ?? toProviderError(err, { APIError, APIUserAbortError, APIConnectionError }, this.errorContext, signal, midStream);
  }
}

interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * message_start carries the input counts and message_delta the final output count. The counts are
 * cumulative, so the largest seen is the total (some proxies send zeros in message_delta).
 */
class UsageTotals {
  private input = 0;
  private output = 0;
  private cacheWrite = 0;
  private cacheRead = 0;

  add(usage: AnthropicUsageFields | null | undefined): void {
    if (!usage) return;
    this.input = Math.max(this.input, usage.input_tokens ?? 0);
    this.output = Math.max(this.output, usage.output_tokens ?? 0);
    this.cacheWrite = Math.max(this.cacheWrite, usage.cache_creation_input_tokens ?? 0);
    this.cacheRead = Math.max(this.cacheRead, usage.cache_read_input_tokens ?? 0);
  }

  toTokenUsage(): TokenUsage {
    return {
      // Anthropic's input_tokens excludes cached tokens; TokenUsage.inputTokens counts the whole prompt.
      inputTokens: this.input + this.cacheWrite + this.cacheRead,
      outputTokens: this.output,
      cacheReadTokens: this.cacheRead,
      cacheWriteTokens: this.cacheWrite,
    };
  }
}
