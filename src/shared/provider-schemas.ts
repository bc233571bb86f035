// The provider settings as the panel and the webview exchange them: the provider, its tool
// protocol and reasoning, API profiles, and the models a provider offers. Part of the protocol
// (protocol.ts re-exports them), kept apart so each file stays one subject.
import { z } from 'zod';
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
export const apiProfileSchema = z
  .object({
    provider: providerSchema,
    model: z.string().max(500).optional(),
    baseUrl: z.string().max(2000).optional(),
    toolProtocol: toolProtocolSchema.optional(),
    reasoningEffort: reasoningEffortSchema.optional(),
    planModel: z.string().max(500).optional(),
    actModel: z.string().max(500).optional(),
    /** Azure OpenAI's api-version. */
    apiVersion: z.string().max(100).optional(),
    /** OpenAI, Azure OpenAI and compatible servers: the API to speak, over the model catalogue's choice. */
    openAiApi: openAiApiSchema.optional(),
    // Named like a key (…_API_KEY, …_KEY, …_TOKEN), so the CLI redacts its value wherever it could appear.
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*_(?:KEY|TOKEN)$/, 'must be an environment variable named …_API_KEY, …_KEY or …_TOKEN')
      .optional(),
  })
  .strict();
export type ApiProfile = DeepReadonly<z.infer<typeof apiProfileSchema>>;

/** A profile's name as it is typed and shown. */
export const profileNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w][\w .@-]*$/, 'letters, digits, spaces, and . _ @ - (starting with a letter or digit)');

/** Provider settings as the panel edits them; the key itself never travels to the webview. */
export const providerSettingsViewSchema = z.object({
  provider: providerSchema,
  model: z.string(),
  baseUrl: z.string(),
  toolProtocol: toolProtocolSchema,
  /** A model for Plan mode and one for Act mode; absent or empty: the main model. */
  planModel: z.string().optional(),
  actModel: z.string().optional(),
  /** The API profile Plan mode and Act mode use instead (its provider, model and key); absent or empty: none. */
  planProfile: z.string().optional(),
  actProfile: z.string().optional(),
  /** Absent: off. */
  reasoningEffort: reasoningEffortSchema.optional(),
  /** True when a key is stored (SecretStorage) or found in the environment. */
  hasApiKey: z.boolean(),
  /** What the provider still needs before a task can run; absent or empty when it is ready. */
  missing: z.array(providerSetupFieldSchema).optional(),
  /** The user's API profiles by name; picking one fills the form. */
  profiles: z.record(z.string(), apiProfileSchema).optional(),
});
export type ProviderSettingsView = DeepReadonly<z.infer<typeof providerSettingsViewSchema>>;

/** A model the provider offers, with what is known about it (from the catalogue where the server says nothing). */
const modelChoiceSchema = z.object({
  id: z.string(),
  /** The model's name for people where the provider gives one beside the id (VS Code's language models). */
  name: z.string().optional(),
  contextWindow: z.number().optional(),
  maxOutputTokens: z.number().optional(),
  /** US dollars per million input and output tokens, and cached input read and written. */
  inputPrice: z.number().optional(),
  outputPrice: z.number().optional(),
  cacheReadPrice: z.number().optional(),
  cacheWritePrice: z.number().optional(),
  supportsImages: z.boolean().optional(),
  supportsReasoning: z.boolean().optional(),
  /** The model takes native tool calls. */
  supportsTools: z.boolean().optional(),
  /** Nobody described this model: its facts are the catalogue's for this model of the same family. */
  inferredFrom: z.string().optional(),
});
export type ModelChoice = DeepReadonly<z.infer<typeof modelChoiceSchema>>;

/** The models of a provider, for the Settings view's picker: listed by the server, as it listed them before (cache), or the catalogue's. */
export const modelListSchema = z.object({
  provider: providerSchema,
  baseUrl: z.string(),
  source: z.enum(['server', 'cache', 'catalogue']),
  models: z.array(modelChoiceSchema),
  /** Why the server could not list them (the picker then offers the cached list, the catalogue, or nothing). */
  error: z.string().optional(),
  /** When the cached list was fetched (milliseconds since the epoch). */
  fetchedAt: z.number().optional(),
});
export type ModelList = DeepReadonly<z.infer<typeof modelListSchema>>;
