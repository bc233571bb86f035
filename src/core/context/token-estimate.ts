import type * as Tokenizer from './lazy/o200k-tokenizer.js';
import { messageImages, messageText } from '../providers/message-conversion.js';
import type { ProviderMessage } from '../providers/types.js';

/** Per-message overhead of the chat formats (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

/**
 * Tokens one image costs, whatever its bytes: vendors bill images by their pixels (Anthropic
 * about 1,600 for a 1,092×1,092 image, OpenAI and Gemini less), and tokenising the base64 would
 * count thousands of tokens the model never sees.
 */
export const IMAGE_TOKEN_ESTIMATE = 1_600;

// Every request re-counts the whole history, whose older messages are the same texts each time:
// counted once, they are looked up after (a lookup hashes the text, far cheaper than tokenising it).
const COUNTED_MAX_ENTRIES = 4_096;
const COUNTED_MIN_LENGTH = 512;
const counted = new Map<string, number>();

/** Tokens of a text by the o200k tokenizer: close enough for every vendor to plan a budget. */
export function estimateTextTokens(text: string): number {
  if (text === '') return 0;
  if (text.length < COUNTED_MIN_LENGTH) return tokenizer().countTokens(text);
  const known = counted.get(text);
  if (known !== undefined) return known;
  const tokens = tokenizer().countTokens(text);
  // Oldest first out: a Map iterates in insertion order.
  if (counted.size >= COUNTED_MAX_ENTRIES) counted.delete(counted.keys().next().value as string);
  counted.set(text, tokens);
  return tokens;
}

/** The o200k tokenizer, loaded on the first count: a separate bundle (see scripts/lazy-modules.mjs) of several megabytes. */
function tokenizer(): typeof Tokenizer {
  return require('./lazy/o200k-tokenizer.js');
}

/** Tokens a request will take before the model answers. */
export function estimateRequestTokens(systemPrompt: string, messages: readonly ProviderMessage[]): number {
  return messages.reduce(
    (sum, m) => sum + MESSAGE_OVERHEAD + estimateTextTokens(messageText(m)) + IMAGE_TOKEN_ESTIMATE * messageImages(m).length,
    estimateTextTokens(systemPrompt),
  );
}
