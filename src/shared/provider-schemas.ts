// The provider settings as the panel and the webview exchange them: the provider, its tool
// protocol and reasoning, API profiles, and the models a provider offers. Part of the protocol
// (protocol.ts re-exports them), kept apart so each file stays one subject.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';
import { PROVIDER_IDS } from './providers.js';

export const providerSchema = z.enum(PROVIDER_IDS);
/** How the model calls tools: XML blocks in its text (any model) or the vendor's native tool calling. */
export const toolProtocolSchema = z.enum(['xml', 'native']);
export type ToolProtocolName = z.infer<typeof toolProtocolSchema>;

/** The OpenAI API a model is spoken to with: Chat Completions (every compatible server) or the Responses API. */
export const OPENAI_APIS = ['chat-completions', 'responses'] as const;
export const openAiApiSchema = z.enum(OPENAI_APIS);
export type OpenAiApi = z.infer<typeof openAiApiSchema>;

/** A piece of provider setup a task cannot run without. */
const providerSetupFieldSchema = z.enum(['apiKey', 'baseUrl', 'model']);
export type ProviderSetupField = z.infer<typeof providerSetupFieldSchema>;

/** How hard a reasoning model thinks: off, or OpenAI's efforts (a thinking budget for Anthropic and Gemini). */
export const REASONING_EFFORTS = ['off', 'low', 'medium', 'high'] as const;
export const reasoningEffortSchema = z.enum(REASONING_EFFORTS);
export type ReasoningEffortName = z.infer<typeof reasoningEffortSchema>;

/**
 * One named API configuration (a profile): a provider and what goes with it. Fields left out take
 * the provider's defaults. Never a key: keys stay in SecretStorage or the environment; `apiKeyEnv`
 * names the variable the CLI reads this profile's key from (two profiles of one provider, two keys).
 */
export const apiProfileSchema = z.strictObject({
  provider: providerSchema,
  model: z.optional(z.string().check(z.maxLength(500))),
  baseUrl: z.optional(z.string().check(z.maxLength(2000))),
  toolProtocol: z.optional(toolProtocolSchema),
  reasoningEffort: z.optional(reasoningEffortSchema),
  planModel: z.optional(z.string().check(z.maxLength(500))),
  actModel: z.optional(z.string().check(z.maxLength(500))),
  /** Azure OpenAI's api-version. */
  apiVersion: z.optional(z.string().check(z.maxLength(100))),
  /** OpenAI, Azure OpenAI and compatible servers: the API to speak, over the model catalogue's choice. */
  openAiApi: z.optional(openAiApiSchema),
  // Named like a key (…_API_KEY, …_KEY, …_TOKEN), so the CLI redacts its value wherever it could appear.
  apiKeyEnv: z.optional(
    z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*_(?:KEY|TOKEN)$/, 'must be an environment variable named …_API_KEY, …_KEY or …_TOKEN')),
  ),
});
export type ApiProfile = DeepReadonly<z.infer<typeof apiProfileSchema>>;

/** A profile's name as it is typed and shown. */
export const profileNameSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(64), z.regex(/^[\w][\w .@-]*$/, 'letters, digits, spaces, and . _ @ - (starting with a letter or digit)'));

/** Provider settings as the panel edits them; the key itself never travels to the webview. */
export const providerSettingsViewSchema = z.object({
  provider: providerSchema,
  model: z.string(),
  baseUrl: z.string(),
  toolProtocol: toolProtocolSchema,
  /** A model for Plan mode and one for Act mode; absent or empty: the main model. */
  planModel: z.optional(z.string()),
  actModel: z.optional(z.string()),
  /** The API profile Plan mode and Act mode use instead (its provider, model and key); absent or empty: none. */
  planProfile: z.optional(z.string()),
  actProfile: z.optional(z.string()),
  /** Absent: off. */
  reasoningEffort: z.optional(reasoningEffortSchema),
  /** True when a key is stored (SecretStorage) or found in the environment. */
  hasApiKey: z.boolean(),
  /** What the provider still needs before a task can run; absent or empty when it is ready. */
  missing: z.optional(z.array(providerSetupFieldSchema)),
  /** The user's API profiles by name; picking one fills the form. */
  profiles: z.optional(z.record(z.string(), apiProfileSchema)),
});
export type ProviderSettingsView = DeepReadonly<z.infer<typeof providerSettingsViewSchema>>;

/** A model the provider offers, with what is known about it (from the catalogue where the server says nothing). */
const modelChoiceSchema = z.object({
  id: z.string(),
  /** The model's name for people where the provider gives one beside the id (VS Code's language models). */
  name: z.optional(z.string()),
  contextWindow: z.optional(z.number()),
  maxOutputTokens: z.optional(z.number()),
  /** US dollars per million input and output tokens, and cached input read and written. */
  inputPrice: z.optional(z.number()),
  outputPrice: z.optional(z.number()),
  cacheReadPrice: z.optional(z.number()),
  cacheWritePrice: z.optional(z.number()),
  supportsImages: z.optional(z.boolean()),
  supportsReasoning: z.optional(z.boolean()),
  /** The model takes native tool calls. */
  supportsTools: z.optional(z.boolean()),
  /** Nobody described this model: its facts are the catalogue's for this model of the same family. */
  inferredFrom: z.optional(z.string()),
});
export type ModelChoice = DeepReadonly<z.infer<typeof modelChoiceSchema>>;

/** The models of a provider, for the Settings view's picker: listed by the server, as it listed them before (cache), or the catalogue's. */
export const modelListSchema = z.object({
  provider: providerSchema,
  baseUrl: z.string(),
  source: z.enum(['server', 'cache', 'catalogue']),
  models: z.array(modelChoiceSchema),
  /** Why the server could not list them (the picker then offers the cached list, the catalogue, or nothing). */
  error: z.optional(z.string()),
  /** When the cached list was fetched (milliseconds since the epoch). */
  fetchedAt: z.optional(z.number()),
});
export type ModelList = DeepReadonly<z.infer<typeof modelListSchema>>;
