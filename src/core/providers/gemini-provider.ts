import type { GenerateContentConfig, GoogleGenAI, GenerateContentResponse, GenerateContentResponseUsageMetadata, ThinkingConfig } from '@google/genai';
import { toGeminiProviderError } from './gemini-errors.js';
import { geminiSdk } from './provider-sdks.js';
import { toGeminiContents, toGeminiFunctionDeclarations } from './gemini-messages.js';
import { findModelInfo } from './model-catalog.js';
import { truncatedStreamError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { thinkingBudget } from './reasoning-params.js';
import { StreamGuard } from './stream-guard.js';
import { syntheticToolCallId } from './tool-call-accumulator.js';
import { ProviderAbortedError, ProviderError } from './types.js';
import type { ApiProvider, ApiRequest, ApiStream, TokenUsage, VendorProviderOptions } from './types.js';
import { VendorProvider, vendorErrorContext } from './vendor-provider.js';

/** Where the Gemini API lives; the SDK appends /v1beta/models/{model}:streamGenerateContent. */
const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

// Finish reasons of an answer that ended normally; any other with no text is a refusal. A malformed
// function call is the model's mistake, not a refusal: the engine tells it that it used no tool.
const COMPLETE_FINISH_REASONS = new Set(['STOP', 'MAX_TOKENS', 'MALFORMED_FUNCTION_CALL']);

/** How to build a GeminiProvider. */
interface GeminiProviderOptions extends VendorProviderOptions {
  /** The Gemini API's key; on Vertex AI, an express-mode key (then no project or location). */
  readonly apiKey?: string;
  /** Defaults to generativelanguage.googleapis.com (Vertex: the region's endpoint); the host, not the SDK, decides (GOOGLE_GEMINI_BASE_URL is not read). */
  readonly baseUrl?: string;
  /** Gemini on Vertex AI: the project and region, authenticated by Google Cloud's credentials. */
  readonly vertex?: { readonly project?: string; readonly location?: string };
}

/** Streams Gemini responses through the Gemini API (generativelanguage.googleapis.com) or Vertex AI with @google/genai. */
export class GeminiProvider extends VendorProvider implements ApiProvider {
  readonly id: 'gemini' | 'vertex-gemini';
  private readonly client: GoogleGenAI;
  private readonly maxOutputTokens: number | undefined;
  private readonly thinkingConfig: ThinkingConfig | undefined;
  private readonly errorContext: ProviderErrorContext;

  constructor(options: GeminiProviderOptions) {
    super(options);
    this.maxOutputTokens = options.maxOutputTokens;
    this.id = options.vertex ? 'vertex-gemini' : 'gemini';
    const { client, baseUrl } = options.vertex ? vertexClient(options, options.vertex) : geminiApiClient(options);
    this.client = client;
    this.errorContext = vendorErrorContext(options.vertex ? 'Vertex AI' : 'Gemini', options, baseUrl);
    // gemini-2.0-flash rejects thinkingConfig; a model the catalogue does not know gets it because the user asked.
    const supported = findModelInfo('gemini', options.model)?.supportsReasoning ?? true;
    this.thinkingConfig = options.reasoning && supported ? { thinkingBudget: thinkingBudget(options.reasoning), includeThoughts: true } : undefined;
  }

  /**
   * Yields thoughts as reasoning, the answer as text and each function call as a native tool call
   * as they arrive (Gemini sends calls whole, without ids: Smith makes them up), then one usage chunk.
   */
  async *createMessage(request: ApiRequest): ApiStream {
    const { signal } = request;
    const contents = toGeminiContents(request.messages);
    const guard = new StreamGuard(this.idleTimeoutMs, this.errorContext);
    const config: GenerateContentConfig = { abortSignal: signal, httpOptions: { fetch: guard.wrap(fetch) } };
    const providerError = (err: unknown, midStream: boolean) =>
      guard.failure && !signal?.aborted ? guard.failure : toGeminiProviderError(err, this.errorContext, signal, midStream);
    if (request.tools && request.tools.length > 0) config.tools = [{ functionDeclarations: toGeminiFunctionDeclarations(request.tools) }];
    if (request.systemPrompt) config.systemInstruction = request.systemPrompt;
    if (this.maxOutputTokens !== undefined) config.maxOutputTokens = this.maxOutputTokens;
    if (this.thinkingConfig) config.thinkingConfig = this.thinkingConfig;
    if (signal?.aborted) throw new ProviderAbortedError();

    let stream: AsyncIterable<GenerateContentResponse>;
    try {
      stream = await this.client.models.generateContentStream({ model: this.modelId, contents, config });
    } catch (err) {
      throw providerError(err, false);
    }

    let usage: TokenUsage | undefined;
    let finishReason: string | undefined;
    let blockReason: string | undefined;
    let answered = false;
    try {
      for await (const chunk of stream) {
        const candidate = chunk.candidates?.[0];
        for (const part of candidate?.content?.parts ?? []) {
          if (part.functionCall) {
            answered = true;
            const { id, name, args } = part.functionCall;
            yield {
              type: 'tool_call',
              id: id || syntheticToolCallId(),
              name: name ?? '',
              arguments: JSON.stringify(args ?? {}),
              ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
            };
            continue;
          }
          if (!part.text) continue; // thought signatures and other text-less parts
          if (part.thought) {
            yield { type: 'reasoning', text: part.text };
          } else {
            answered = true;
            yield { type: 'text', text: part.text };
          }
        }
        if (candidate?.finishReason) finishReason = candidate.finishReason;
        if (chunk.promptFeedback?.blockReason) blockReason = chunk.promptFeedback.blockReason;
        // Every chunk repeats the running totals; the last one is the response's.
        if (chunk.usageMetadata) usage = toTokenUsage(chunk.usageMetadata);
      }
    } catch (err) {
      throw providerError(err, true);
    }
    if (signal?.aborted) throw new ProviderAbortedError();
    if (guard.failure) throw guard.failure;
    if (blockReason) {
      throw new ProviderError(`Gemini refused the prompt (block reason ${blockReason}). Rephrase the request or remove the content it objects to.`);
    }
    // The API always ends with a chunk carrying a finish reason; without one the body was cut short.
    if (!finishReason) throw truncatedStreamError(this.errorContext);
    if (!answered && !COMPLETE_FINISH_REASONS.has(finishReason)) {
      throw new ProviderError(`Gemini stopped without answering (finish reason ${finishReason}).`);
    }
    if (usage) yield { type: 'usage', usage };
  }
}

function toTokenUsage(metadata: GenerateContentResponseUsageMetadata): TokenUsage {
  const cached = metadata.cachedContentTokenCount ?? 0;
  return {
    // promptTokenCount already includes the cached tokens, as TokenUsage.inputTokens wants.
    inputTokens: metadata.promptTokenCount ?? 0,
    // Thinking is billed as output but reported apart from the answer's candidatesTokenCount.
    outputTokens: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0),
    ...(cached ? { cacheReadTokens: cached } : {}),
  };
}

function geminiApiClient(options: GeminiProviderOptions): { client: GoogleGenAI; baseUrl: string } {
  const baseUrl = options.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
  const client = new (geminiSdk().GoogleGenAI)({
    apiKey: options.apiKey ?? '',
    // Never let GOOGLE_GENAI_USE_VERTEXAI in the environment send the key somewhere else.
    vertexai: false,
    // No retryOptions: Smith retries itself, visibly.
    httpOptions: { baseUrl },
  });
  return { client, baseUrl };
}

/**
 * A Vertex AI client: with an express-mode key, or with the project and region and Google Cloud's
 * own credential chain (GOOGLE_APPLICATION_CREDENTIALS, gcloud's application default login, the
 * metadata server), which google-auth-library reads when a request is made.
 */
function vertexClient(options: GeminiProviderOptions, vertex: NonNullable<GeminiProviderOptions['vertex']>): { client: GoogleGenAI; baseUrl: string } {
  const baseUrl =
    options.baseUrl ??
    (options.apiKey ? 'https://aiplatform.googleapis.com' : `https://${vertex.location === 'global' ? '' : `${vertex.location}-`}aiplatform.googleapis.com`);
  const client = options.apiKey
    ? new (geminiSdk().GoogleGenAI)({ vertexai: true, apiKey: options.apiKey, httpOptions: { baseUrl } })
    : new (geminiSdk().GoogleGenAI)({
        vertexai: true,
        ...(vertex.project ? { project: vertex.project } : {}),
        ...(vertex.location ? { location: vertex.location } : {}),
        // Known already: without it google-auth-library asks Cloud Resource Manager for the project.
        googleAuthOptions: { ...(vertex.project ? { projectId: vertex.project } : {}), scopes: ['https://www.googleapis.com/auth/cloud-platform'] },
        httpOptions: { baseUrl },
      });
  return { client, baseUrl };
}
