import type * as AnthropicSdk from './lazy/anthropic-sdk.js';
import type * as GeminiSdk from './lazy/gemini-sdk.js';
import type * as OpenAiSdk from './lazy/openai-sdk.js';

// The vendors' SDKs are loaded when the first provider of their kind is made, each from its own
// bundle (see scripts/lazy-modules.mjs): together they are most of Smith's code, and opening the
// panel or listing models needs none of them.

/** @anthropic-ai/sdk with its Bedrock and Vertex AI clients, and google-auth-library. */
export function anthropicSdk(): typeof AnthropicSdk {
  return require('./lazy/anthropic-sdk.js');
}

/** The openai package. */
export function openAiSdk(): typeof OpenAiSdk {
  return require('./lazy/openai-sdk.js');
}

/** @google/genai. */
export function geminiSdk(): typeof GeminiSdk {
  return require('./lazy/gemini-sdk.js');
}
