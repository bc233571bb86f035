import type { Content, FunctionDeclaration, Part } from '@google/genai';
import { normalizeConversation, toolImagesLabel } from './message-conversion.js';
import { isSyntheticToolCallId } from './tool-call-accumulator.js';
import type { Base64Image, ContentPart, ProviderMessage, ToolDefinition } from './types.js';

/**
 * The conversation as Gemini contents: a native tool call is a `functionCall` part of a model
 * turn (with its thought signature, which Gemini 3 requires back) and its result a
 * `functionResponse` part of the next user turn, before any text. Images are `inlineData` parts;
 * a result's images follow the function responses, after a line naming the call.
 */
export function toGeminiContents(conversation: readonly ProviderMessage[]): Content[] {
  return normalizeConversation(conversation).map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    parts: typeof message.content === 'string' ? [{ text: message.content }] : geminiParts(message.content),
  }));
}

function geminiParts(content: readonly ContentPart[]): Part[] {
  const parts = content.flatMap(toPart);
  const images = content.flatMap((p) => (p.type === 'tool_result' && p.images?.length ? [{ text: toolImagesLabel(p) }, ...p.images.map(inlineData)] : []));
  if (images.length === 0) return parts;
  // Gemini pairs responses with calls by position, so the responses stay together, first.
  const afterResponses = parts.findIndex((p) => p.functionResponse === undefined);
  parts.splice(afterResponses === -1 ? parts.length : afterResponses, 0, ...images);
  return parts;
}

// Gemini takes fewer image types than the others (no GIF).
const GEMINI_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);

function inlineData(image: Base64Image): Part {
  if (!GEMINI_IMAGE_TYPES.has(image.mimeType)) return { text: `[An ${image.mimeType} image was left out: Gemini does not accept that type.]` };
  return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

/** The tool definitions as Gemini function declarations (plain JSON schema). */
export function toGeminiFunctionDeclarations(tools: readonly ToolDefinition[]): FunctionDeclaration[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters }));
}

function toPart(part: ContentPart): Part[] {
  // Ids Gemini gave are sent back; ids Smith made up for Gemini's id-less calls are not its business.
  const id = (toolUseId: string) => (isSyntheticToolCallId(toolUseId) ? {} : { id: toolUseId });
  switch (part.type) {
    case 'text':
      return [{ text: part.text }];
    case 'image':
      return [inlineData(part)];
    case 'thinking':
    case 'redacted_thinking':
    case 'reasoning_item':
      return []; // another vendor's signed reasoning means nothing to Gemini
    case 'tool_use':
      return [{ functionCall: { name: part.name, args: part.input, ...id(part.id) }, ...(part.signature ? { thoughtSignature: part.signature } : {}) }];
    case 'tool_result':
      return [{ functionResponse: { name: part.name, response: part.isError ? { error: part.content } : { output: part.content }, ...id(part.toolUseId) } }];
  }
}
