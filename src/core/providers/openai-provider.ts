import { APIConnectionError, APIError, APIUserAbortError, OpenAI } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { normalizeConversation } from './message-conversion.js';
import { extractServerMessage, toProviderError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { sdkLogger } from './sdk-logger.js';
import { ProviderAbortedError } from './types.js';
import type { ApiProvider, ApiRequest, ApiStream, TokenUsage } from './types.js';

/** Local servers (Ollama, LM Studio, vLLM) ignore the key, but the SDK refuses to run without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** How to build an OpenAiProvider. */
export interface OpenAiProviderOptions {
  readonly id: 'openai' | 'openai-compatible';
  readonly model: string;
  /** Optional only for openai-compatible; a placeholder is sent instead. */
  readonly apiKey?: string;
  /** Required for openai-compatible (e.g. http://localhost:11434/v1); defaults to api.openai.com. */
  readonly baseUrl?: string;
  readonly maxOutputTokens?: number;
  /** Where the user sets the key, named when the key is rejected. */
  readonly keySource: string;
}

// Fields openai-compatible servers add to chat deltas and usage; not in the SDK's types.
type CompatDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };
type CompatUsage = NonNullable<ChatCompletionChunk['usage']> & { prompt_cache_hit_tokens?: number };

/** Streams chat completions from OpenAI or any server speaking its API (Ollama, LM Studio, vLLM, OpenRouter). */
export class OpenAiProvider implements ApiProvider {
  readonly id: 'openai' | 'openai-compatible';
  readonly modelId: string;
  private readonly client: OpenAI;
  private readonly maxOutputTokens: number | undefined;
  private readonly errorContext: ProviderErrorContext;

  constructor(options: OpenAiProviderOptions) {
    this.id = options.id;
    this.modelId = options.model;
    this.maxOutputTokens = options.maxOutputTokens;
    const compatible = options.id === 'openai-compatible';
    this.client = new OpenAI({
      apiKey: options.apiKey || PLACEHOLDER_API_KEY,
      baseURL: options.baseUrl,
      // Smith retries itself, visibly; SDK retries would hide minutes of waiting.
      maxRetries: 0,
      // Never forward OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to a third-party server.
      ...(compatible ? { organization: null, project: null } : {}),
      fetch: fetchWithReadableErrors,
      logger: sdkLogger,
    });
    this.errorContext = {
      label: compatible ? 'the OpenAI-compatible server' : 'OpenAI',
      model: options.model,
      baseUrl: this.client.baseURL,
      keySource: options.keySource,
      apiKey: options.apiKey,
    };
  }

  /** Yields text and reasoning as they arrive, then one usage chunk if the server reported usage. */
  async *createMessage(request: ApiRequest): ApiStream {
    const { signal } = request;
    const messages: ChatCompletionMessageParam[] = [];
    if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
    for (const message of normalizeConversation(request.messages)) {
      messages.push({ role: message.role, content: message.content });
    }
    const params: ChatCompletionCreateParamsStreaming = {
      model: this.modelId,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (this.maxOutputTokens !== undefined) {
      // OpenAI's reasoning models reject max_tokens; most compatible servers only know max_tokens.
      if (this.id === 'openai') params.max_completion_tokens = this.maxOutputTokens;
      else params.max_tokens = this.maxOutputTokens;
    }

    let stream: AsyncIterable<ChatCompletionChunk>;
    try {
      stream = await this.client.chat.completions.create(params, { signal });
    } catch (err) {
      throw this.providerError(err, signal, false);
    }

    let usage: TokenUsage | undefined;
    try {
      for await (const chunk of stream) {
        const delta = chunk.choices?.[0]?.delta as CompatDelta | undefined;
        const reasoning = delta?.reasoning_content ?? delta?.reasoning;
        if (reasoning) yield { type: 'reasoning', text: reasoning };
        if (delta?.content) yield { type: 'text', text: delta.content };
        // Some compatible servers repeat usage on every chunk; the last one is the total.
        if (chunk.usage) usage = toTokenUsage(chunk.usage);
      }
    } catch (err) {
      throw this.providerError(err, signal, true);
    }
    // The SDK ends the stream quietly when aborted mid-body instead of throwing.
    if (signal?.aborted) throw new ProviderAbortedError();
    if (usage) yield { type: 'usage', usage };
  }

  private providerError(err: unknown, signal: AbortSignal | undefined, midStream: boolean) {
    return toProviderError(err, { APIError, APIUserAbortError, APIConnectionError }, this.errorContext, signal, midStream);
  }
}

function toTokenUsage(usage: CompatUsage): TokenUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    ...(cached ? { cacheReadTokens: cached } : {}),
  };
}

/**
 * The SDK only reads an error message from `{"error": {"message"}}` bodies and shows
 * "status code (no body)" for anything else, but compatible servers answer `{"detail": ...}`
 * (FastAPI, vLLM), `{"error": "..."}` (Ollama) or `{"message": ...}`; rewrite those into
 * OpenAI's shape so the user sees why the request failed.
 */
async function fetchWithReadableErrors(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status < 400) return response;
  const text = await response.text();
  return new Response(openAiShapedErrorBody(text), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function openAiShapedErrorBody(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text; // not JSON: the SDK shows plain text as it is
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return text;
  }
  const details = typeof error === 'object' && error !== null ? error : {};
  return JSON.stringify({ error: { ...details, message: extractServerMessage(body) ?? text } });
}
