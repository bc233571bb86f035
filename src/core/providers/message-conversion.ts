import { ProviderError } from './types.js';
import type { ContentPart, ImagePart, ProviderMessage, SignedReasoningPart, ToolResultPart } from './types.js';

/** Stands in for a user turn when the history starts with the assistant (Anthropic rejects that). */
export const CONTINUATION_PLACEHOLDER = '[The conversation continues from an earlier point.]';

/**
 * Makes a conversation every vendor accepts: empty messages dropped, consecutive messages of
 * one role merged (Anthropic requires strict alternation), and a user turn first. Text-only
 * messages stay strings.
 */
export function normalizeConversation(messages: readonly ProviderMessage[]): ProviderMessage[] {
  const result: Array<{ role: ProviderMessage['role']; content: string | readonly ContentPart[] }> = [];
  for (const message of messages) {
    // Empty text blocks are a 400 at Anthropic and carry nothing, so dropping them loses nothing.
    const content = withoutEmptyText(message.content);
    if (isEmpty(content)) continue;
    const last = result[result.length - 1];
    if (last && last.role === message.role) last.content = merge(last.content, content);
    else result.push({ role: message.role, content });
  }
  if (result.length === 0) {
    throw new ProviderError('There is nothing to send: the conversation has no non-empty messages.');
  }
  if (result[0]?.role !== 'user') result.unshift({ role: 'user', content: CONTINUATION_PLACEHOLDER });
  return result;
}

/** The parts of a message, a string being one text part. */
function contentParts(content: ProviderMessage['content']): readonly ContentPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** A message's content as plain text, e.g. to estimate its tokens; images are left out (see messageImages). */
export function messageText(message: ProviderMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .flatMap((part) => {
      switch (part.type) {
        case 'text':
        case 'thinking':
          return [part.text];
        case 'reasoning_item':
          return part.summary;
        case 'redacted_thinking':
          return [];
        case 'image':
          return [];
        case 'tool_use':
          return [`${part.name} ${JSON.stringify(part.input)}`];
        case 'tool_result':
          return [part.content];
        default:
          // A new part type fails the type check here rather than vanishing from the text.
          return part satisfies never;
      }
    })
    .join('\n\n');
}

/** Every image a message carries, its tool results' images included. */
export function messageImages(message: ProviderMessage): ImagePart[] {
  if (typeof message.content === 'string') return [];
  return message.content.flatMap((part) => (part.type === 'image' ? [part] : part.type === 'tool_result' ? [...(part.images ?? [])] : []));
}

/** Whether a part is reasoning a vendor wants back unchanged (see SignedReasoningPart). */
export function isSignedReasoning(part: ContentPart): part is SignedReasoningPart {
  return part.type === 'thinking' || part.type === 'redacted_thinking' || part.type === 'reasoning_item';
}

/** Introduces a tool result's images where a vendor cannot put them inside the result itself. */
export function toolImagesLabel(result: ToolResultPart, callId?: string): string {
  const count = result.images?.length ?? 0;
  return `[${count === 1 ? 'Image' : `${count} images`} returned by the ${result.name} call${callId ? ` ${callId}` : ''}:]`;
}

/** Splits a user turn's parts into its tool results and the text that follows them. */
export function splitToolResults(parts: readonly ContentPart[]): { results: ToolResultPart[]; text: string } {
  const results = parts.filter((p): p is ToolResultPart => p.type === 'tool_result');
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n');
  return { results, text };
}

function withoutEmptyText(content: ProviderMessage['content']): ProviderMessage['content'] {
  if (typeof content === 'string') return content;
  return content.filter((p) => p.type !== 'text' || p.text.trim() !== '');
}

function isEmpty(content: ProviderMessage['content']): boolean {
  return typeof content === 'string' ? content.trim() === '' : content.length === 0;
}

function merge(a: ProviderMessage['content'], b: ProviderMessage['content']): ProviderMessage['content'] {
  if (typeof a === 'string' && typeof b === 'string') return `${a}\n\n${b}`;
  const parts = [...contentParts(a), ...contentParts(b)];
  // Tool results lead a user turn and signed reasoning leads an assistant turn (Anthropic's rules).
  const leads = (p: ContentPart) => p.type === 'tool_result' || isSignedReasoning(p);
  return [...parts.filter(leads), ...parts.filter((p) => !leads(p))];
}
