import type { Content, FunctionDeclaration, Part } from '@google/genai';
import { normalizeConversation } from './message-conversion.js';
import { isSyntheticToolCallId } from './tool-call-accumulator.js';
import type { ContentPart, ProviderMessage, ToolDefinition } from './types.js';

/**
 * The conversation as Gemini contents: a native tool call is a `functionCall` part of a model
 * turn (with its thought signature, which Gemini 3 requires back) and its result a
 * `functionResponse` part of the next user turn, before any text.
 */
export function toGeminiContents(conversation: readonly ProviderMessage[]): Content[] {
  return normalizeConversation(conversation).map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    parts: typeof message.content === 'string' ? [{ text: message.content }] : message.content.flatMap(toPart),
  }));
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
    case 'thinking':
      return []; // Anthropic's signed thinking means nothing to Gemini
    case 'tool_use':
      return [{ functionCall: { name: part.name, args: part.input, ...id(part.id) }, ...(part.signature ? { thoughtSignature: part.signature } : {}) }];
    case 'tool_result':
      return [{ functionResponse: { name: part.name, response: part.isError ? { error: part.content } : { output: part.content }, ...id(part.toolUseId) } }];
  }
}
