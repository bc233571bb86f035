import type * as vscode from 'vscode';
import { normalizeConversation, toolImagesLabel } from '../../core/providers/message-conversion.js';
import { ProviderError } from '../../core/providers/types.js';
import type { ContentPart, ImagePart, ProviderMessage, ToolDefinition } from '../../core/providers/types.js';
import { lmMessage, type LmChatTool, type LmPartsApi } from './vscode-lm-api.js';

/** Said when a conversation needs the parts API and this editor predates it. */
export const NATIVE_TOOLS_NEED_NEWER_VS_CODE =
  "Native tool calling with VS Code's language models needs VS Code 1.95 or newer. Update VS Code, or set Smith's tool protocol to XML.";

/** Stands in for an image the editor cannot send (its API predates LanguageModelDataPart). */
const IMAGE_LEFT_OUT = '[An image was left out: this version of VS Code cannot send images to language models.]';

/**
 * The conversation as VS Code language-model messages. `api` is the parts API (tool calls, tool
 * results, images); without it only text travels, and a native tool call is a clear error.
 */
export function toLmMessages(systemPrompt: string, conversation: readonly ProviderMessage[], api: LmPartsApi | undefined): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  // The stable API has no system role (LanguageModelChatMessageRole.System is still a proposal, and
  // using it fails for an extension that does not enable proposals), so the instructions go first as
  // a user message, which every model VS Code offers reads.
  if (systemPrompt) messages.push(lmMessage('user', systemPrompt));
  for (const message of normalizeConversation(conversation)) {
    if (typeof message.content === 'string') messages.push(lmMessage(message.role, message.content));
    else if (api) messages.push(lmMessage(message.role, toParts(message.role, message.content, api)));
    else messages.push(lmMessage(message.role, asPlainText(message.content)));
  }
  return messages;
}

/** The tools as `LanguageModelChatTool`s: their parameters' JSON schema is the input schema. */
export function toLmTools(tools: readonly ToolDefinition[]): LmChatTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters }));
}

/**
 * A message's parts in VS Code's shapes. A user turn starts with its tool results (each answers a
 * call of the assistant turn before, as every vendor behind VS Code wants them); a result's images
 * follow, named for their call, as VS Code's result part carries text. Signed reasoning is another
 * vendor's and is dropped.
 */
function toParts(role: ProviderMessage['role'], content: readonly ContentPart[], api: LmPartsApi): unknown[] {
  const text = (value: string) => new api.LanguageModelTextPart(value);
  const results: unknown[] = [];
  const resultImages: unknown[] = [];
  const rest: unknown[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        rest.push(text(part.text));
        break;
      case 'image':
        rest.push(imagePart(part, api));
        break;
      case 'thinking':
      case 'redacted_thinking':
      case 'reasoning_item':
        break;
      case 'tool_use':
        rest.push(new api.LanguageModelToolCallPart(part.id, part.name, { ...part.input }));
        break;
      case 'tool_result':
        // The result part has no error flag, so the text says it.
        results.push(new api.LanguageModelToolResultPart(part.toolUseId, [text(part.isError ? `Error: ${part.content}` : part.content)]));
        if (part.images?.length) resultImages.push(text(toolImagesLabel(part, part.toolUseId)), ...part.images.map((image) => imagePart(image, api)));
        break;
      default:
        return part satisfies never;
    }
  }
  return role === 'user' ? [...results, ...resultImages, ...rest] : rest;
}

function imagePart(image: ImagePart, api: LmPartsApi): unknown {
  if (!api.LanguageModelDataPart) return new api.LanguageModelTextPart(IMAGE_LEFT_OUT);
  return api.LanguageModelDataPart.image(Buffer.from(image.data, 'base64'), image.mimeType);
}

/** A message's text for an editor without the parts API; tool calls cannot travel as text. */
function asPlainText(content: readonly ContentPart[]): string {
  if (content.some((part) => part.type === 'tool_use' || part.type === 'tool_result')) throw new ProviderError(NATIVE_TOOLS_NEED_NEWER_VS_CODE);
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : part.type === 'image' ? [IMAGE_LEFT_OUT] : [])).join('\n\n');
}
