import type { FunctionTool, ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import { normalizeConversation, splitToolResults, toolImagesLabel } from './message-conversion.js';
import type { Base64Image, ContentPart, ProviderMessage, ToolDefinition, ToolResultPart } from './types.js';

/**
 * The conversation as Responses API input items, in order. An assistant turn becomes its items as
 * the model produced them: reasoning items (id, encrypted content and summary, which `store: false`
 * needs sent back), its text as an assistant message, each call a `function_call`. A user turn
 * becomes a `function_call_output` per result, then a user message with its text and images (a
 * result's images after a line naming the call, as outputs hold text only). Anthropic's thinking
 * means nothing here and is dropped, and so are reasoning items another `issuer` gave.
 */
export function toResponsesInput(conversation: readonly ProviderMessage[], issuer?: string): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of normalizeConversation(conversation)) {
    const { content } = message;
    if (typeof content === 'string') items.push({ role: message.role, content });
    else if (message.role === 'assistant') items.push(...assistantItems(content, issuer));
    else items.push(...userItems(content));
  }
  return items;
}

function assistantItems(content: readonly ContentPart[], issuer: string | undefined): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text: string[] = [];
  const flushText = () => {
    if (text.length > 0) items.push({ role: 'assistant', content: text.join('\n\n') });
    text = [];
  };
  for (const part of content) {
    if (part.type === 'text') {
      text.push(part.text);
      continue;
    }
    if (part.type === 'reasoning_item') {
      // Another model's (or another provider's) encrypted reasoning cannot be read here, and would be refused.
      if (part.issuer !== undefined && issuer !== undefined && part.issuer !== issuer) continue;
      flushText();
      items.push({
        type: 'reasoning',
        id: part.id,
        encrypted_content: part.encryptedContent,
        summary: part.summary.map((summaryText) => ({ type: 'summary_text' as const, text: summaryText })),
      });
    } else if (part.type === 'tool_use') {
      flushText();
      items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: JSON.stringify(part.input) });
    }
  }
  flushText();
  return withoutDanglingReasoning(items);
}

/**
 * A reasoning item the API accepts only with the item it led to right after it (a call or the
 * answer); one without (the response broke off there) is left out rather than refused.
 */
function withoutDanglingReasoning(items: ResponseInputItem[]): ResponseInputItem[] {
  let followed = false;
  const kept: ResponseInputItem[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    const reasoning = 'type' in item && item.type === 'reasoning';
    if (reasoning && !followed) continue;
    if (!reasoning) followed = true;
    kept.unshift(item);
  }
  return kept;
}

function userItems(content: readonly ContentPart[]): ResponseInputItem[] {
  const { results } = splitToolResults(content);
  const items: ResponseInputItem[] = results.map((result) => ({
    type: 'function_call_output',
    call_id: result.toolUseId,
    // The output has no error flag, so the text says it.
    output: result.isError ? `Error: ${result.content}` : result.content,
  }));
  const parts = userParts(results, content);
  if (parts.length > 0) items.push({ role: 'user', content: parts });
  return items;
}

/** A user turn's results' images (labelled) and its own text and images, in order. */
function userParts(results: readonly ToolResultPart[], content: readonly ContentPart[]): ResponseInputContent[] {
  const parts: ResponseInputContent[] = results.flatMap((result) =>
    result.images?.length ? [{ type: 'input_text' as const, text: toolImagesLabel(result, result.toolUseId) }, ...result.images.map(inputImage)] : [],
  );
  for (const part of content) {
    if (part.type === 'text') parts.push({ type: 'input_text', text: part.text });
    else if (part.type === 'image') parts.push(inputImage(part));
  }
  return parts;
}

function inputImage(image: Base64Image): ResponseInputContent {
  return { type: 'input_image', detail: 'auto', image_url: `data:${image.mimeType};base64,${image.data}` };
}

/** The tool definitions as Responses API function tools (not strict: optional parameters stay optional). */
export function toResponsesTools(tools: readonly ToolDefinition[]): FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters as unknown as Record<string, unknown>,
    strict: false,
  }));
}
