/**
 * One provider-neutral message of the conversation sent to the model. Plain text for the XML tool
 * protocol; parts when it carries native tool calls or their results.
 */
export interface ProviderMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly ContentPart[];
}

/** A message as the XML tool protocol builds them: text only. */
export interface TextMessage extends ProviderMessage {
  readonly content: string;
}

/** A piece of a message with native tool calls or images; each provider maps it to its vendor's shape. */
export type ContentPart = TextPart | ImagePart | SignedReasoningPart | ToolUsePart | ToolResultPart;

/**
 * Reasoning a vendor wants back exactly as it gave it, in its place before the tool calls it led
 * to: Anthropic's signed and redacted thinking, OpenAI's encrypted reasoning items (Responses API).
 * Every other vendor's conversion drops it.
 */
export type SignedReasoningPart = ThinkingPart | RedactedThinkingPart | ReasoningItemPart;

/** Plain text. */
interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** Image bytes as base64 with their MIME type, as tools return them and vendors accept them. */
export interface Base64Image {
  readonly mimeType: string;
  /** Base64 without a `data:` prefix. */
  readonly data: string;
}

/** An image for a vision model (only projected when the model supports images). */
export interface ImagePart extends Base64Image {
  readonly type: 'image';
}

/** Anthropic's thinking block: its text and the signature that proves it unaltered. */
export interface ThinkingPart {
  readonly type: 'thinking';
  readonly text: string;
  readonly signature: string;
}

/** Anthropic's redacted_thinking block: reasoning its safety systems encrypted, opaque to everyone else. */
export interface RedactedThinkingPart {
  readonly type: 'redacted_thinking';
  readonly data: string;
}

/**
 * An OpenAI Responses API reasoning item as `store: false` needs it back: its id, the encrypted
 * reasoning and the summary texts shown as the chat's thinking.
 */
export interface ReasoningItemPart {
  readonly type: 'reasoning_item';
  readonly id: string;
  readonly encryptedContent: string;
  readonly summary: readonly string[];
  /** Who gave it (`provider:model`); only that model, at that provider, is sent it again (another could not decrypt it). */
  readonly issuer?: string;
}

/** A native tool call made by the assistant. */
interface ToolUsePart {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, string>>;
  /** Opaque token the vendor asked to get back with the call (Gemini's thoughtSignature). */
  readonly signature?: string;
}

/** The result of one native tool call, sent in the user turn after it. */
export interface ToolResultPart {
  readonly type: 'tool_result';
  readonly toolUseId: string;
  /** The tool's name: Gemini matches results to calls by name. */
  readonly name: string;
  readonly content: string;
  readonly isError?: boolean;
  /** Images the tool returned; each vendor places them with the result as its API allows. */
  readonly images?: readonly ImagePart[];
}

/** How tool calls travel: XML blocks in the text (every model), or the vendor's native tool calling. */
export type ToolProtocol = 'xml' | 'native';

/** A tool offered through native tool calling: the JSON schema of its (all-string) parameters. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: ToolParametersSchema;
}

/** A JSON schema object whose properties are all strings, as every Smith tool parameter is. */
interface ToolParametersSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, { readonly type: 'string'; readonly description: string }>>;
  readonly required: readonly string[];
}

/** What a streaming model response yields, whatever the vendor. */
export type ApiStreamChunk =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  /** Closes the reasoning so far with the vendor's signature (Anthropic), so it can be sent back with tool calls. */
  | { readonly type: 'reasoning_signature'; readonly signature: string }
  /** A whole piece of reasoning to send back unchanged (redacted thinking, an encrypted reasoning item); its text, if any, came as `reasoning` chunks. */
  | { readonly type: 'signed_reasoning'; readonly part: RedactedThinkingPart | ReasoningItemPart }
  /** One complete native tool call; `arguments` is the JSON text as the model wrote it (maybe malformed). */
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly arguments: string; readonly signature?: string }
  | { readonly type: 'usage'; readonly usage: TokenUsage }
  /**
   * Only from withRetries with `restartMidStream`: the stream broke after these chunks and is made
   * again from the start; drop what was received. `reason` says why, worded for the user.
   */
  | { readonly type: 'restart'; readonly reason: string };

/** Token counts reported by the provider for one response. */
export interface TokenUsage {
  /** All prompt tokens, cached ones included, so it measures the context window whatever the vendor. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  /** Of `outputTokens`, those the model spent reasoning (billed as output), when the vendor says. */
  readonly reasoningTokens?: number;
}

/** A stream of response chunks; iterate it once. */
export type ApiStream = AsyncIterable<ApiStreamChunk>;

/** The request the engine makes of a provider. */
export interface ApiRequest {
  readonly systemPrompt: string;
  readonly messages: readonly ProviderMessage[];
  readonly signal?: AbortSignal;
  /** Native tool calling: the tools the model may call. Absent for the XML protocol. */
  readonly tools?: readonly ToolDefinition[];
}

/** One LLM vendor behind the common streaming interface. */
export interface ApiProvider {
  readonly id: ProviderId;
  readonly modelId: string;
  /** How this provider's model is asked to call tools (default xml). */
  readonly toolProtocol?: ToolProtocol;
  /** The settings it was built from (createProvider sets them), so its model's facts can be asked of its server. */
  readonly config?: ProviderConfig;
  /**
   * What the provider itself knows of its model (window, prices, images), for one that learns it
   * without a server to ask (VS Code's language models); undefined when it cannot tell. Never throws.
   */
  describeModel?(signal?: AbortSignal): Promise<ModelFacts | undefined>;
  createMessage(request: ApiRequest): ApiStream;
}

export type { ProviderId } from '../../shared/providers.js';
import type { ProviderId } from '../../shared/providers.js';
import type { ModelFacts } from './model-facts.js';
import type { OpenAiApi } from '../../shared/provider-schemas.js';

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
  /** Azure OpenAI's `api-version` (default DEFAULT_AZURE_API_VERSION, or the one in a pasted request URL). */
  readonly apiVersion?: string;
  /** Vertex AI's Google Cloud project (default: GOOGLE_CLOUD_PROJECT). */
  readonly project?: string;
  /** Vertex AI's region (default: GOOGLE_CLOUD_LOCATION), or Bedrock's AWS region (default: AWS_REGION, else us-east-1). */
  readonly location?: string;
  readonly maxOutputTokens?: number;
  /** Extended thinking / reasoning effort; absent means the vendor's default (usually no visible reasoning). */
  readonly reasoning?: ReasoningConfig;
  /** xml (default) or the vendor's native tool calling. */
  readonly toolProtocol?: ToolProtocol;
  /** OpenAI, Azure OpenAI, compatible servers: Chat Completions or the Responses API; absent: the model catalogue's choice (see openAiApiFor). */
  readonly openAiApi?: OpenAiApi;
  /** An attempt that receives no byte for this long (before the headers or mid-stream) is abandoned and retried; default 60 000, 0 turns it off. */
  readonly idleTimeoutMs?: number;
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

/** What every vendor provider is built from, besides its key and endpoint. */
export interface VendorProviderOptions {
  readonly model: string;
  readonly maxOutputTokens?: number;
  /** Extended thinking / reasoning effort, for models that support it. */
  readonly reasoning?: ReasoningConfig;
  /** Where the user sets the key, named when the key is rejected. */
  readonly keySource: string;
  readonly toolProtocol?: ToolProtocol;
  /** See ProviderConfig.idleTimeoutMs. */
  readonly idleTimeoutMs?: number;
}
