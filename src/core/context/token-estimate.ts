import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { messageText } from '../providers/message-conversion.js';
import type { ProviderMessage } from '../providers/types.js';

/** Per-message overhead of the chat formats (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

/** Tokens of a text by the o200k tokenizer: close enough for every vendor to plan a budget. */
export function estimateTextTokens(text: string): number {
  return text === '' ? 0 : countTokens(text);
}

/** Tokens a request will take before the model answers. */
export function estimateRequestTokens(systemPrompt: string, messages: readonly ProviderMessage[]): number {
  return messages.reduce((sum, m) => sum + MESSAGE_OVERHEAD + estimateTextTokens(messageText(m)), estimateTextTokens(systemPrompt));
}
