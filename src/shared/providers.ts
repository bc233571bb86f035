// The providers Smith speaks, in the order lists show them (the hosted vendors, then any
// OpenAI-compatible server). The one place that names them: the
// engine's ids, the CLI's flags and help, the settings, the panel's schemas and setup form all
// derive from this list.

/** One provider: its id, its name for people, where its key comes from, its default model. */
export interface ProviderEntry {
  readonly id: string;
  readonly label: string;
  /** The environment variable the key falls back to (the CLI's, and the extension's when none is stored). */
  readonly keyEnvVar: string;
  /** The model used when none is configured; '' for openai-compatible, whose models depend on the server. */
  readonly defaultModel: string;
}

export const PROVIDERS = [
  { id: 'anthropic', label: 'Anthropic', keyEnvVar: 'ANTHROPIC_API_KEY', defaultModel: 'claude-sonnet-4-5' },
  { id: 'openai', label: 'OpenAI', keyEnvVar: 'OPENAI_API_KEY', defaultModel: 'gpt-4.1' },
  { id: 'gemini', label: 'Google Gemini', keyEnvVar: 'GEMINI_API_KEY', defaultModel: 'gemini-2.5-pro' },
  { id: 'openai-compatible', label: 'OpenAI-compatible', keyEnvVar: 'SMITH_API_KEY', defaultModel: '' },
] as const satisfies readonly ProviderEntry[];

/** A provider's id. */
export type ProviderId = (typeof PROVIDERS)[number]['id'];

/** Every provider id, in list order. */
export const PROVIDER_IDS: readonly [ProviderId, ...ProviderId[]] = PROVIDERS.map((p) => p.id) as [ProviderId, ...ProviderId[]];

/** The environment variable each provider's key falls back to. */
export const API_KEY_ENV_VARS: Readonly<Record<ProviderId, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.keyEnvVar])) as Record<ProviderId, string>;

/** The model used when none is configured, per provider. */
export const DEFAULT_MODELS: Readonly<Record<ProviderId, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.defaultModel])) as Record<ProviderId, string>;

/** True for a string that names a provider. */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}
