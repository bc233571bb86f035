import type { ModelListing } from '../../shared/providers.js';

/** What is known about one model a provider offers; a field is absent where nobody said. */
export interface ModelFacts {
  readonly id: string;
  /** The model's name for people where the provider gives one beside the id (VS Code's language models). */
  readonly name?: string;
  /** Prompt + output tokens the model accepts in one request. */
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  /** US dollars per million input and output tokens. */
  readonly inputPrice?: number;
  readonly outputPrice?: number;
  /** US dollars per million tokens read from / written to the prompt cache. */
  readonly cacheReadPrice?: number;
  readonly cacheWritePrice?: number;
  readonly supportsImages?: boolean;
  readonly supportsReasoning?: boolean;
  /** The model takes native tool calls (OpenAI `tools`). */
  readonly supportsTools?: boolean;
  /** Nobody described this model: its facts are the catalogue's for this model of the same family. */
  readonly inferredFrom?: string;
}

const PER_MILLION = 1_000_000;

/**
 * The facts in one entry of a `/models` answer, read the way each service writes them: OpenRouter
 * (`context_length`, per-token `pricing` strings, `architecture.input_modalities`,
 * `supported_parameters`), Together (`context_length`, `pricing` per million), Groq
 * (`context_window`, `max_completion_tokens`), Mistral (`max_context_length`, `capabilities`),
 * vLLM (`max_model_len`), Fireworks (`context_length`, `supports_image_input`, `supports_tools`).
 * Returns undefined for an entry without an id. Other fields are ignored; a value of the wrong type
 * is left out rather than trusted.
 */
function factsFromModelEntry(entry: unknown, listing: ModelListing): ModelFacts | undefined {
  if (!isRecord(entry) || typeof entry.id !== 'string' || entry.id.trim() === '') return undefined;
  const topProvider = isRecord(entry.top_provider) ? entry.top_provider : {};
  const capabilities = isRecord(entry.capabilities) ? entry.capabilities : {};
  const parameters = stringList(entry.supported_parameters);
  const inputModalities = isRecord(entry.architecture) ? stringList(entry.architecture.input_modalities) : undefined;
  const pricing = isRecord(entry.pricing) ? entry.pricing : undefined;
  return compact({
    id: entry.id,
    contextWindow: firstCount(entry.context_length, entry.context_window, entry.max_context_length, entry.max_model_len, topProvider.context_length),
    maxOutputTokens: firstCount(topProvider.max_completion_tokens, entry.max_completion_tokens, entry.max_output_tokens),
    ...(pricing && listing === 'openrouter' ? openRouterPrices(pricing) : {}),
    ...(pricing && listing === 'together' ? { inputPrice: price(pricing.input, 1), outputPrice: price(pricing.output, 1) } : {}),
    supportsImages: inputModalities ? inputModalities.includes('image') : flag(capabilities.vision, entry.supports_image_input),
    supportsTools: parameters ? parameters.includes('tools') : flag(capabilities.function_calling, entry.supports_tools),
    supportsReasoning: parameters ? parameters.includes('reasoning') || parameters.includes('include_reasoning') : undefined,
  });
}

/** The facts in an OpenAI-style `/models` body (`{data: [...]}`, or Together's bare array). Throws on anything else. */
export function factsFromModelList(body: unknown, listing: ModelListing): ModelFacts[] {
  const entries = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.data) ? body.data : undefined;
  if (!entries) throw new TypeError('expected a list of models ({"data": [...]})');
  return entries.map((entry) => factsFromModelEntry(entry, listing)).filter((facts): facts is ModelFacts => facts !== undefined);
}

/**
 * The facts in Ollama's `/api/show` answer: the window is the `num_ctx` the model is set up with
 * (what Ollama actually serves), else the model's trained `<architecture>.context_length`;
 * `capabilities` names vision, tools and thinking. A local model costs nothing.
 */
export function factsFromOllamaShow(id: string, body: unknown): ModelFacts {
  if (!isRecord(body)) throw new TypeError('expected a JSON object');
  const info = isRecord(body.model_info) ? body.model_info : {};
  const architecture = typeof info['general.architecture'] === 'string' ? info['general.architecture'] : undefined;
  const numCtx = typeof body.parameters === 'string' ? /^\s*num_ctx\s+(\d+)\s*$/m.exec(body.parameters)?.[1] : undefined;
  const capabilities = stringList(body.capabilities);
  return compact({
    id,
    contextWindow: firstCount(numCtx === undefined ? undefined : Number(numCtx), architecture ? info[`${architecture}.context_length`] : undefined),
    inputPrice: 0,
    outputPrice: 0,
    supportsImages: capabilities?.includes('vision'),
    supportsTools: capabilities?.includes('tools'),
    supportsReasoning: capabilities?.includes('thinking'),
  });
}

/** The model names in Ollama's `/api/tags` answer. */
export function namesFromOllamaTags(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.models)) throw new TypeError('expected {"models": [...]}');
  return body.models.flatMap((model) => (isRecord(model) && typeof model.name === 'string' ? [model.name] : []));
}

/**
 * The facts in LM Studio's `/api/v0/models` answer: the loaded context length when the model is
 * loaded, else its maximum; `vlm` models take images; `tool_use` among the capabilities. Embedding
 * models are left out. A local model costs nothing.
 */
export function factsFromLmStudio(body: unknown): ModelFacts[] {
  if (!isRecord(body) || !Array.isArray(body.data)) throw new TypeError('expected {"data": [...]}');
  return body.data.flatMap((entry) => {
    if (!isRecord(entry) || typeof entry.id !== 'string' || entry.type === 'embeddings') return [];
    const capabilities = stringList(entry.capabilities);
    return [
      compact({
        id: entry.id,
        contextWindow: firstCount(entry.loaded_context_length, entry.max_context_length),
        inputPrice: 0,
        outputPrice: 0,
        supportsImages: entry.type === 'vlm',
        supportsTools: capabilities ? capabilities.includes('tool_use') : undefined,
      }),
    ];
  });
}

/** True when the facts say something a task can use: the window, both prices, or that it takes images. */
export function hasUsefulFacts(facts: ModelFacts): boolean {
  return facts.contextWindow !== undefined || (facts.inputPrice !== undefined && facts.outputPrice !== undefined) || facts.supportsImages === true;
}

// OpenRouter prices are US dollars per token, as decimal strings ("0.000003"); "-1" marks a router
// whose price depends on the model it picks.
function openRouterPrices(pricing: Record<string, unknown>): Partial<ModelFacts> {
  return {
    inputPrice: price(pricing.prompt, PER_MILLION),
    outputPrice: price(pricing.completion, PER_MILLION),
    cacheReadPrice: price(pricing.input_cache_read, PER_MILLION),
    cacheWritePrice: price(pricing.input_cache_write, PER_MILLION),
  };
}

function price(value: unknown, perMillion: number): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  // Rounded so 0.000003 × 1e6 reads 3, not 2.9999999999999996.
  return Math.round(n * perMillion * 1e6) / 1e6;
}

function firstCount(...values: unknown[]): number | undefined {
  for (const value of values) {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

function flag(...values: unknown[]): boolean | undefined {
  return values.find((value): value is boolean => typeof value === 'boolean');
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The facts without the fields nobody gave. */
function compact(facts: { id: string } & { [K in Exclude<keyof ModelFacts, 'id'>]?: ModelFacts[K] | undefined }): ModelFacts {
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) as unknown as ModelFacts;
}
