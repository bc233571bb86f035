// Reads what a recorded request carried, in each vendor's own shape, so one scenario can check
// every provider: the tools offered, the system prompt, and the results of the previous calls.
import type { RecordedRequest } from '../../fixtures/scripted-llm-server.js';

/** One tool result as the model received it. */
export interface SeenResult {
  /** The call it answers: OpenAI tool_call_id, Anthropic tool_use_id, Gemini function name. */
  readonly callRef: string;
  readonly content: string;
  readonly isError: boolean;
}

/** The names of the tools the request offered natively, or undefined when it offered none (XML). */
export function offeredTools(request: RecordedRequest): string[] | undefined {
  const { body } = request;
  switch (request.format) {
    case 'openai':
      return body.tools?.map((t: any) => t.function.name);
    case 'openai-responses':
      return body.tools?.map((t: any) => t.name);
    case 'anthropic':
      return body.tools?.map((t: any) => t.name);
    case 'gemini':
      return body.tools?.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
  }
}

/** The JSON schema the request gave one tool's parameters. */
export function toolSchema(request: RecordedRequest, name: string): any {
  const { body } = request;
  switch (request.format) {
    case 'openai':
      return body.tools.find((t: any) => t.function.name === name).function.parameters;
    case 'openai-responses':
      return body.tools.find((t: any) => t.name === name).parameters;
    case 'anthropic':
      return body.tools.find((t: any) => t.name === name).input_schema;
    case 'gemini':
      return body.tools.flatMap((t: any) => t.functionDeclarations).find((d: any) => d.name === name).parametersJsonSchema;
  }
}

/** The system prompt, wherever the vendor puts it. */
export function systemPrompt(request: RecordedRequest): string {
  const { body } = request;
  switch (request.format) {
    case 'openai':
      return body.messages.find((m: any) => m.role === 'system').content;
    case 'openai-responses':
      return body.instructions;
    case 'anthropic':
      return typeof body.system === 'string' ? body.system : body.system.map((b: any) => b.text).join('');
    case 'gemini':
      return body.systemInstruction.parts.map((p: any) => p.text).join('');
  }
}

/**
 * The native results of the last assistant turn's calls, in order: OpenAI `role: 'tool'`
 * messages, Anthropic `tool_result` blocks, Gemini `functionResponse` parts.
 */
export function nativeResults(request: RecordedRequest): SeenResult[] {
  const { body } = request;
  switch (request.format) {
    case 'openai': {
      const messages: any[] = body.messages;
      const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
      return (
        messages
          .slice(lastAssistant + 1)
          .filter((m) => m.role === 'tool')
          // Chat Completions has no error flag: Smith prefixes the text instead.
          .map((m) => ({ callRef: m.tool_call_id, content: m.content.replace(/^Error: /, ''), isError: m.content.startsWith('Error: ') }))
      );
    }
    case 'openai-responses':
      // Responses API outputs have no error flag either: Smith prefixes the text.
      return lastTurnItems(body.input, 'user')
        .filter((item) => item.type === 'function_call_output')
        .map((item) => ({ callRef: item.call_id, content: item.output.replace(/^Error: /, ''), isError: item.output.startsWith('Error: ') }));
    case 'anthropic': {
      const last = body.messages.at(-1);
      const blocks: any[] = Array.isArray(last.content) ? last.content : [];
      return (
        blocks
          .filter((b) => b.type === 'tool_result')
          // A result with images holds text and image blocks; its text is what is compared.
          .map((b) => ({
            callRef: b.tool_use_id,
            content:
              typeof b.content === 'string'
                ? b.content
                : b.content
                    .filter((c: any) => c.type === 'text')
                    .map((c: any) => c.text)
                    .join('\n'),
            isError: b.is_error === true,
          }))
      );
    }
    case 'gemini': {
      const parts: any[] = body.contents.at(-1).parts;
      return parts
        .filter((p) => p.functionResponse)
        .map((p) => ({
          callRef: p.functionResponse.name,
          content: p.functionResponse.response.output ?? p.functionResponse.response.error,
          isError: p.functionResponse.response.error !== undefined,
        }));
    }
  }
}

/** The native calls of the last assistant turn, as references results name (ids, or Gemini's function names). */
export function nativeCallRefs(request: RecordedRequest): string[] {
  const { body } = request;
  switch (request.format) {
    case 'openai':
      return (body.messages.findLast((m: any) => m.role === 'assistant').tool_calls ?? []).map((c: any) => c.id);
    case 'openai-responses':
      return lastTurnItems(body.input, 'assistant')
        .filter((item) => item.type === 'function_call')
        .map((item) => item.call_id);
    case 'anthropic': {
      const content = body.messages.findLast((m: any) => m.role === 'assistant').content;
      return Array.isArray(content) ? content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id) : [];
    }
    case 'gemini':
      return body.contents
        .findLast((c: any) => c.role === 'model')
        .parts.filter((p: any) => p.functionCall)
        .map((p: any) => p.functionCall.name);
  }
}

/** Every text of the last user turn (for XML, all of it; for native, what follows the results). */
export function lastUserText(request: RecordedRequest): string {
  const { body } = request;
  const texts = (content: any): string =>
    typeof content === 'string'
      ? content
      : content
          .filter((b: any) => b.type === 'text' || b.type === 'input_text' || b.text !== undefined)
          .map((b: any) => b.text)
          .join('\n');
  switch (request.format) {
    case 'openai':
      return texts(body.messages.findLast((m: any) => m.role === 'user').content);
    case 'openai-responses':
      return texts(body.input.findLast((item: any) => item.role === 'user').content);
    case 'anthropic':
      return texts(body.messages.at(-1).content);
    case 'gemini':
      return texts(body.contents.at(-1).parts);
  }
}

/** Which side of the conversation a Responses API input item is on. */
function sideOf(item: any): 'user' | 'assistant' {
  if (item.type === 'function_call' || item.type === 'reasoning') return 'assistant';
  if (item.type === 'function_call_output') return 'user';
  return item.role === 'assistant' ? 'assistant' : 'user';
}

/** The input items of the last turn of one side (a turn being the items of that side in a row). */
export function lastTurnItems(input: any[], side: 'user' | 'assistant'): any[] {
  let end = input.length;
  while (end > 0 && sideOf(input[end - 1]) !== side) end--;
  let start = end;
  while (start > 0 && sideOf(input[start - 1]) === side) start--;
  return input.slice(start, end);
}
