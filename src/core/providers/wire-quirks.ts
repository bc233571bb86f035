import type { ProviderId } from './types.js';

/** How one OpenAI-compatible service departs from OpenAI's own chat completions API. */
export interface WireQuirks {
  /** Headers every request carries (OpenRouter's app attribution). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The service refuses `stream_options` (Mistral answers 422) and reports usage in its last chunk anyway. */
  readonly noStreamOptions?: boolean;
  /** How reasoning effort is asked for: OpenAI's `reasoning_effort`, OpenRouter's `reasoning: {effort}`, or not at all. */
  readonly reasoning?: 'reasoning_effort' | 'openrouter' | 'none';
  /** The output cap is `max_completion_tokens` (OpenAI's reasoning models refuse `max_tokens`), not `max_tokens`. */
  readonly maxCompletionTokens?: boolean;
}

// Only the departures; a service not named here speaks OpenAI's API as most compatible servers do
// (`max_tokens`, `stream_options`, `reasoning_effort`). Groq's usage in `x_groq.usage` and
// DeepSeek's `prompt_cache_hit_tokens` are read for every server, as they cannot be confused.
const QUIRKS: Partial<Record<ProviderId, WireQuirks>> = {
  openai: { maxCompletionTokens: true },
  'azure-openai': { maxCompletionTokens: true },
  openrouter: { headers: { 'X-Title': 'Smith' }, reasoning: 'openrouter' },
  mistral: { noStreamOptions: true, reasoning: 'none' },
  deepseek: { reasoning: 'none' },
};

/** The wire quirks of a provider (none for a plain OpenAI-compatible server). */
export function wireQuirks(provider: ProviderId): WireQuirks {
  return QUIRKS[provider] ?? {};
}
