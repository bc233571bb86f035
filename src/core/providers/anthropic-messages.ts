import type { Base64ImageSource, ContentBlockParam, ImageBlockParam, MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Base64Image, ContentPart, ProviderMessage, ToolDefinition, ToolResultPart } from './types.js';

// How many of the latest user messages get a cache breakpoint: the newest one caches the whole
// prompt for the next turn, the one before is where this turn's cache read starts (Cline, Roo Code).
const CACHED_USER_MESSAGES = 2;
const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * The (already normalised) conversation in Messages API shape: native tool calls become
 * `tool_use` blocks and their results `tool_result` blocks (a result's images inside it), images
 * base64 `image` blocks; with caching on, the last user messages carry a cache breakpoint on
 * their last block.
 */
export function toAnthropicMessages(conversation: readonly ProviderMessage[], promptCache: boolean): MessageParam[] {
  const cached = new Set<number>();
  for (let i = conversation.length - 1; i >= 0 && promptCache && cached.size < CACHED_USER_MESSAGES; i--) {
    if (conversation[i]!.role === 'user') cached.add(i);
  }
  return conversation.map((message, i) => {
    if (typeof message.content === 'string') {
      return cached.has(i)
        ? { role: message.role, content: [{ type: 'text', text: message.content, cache_control: EPHEMERAL }] }
        : { role: message.role, content: message.content };
    }
    const blocks = message.content.flatMap(toBlock);
    if (cached.has(i) && blocks.length > 0) {
      const last = blocks[blocks.length - 1]!;
      blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL } as ContentBlockParam;
    }
    return { role: message.role, content: blocks };
  });
}

/** The tool definitions as Messages API tools. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', properties: tool.parameters.properties, required: [...tool.parameters.required] },
  }));
}

function toBlock(part: ContentPart): ContentBlockParam[] {
  switch (part.type) {
    case 'text':
      return [{ type: 'text', text: part.text }];
    case 'image':
      return [imageBlock(part)];
    case 'thinking':
      return [{ type: 'thinking', thinking: part.text, signature: part.signature }];
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: part.data }];
    case 'reasoning_item':
      return []; // OpenAI's encrypted reasoning means nothing to Claude
    case 'tool_use':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: part.input }];
    case 'tool_result':
      return [{ type: 'tool_result', tool_use_id: part.toolUseId, content: toolResultContent(part), ...(part.isError ? { is_error: true } : {}) }];
  }
}

/** A result's text, or text and image blocks when it has images (the Messages API takes both inside tool_result). */
function toolResultContent(part: ToolResultPart): string | Array<TextBlockParam | ImageBlockParam> {
  if (!part.images?.length) return part.content;
  // An empty text block is a 400, so a result with only images has none.
  const text: TextBlockParam[] = part.content.trim() ? [{ type: 'text', text: part.content }] : [];
  return [...text, ...part.images.map(imageBlock)];
}

function imageBlock(image: Base64Image): ImageBlockParam {
  // Only the types the API accepts reach here: tool images are filtered when they are logged.
  return { type: 'image', source: { type: 'base64', media_type: image.mimeType as Base64ImageSource['media_type'], data: image.data } };
}
