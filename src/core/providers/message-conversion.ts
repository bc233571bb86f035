import { ProviderError } from './types.js';
import type { ProviderMessage } from './types.js';

/** Stands in for a user turn when the history starts with the assistant (Anthropic rejects that). */
export const CONTINUATION_PLACEHOLDER = '[The conversation continues from an earlier point.]';

/**
 * Makes a conversation every vendor accepts: empty messages dropped, consecutive messages of
 * one role merged (Anthropic requires strict alternation), and a user turn first.
 */
export function normalizeConversation(messages: readonly ProviderMessage[]): ProviderMessage[] {
  const result: Array<{ role: ProviderMessage['role']; content: string }> = [];
  for (const message of messages) {
    // Empty text blocks are a 400 at Anthropic and carry nothing, so dropping them loses nothing.
    if (message.content.trim() === '') continue;
    const last = result[result.length - 1];
    if (last && last.role === message.role) last.content = `${last.content}\n\n${message.content}`;
    else result.push({ role: message.role, content: message.content });
  }
  if (result.length === 0) {
    throw new ProviderError('There is nothing to send: the conversation has no non-empty messages.');
  }
  if (result[0].role !== 'user') result.unshift({ role: 'user', content: CONTINUATION_PLACEHOLDER });
  return result;
}
