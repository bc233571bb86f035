import { AnthropicProvider } from './anthropic-provider.js';
import { GeminiProvider } from './gemini-provider.js';
import { openAiApiFor } from './model-catalog.js';
import { OpenAiProvider } from './openai-provider.js';
import { OpenAiResponsesProvider } from './openai-responses-provider.js';
import { AWS_CREDENTIALS } from './aws-credentials.js';
import { VERTEX_CREDENTIALS } from './google-credentials.js';
import { EDITOR_MODELS_ONLY_IN_VS_CODE } from './editor-models.js';
import { ProviderError } from './types.js';
import type { ApiProvider, ProviderConfig, ProviderId } from './types.js';
import { API_KEY_ENV_VARS, isProviderId, PROVIDER_IDS, providerEntry } from '../../shared/providers.js';

/** The environment variable a host reads the API key of `provider` from. */
export function apiKeyEnvVar(provider: ProviderId): string {
  return API_KEY_ENV_VARS[provider];
}

/**
 * Builds the provider the settings describe, or throws a ProviderError saying what to fix.
 * It never reads the environment itself: the host resolves `apiKey` (env var or secret storage).
 * VS Code's language models are not built here: only the extension can reach them.
 */
export function createProvider(config: ProviderConfig): ApiProvider {
  const provider = buildProvider(config);
  Object.defineProperty(provider, 'config', { value: config, enumerable: false });
  return provider;
}

function buildProvider(config: ProviderConfig): ApiProvider {
  if (!isProviderId(config.provider)) {
    throw new ProviderError(`Unknown provider "${String(config.provider)}". Use one of ${PROVIDER_IDS.join(', ')}.`);
  }
  const entry = providerEntry(config.provider);
  // Only the extension host can reach them; the extension builds this provider itself (createHostProvider).
  if (entry.api === 'vscode-lm') throw new ProviderError(EDITOR_MODELS_ONLY_IN_VS_CODE);
  const model = config.model.trim();
  if (!model) {
    const what =
      entry.api === 'azure-openai'
        ? "No deployment is set for Azure OpenAI. Give the deployment's name"
        : `No model is set for the ${config.provider} provider. Choose one`;
    throw new ProviderError(`${what} with --model or in Smith's settings.`);
  }
  const apiKey = config.apiKey?.trim() || undefined;
  const baseUrl = config.baseUrl?.trim() || undefined;
  const envVar = apiKeyEnvVar(config.provider);
  const keySource = `${envVar} (or the API key in Smith's settings)`;
  const common = {
    model,
    baseUrl,
    maxOutputTokens: config.maxOutputTokens,
    reasoning: config.reasoning,
    keySource,
    toolProtocol: config.toolProtocol,
    idleTimeoutMs: config.idleTimeoutMs,
  };

  switch (entry.api) {
    case 'anthropic':
      return new AnthropicProvider({ apiKey: requireKey(apiKey, entry.label, envVar), ...common });
    case 'gemini':
      return new GeminiProvider({ apiKey: requireKey(apiKey, 'Gemini', envVar), ...common });
    case 'gemini-vertex':
      return new GeminiProvider({
        ...(apiKey ? { apiKey } : {}),
        ...common,
        keySource: `${VERTEX_CREDENTIALS}, or VERTEX_API_KEY for express mode`,
        vertex: apiKey ? {} : vertexLocation(config),
      });
    case 'anthropic-bedrock':
      // The region as the AWS CLI and SDKs take it; an API key (AWS_BEARER_TOKEN_BEDROCK) or AWS's credential chain.
      return new AnthropicProvider({
        ...(apiKey ? { apiKey } : {}),
        ...common,
        keySource: AWS_CREDENTIALS,
        bedrock: { region: config.location?.trim() || process.env.AWS_REGION?.trim() || process.env.AWS_DEFAULT_REGION?.trim() || 'us-east-1' },
      });
    case 'anthropic-vertex':
      // Vertex AI takes no key: the credentials come from Google Cloud's chain when a request is made.
      return new AnthropicProvider({ ...common, keySource: VERTEX_CREDENTIALS, vertex: vertexLocation(config, CLAUDE_CODE_VERTEX_VARIABLES) });
    case 'azure-openai':
      if (!baseUrl) {
        throw new ProviderError(
          "Azure OpenAI needs the resource's endpoint, e.g. https://my-resource.openai.azure.com. Set it with --base-url or in Smith's settings.",
        );
      }
      return openAiProvider(
        {
          id: config.provider,
          apiKey: requireKey(apiKey, entry.label, envVar),
          ...common,
          ...(config.apiVersion ? { apiVersion: config.apiVersion } : {}),
        },
        config,
      );
    case 'openai':
    case 'openai-compatible':
      if (entry.baseUrlRequired && !baseUrl) {
        throw new ProviderError(
          "The openai-compatible provider needs the server's base URL, e.g. http://localhost:11434/v1 for Ollama " +
            "or http://localhost:1234/v1 for LM Studio. Set it with --base-url or in Smith's settings.",
        );
      }
      // Local servers need no key; a key set for them is still sent (vLLM with --api-key, a proxy).
      return openAiProvider({ id: config.provider, apiKey: entry.keyRequired ? requireKey(apiKey, entry.label, envVar) : apiKey, ...common }, config);
  }
}

/** A provider speaking the OpenAI API the model needs: Chat Completions, or the Responses API (see openAiApiFor). */
function openAiProvider(options: ConstructorParameters<typeof OpenAiProvider>[0], config: ProviderConfig): ApiProvider {
  const api = openAiApiFor(config.provider, options.model, config.openAiApi);
  return api === 'responses' ? new OpenAiResponsesProvider(options) : new OpenAiProvider(options);
}

/** Builds the provider of a mode's own API profile; a ProviderError says it is that profile that needs fixing. */
export function createModeProvider(mode: 'plan' | 'act', config: ProviderConfig, build: (config: ProviderConfig) => ApiProvider = createProvider): ApiProvider {
  try {
    return build(config);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    throw new ProviderError(`${mode === 'plan' ? 'Plan' : 'Act'} mode's API profile: ${error.message}`, error.status, error.retryable);
  }
}

function requireKey(apiKey: string | undefined, vendor: string, envVar: string): string {
  if (apiKey) return apiKey;
  throw new ProviderError(`No API key for ${vendor}. Set the ${envVar} environment variable (or the API key in Smith's settings).`);
}

// The variables Claude Code and Anthropic's Vertex SDK read, taken after Google Cloud's own.
const CLAUDE_CODE_VERTEX_VARIABLES = { project: 'ANTHROPIC_VERTEX_PROJECT_ID', location: 'CLOUD_ML_REGION' };

/**
 * Vertex AI's project and region: from the settings, else Google Cloud's own variables (which its
 * SDKs and gcloud read too), else `alsoRead`; a ProviderError names them when they are missing.
 */
function vertexLocation(config: ProviderConfig, alsoRead?: { project: string; location: string }): { project: string; location: string } {
  const env = (name: string | undefined) => (name ? process.env[name]?.trim() : undefined) || undefined;
  const project = config.project?.trim() || env('GOOGLE_CLOUD_PROJECT') || env(alsoRead?.project);
  const location = config.location?.trim() || env('GOOGLE_CLOUD_LOCATION') || env(alsoRead?.location);
  if (project && location) return { project, location };
  const label = providerEntry(config.provider).label;
  const missing = [
    project ? undefined : 'project (GOOGLE_CLOUD_PROJECT)',
    location ? undefined : 'region (GOOGLE_CLOUD_LOCATION, e.g. us-central1 or global)',
  ].filter(Boolean);
  const express = config.provider === 'vertex-gemini' ? ', or VERTEX_API_KEY for Vertex AI express mode' : '';
  throw new ProviderError(`${label} needs the Google Cloud ${missing.join(' and the ')}. Set the variable${express}.`);
}
