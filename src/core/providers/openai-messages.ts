import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { normalizeConversation, splitToolResults, toolImagesLabel } from './message-conversion.js';
import type { ToolCallAccumulator } from './tool-call-accumulator.js';
import type { Base64Image, ContentPart, ProviderMessage, ToolDefinition, ToolResultPart } from './types.js';

/**
 * The conversation in Chat Completions shape: a tool call is an assistant `tool_calls` entry and
 * its result a `role: 'tool'` message right after it; text of the same user turn follows them.
 * Tool messages cannot hold images, so a result's images go in that following user message, as
 * `image_url` data URLs after a line naming the call.
 */
export function toOpenAiMessages(systemPrompt: string, conversation: readonly ProviderMessage[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (systemPrompt) messages.push({ role: 'system', content: systemPrompt });
  for (const message of normalizeConversation(conversation)) {
    const { content } = message;
    if (typeof content === 'string') {
      messages.push({ role: message.role, content });
    } else if (message.role === 'assistant') {
      const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n');
      const toolCalls: ChatCompletionMessageFunctionToolCall[] = content.flatMap((p) =>
        p.type === 'tool_use' ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: JSON.stringify(p.input) } }] : [],
      );
      messages.push({ role: 'assistant', content: text || null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
    } else {
      const { results, text } = splitToolResults(content);
      for (const result of results) {
        // Chat Completions has no error flag on tool messages, so the text says it.
        messages.push({ role: 'tool', tool_call_id: result.toolUseId, content: result.isError ? `Error: ${result.content}` : result.content });
      }
      const withImages = userPartsWithImages(results, content);
      if (withImages) messages.push({ role: 'user', content: withImages });
      else if (text) messages.push({ role: 'user', content: text });
    }
  }
  return messages;
}

/** A user turn's images (its results' first, labelled) and text as content parts; undefined when it has no image, so text stays a string. */
function userPartsWithImages(results: readonly ToolResultPart[], content: readonly ContentPart[]): ChatCompletionContentPart[] | undefined {
  if (!results.some((r) => r.images?.length) && !content.some((p) => p.type === 'image')) return undefined;
  const parts: ChatCompletionContentPart[] = results.flatMap((result) =>
    result.images?.length ? [{ type: 'text' as const, text: toolImagesLabel(result, result.toolUseId) }, ...result.images.map(imageUrlPart)] : [],
  );
  for (const part of content) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'image') parts.push(imageUrlPart(part));
  }
  return parts;
}

function imageUrlPart(image: Base64Image): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

/** The tool definitions as Chat Completions function tools. */
export function toOpenAiTools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters as unknown as Record<string, unknown> },
  }));
}

/**
 * Feeds one chunk's `delta.tool_calls` to the accumulator. Some compatible servers leave out
 * `index`: a new id then starts a call, anything else continues the latest one.
 */
export function addOpenAiToolCallDeltas(
  accumulator: ToolCallAccumulator,
  deltas: ChatCompletionChunk.Choice.Delta['tool_calls'],
  state: { last: number; lastId?: string },
): void {
  for (const delta of deltas ?? []) {
    let index: number;
    if (typeof delta.index === 'number') index = delta.index;
    else if (state.last < 0 || (delta.id && delta.id !== state.lastId)) index = state.last + 1;
    else index = state.last;
    if (delta.id) state.lastId = delta.id;
    state.last = Math.max(state.last, index);
    // Some compatible servers send the arguments as an object instead of JSON text.
    const args: unknown = delta.function?.arguments;
    accumulator.add(index, {
      id: delta.id,
      name: delta.function?.name,
      arguments: typeof args === 'string' || args == null ? (args as string | null | undefined) : JSON.stringify(args),
    });
  }
}
