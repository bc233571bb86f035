// The providers Smith speaks, in the order lists show them (the hosted vendors, the hosted
// OpenAI-compatible services, the local servers, any OpenAI-compatible server, then the models the
// editor itself offers). The one place
// that names them: the engine's ids, the CLI's flags and help, the settings, the panel's schemas
// and setup form all derive from this list.

/** Which SDK client a provider is spoken to with. */
type ProviderApi =
  | 'anthropic'
  | 'anthropic-vertex'
  | 'anthropic-bedrock'
  | 'openai'
  | 'gemini'
  | 'gemini-vertex'
  | 'openai-compatible'
  | 'azure-openai'
  | 'vscode-lm';

/**
 * Where a provider's model list and model facts come from: `openai` is GET /models (ids, and the
 * window or capabilities where the vendor adds them); `openrouter` and `together` add prices in
 * their own units; `ollama` and `lmstudio` are the servers' native APIs beside /v1; `catalogue`
 * means Smith's own catalogue only; `editor` means the editor lists them (VS Code's language models),
 * so only the extension can.
 */
export type ModelListing = 'openai' | 'openrouter' | 'together' | 'ollama' | 'lmstudio' | 'catalogue' | 'editor';

/** One provider: its id, its name for people, its endpoint, where its key comes from, its default model. */
export interface ProviderEntry {
  readonly id: string;
  readonly label: string;
  readonly api: ProviderApi;
  /** The environment variable the key falls back to (the CLI's, and the extension's when none is stored); '' for a provider that takes no key. */
  readonly keyEnvVar: string;
  /** False for servers that run without a key (local ones); a key is sent when one is set. */
  readonly keyRequired: boolean;
  /** The base URL used when none is configured; '' means the SDK's own default, or (with `baseUrlRequired`) that the user must give one. */
  readonly baseUrl: string;
  /** The user must give the address (an arbitrary server, an Azure resource). */
  readonly baseUrlRequired: boolean;
  /**
   * The model used when none is configured; '' where the models depend on the server (or the Azure
   * deployment), or where the editor picks its first model (see `needsModel`).
   */
  readonly defaultModel: string;
  readonly models: ModelListing;
  /** Runs on the user's own machine: its models cost nothing. */
  readonly local: boolean;
}

const HOSTED = { keyRequired: true, baseUrlRequired: false, local: false } as const;
const LOCAL = { keyRequired: false, baseUrlRequired: false, local: true } as const;

export const PROVIDERS = [
  {
    id: 'anthropic',
    label: 'Anthropic',
    api: 'anthropic',
    keyEnvVar: 'ANTHROPIC_API_KEY',
    baseUrl: '',
    defaultModel: 'claude-sonnet-4-5',
    models: 'catalogue',
    ...HOSTED,
  },
  // No key: Google Cloud's credentials, found from the file GOOGLE_APPLICATION_CREDENTIALS names (or
  // gcloud's application default login, or a metadata server).
  // AWS's credential chain (environment, ~/.aws profiles, SSO, instance roles) signs each request;
  // AWS_BEARER_TOKEN_BEDROCK is a Bedrock API key instead.
  {
    id: 'bedrock',
    label: 'Claude on Amazon Bedrock',
    api: 'anthropic-bedrock',
    keyEnvVar: 'AWS_BEARER_TOKEN_BEDROCK',
    baseUrl: '',
    defaultModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    models: 'catalogue',
    ...HOSTED,
    keyRequired: false,
  },
  {
    id: 'vertex-anthropic',
    label: 'Claude on Vertex AI',
    api: 'anthropic-vertex',
    keyEnvVar: 'GOOGLE_APPLICATION_CREDENTIALS',
    baseUrl: '',
    defaultModel: 'claude-sonnet-4-5@20250929',
    models: 'catalogue',
    ...HOSTED,
    keyRequired: false,
  },
  { id: 'openai', label: 'OpenAI', api: 'openai', keyEnvVar: 'OPENAI_API_KEY', baseUrl: '', defaultModel: 'gpt-4.1', models: 'openai', ...HOSTED },
  {
    id: 'gemini',
    label: 'Google Gemini',
    api: 'gemini',
    keyEnvVar: 'GEMINI_API_KEY',
    baseUrl: '',
    defaultModel: 'gemini-2.5-pro',
    models: 'catalogue',
    ...HOSTED,
  },
  // Google Cloud's credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's application default login, a
  // metadata server) rather than a key; VERTEX_API_KEY is Vertex AI's express mode.
  {
    id: 'vertex-gemini',
    label: 'Gemini on Vertex AI',
    api: 'gemini-vertex',
    keyEnvVar: 'VERTEX_API_KEY',
    baseUrl: '',
    defaultModel: 'gemini-2.5-pro',
    models: 'catalogue',
    ...HOSTED,
    keyRequired: false,
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    api: 'openai-compatible',
    keyEnvVar: 'OPENROUTER_API_KEY',
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'anthropic/claude-sonnet-4.5',
    models: 'openrouter',
    ...HOSTED,
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    api: 'openai-compatible',
    keyEnvVar: 'DEEPSEEK_API_KEY',
    baseUrl: 'https://api.deepseek.com/v1',
    defaultModel: 'deepseek-chat',
    models: 'openai',
    ...HOSTED,
  },
  {
    id: 'groq',
    label: 'Groq',
    api: 'openai-compatible',
    keyEnvVar: 'GROQ_API_KEY',
    baseUrl: 'https://api.groq.com/openai/v1',
    defaultModel: 'llama-3.3-70b-versatile',
    models: 'openai',
    ...HOSTED,
  },
  {
    id: 'mistral',
    label: 'Mistral',
    api: 'openai-compatible',
    keyEnvVar: 'MISTRAL_API_KEY',
    baseUrl: 'https://api.mistral.ai/v1',
    defaultModel: 'mistral-large-latest',
    models: 'openai',
    ...HOSTED,
  },
  {
    id: 'xai',
    label: 'xAI (Grok)',
    api: 'openai-compatible',
    keyEnvVar: 'XAI_API_KEY',
    baseUrl: 'https://api.x.ai/v1',
    defaultModel: 'grok-4',
    models: 'openai',
    ...HOSTED,
  },
  {
    id: 'together',
    label: 'Together AI',
    api: 'openai-compatible',
    keyEnvVar: 'TOGETHER_API_KEY',
    baseUrl: 'https://api.together.xyz/v1',
    defaultModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    models: 'together',
    ...HOSTED,
  },
  {
    id: 'fireworks',
    label: 'Fireworks AI',
    api: 'openai-compatible',
    keyEnvVar: 'FIREWORKS_API_KEY',
    baseUrl: 'https://api.fireworks.ai/inference/v1',
    defaultModel: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
    models: 'openai',
    ...HOSTED,
  },
  {
    id: 'cerebras',
    label: 'Cerebras',
    api: 'openai-compatible',
    keyEnvVar: 'CEREBRAS_API_KEY',
    baseUrl: 'https://api.cerebras.ai/v1',
    defaultModel: 'gpt-oss-120b',
    models: 'openai',
    ...HOSTED,
  },
  {
    id: 'azure-openai',
    label: 'Azure OpenAI',
    api: 'azure-openai',
    keyEnvVar: 'AZURE_OPENAI_API_KEY',
    baseUrl: '',
    defaultModel: '',
    models: 'catalogue',
    ...HOSTED,
    baseUrlRequired: true,
  },
  {
    id: 'ollama',
    label: 'Ollama',
    api: 'openai-compatible',
    keyEnvVar: 'OLLAMA_API_KEY',
    baseUrl: 'http://localhost:11434/v1',
    defaultModel: '',
    models: 'ollama',
    ...LOCAL,
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    api: 'openai-compatible',
    keyEnvVar: 'LMSTUDIO_API_KEY',
    baseUrl: 'http://localhost:1234/v1',
    defaultModel: '',
    models: 'lmstudio',
    ...LOCAL,
  },
  {
    id: 'vllm',
    label: 'vLLM',
    api: 'openai-compatible',
    keyEnvVar: 'VLLM_API_KEY',
    baseUrl: 'http://localhost:8000/v1',
    defaultModel: '',
    models: 'openai',
    keyRequired: false,
    baseUrlRequired: false,
    local: false,
  },
  {
    id: 'openai-compatible',
    label: 'OpenAI-compatible',
    api: 'openai-compatible',
    keyEnvVar: 'SMITH_API_KEY',
    baseUrl: '',
    defaultModel: '',
    models: 'openai',
    keyRequired: false,
    baseUrlRequired: true,
    local: false,
  },
  // The models other extensions give VS Code (Copilot's, any registered language model): no key, no
  // address, billed by the extension that provides them. Only the extension can reach them.
  {
    id: 'vscode-lm',
    label: 'VS Code language models',
    api: 'vscode-lm',
    keyEnvVar: '',
    baseUrl: '',
    defaultModel: '',
    models: 'editor',
    keyRequired: false,
    baseUrlRequired: false,
    local: false,
  },
] as const satisfies readonly ProviderEntry[];

/** A provider's id. */
export type ProviderId = (typeof PROVIDERS)[number]['id'];

/** Every provider id, in list order. */
export const PROVIDER_IDS: readonly [ProviderId, ...ProviderId[]] = PROVIDERS.map((p) => p.id) as [ProviderId, ...ProviderId[]];

/** The environment variable each provider's key falls back to. */
export const API_KEY_ENV_VARS: Readonly<Record<ProviderId, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.keyEnvVar])) as Record<
  ProviderId,
  string
>;

/** The model used when none is configured, per provider. */
export const DEFAULT_MODELS: Readonly<Record<ProviderId, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.defaultModel])) as Record<
  ProviderId,
  string
>;

/** True for a string that names a provider. */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}

/** The registry's entry for a provider. */
export function providerEntry(id: ProviderId): ProviderEntry {
  return PROVIDERS.find((p) => p.id === id)!;
}

/** False where the editor lists the models: without a model named, its first one answers. */
export function needsModel(id: ProviderId): boolean {
  return providerEntry(id).models !== 'editor';
}
