import * as vscode from 'vscode';

// Smith's engine range starts at VS Code 1.90, whose language-model API carries plain text only.
// Tool calls, tool results, the parts stream (1.95) and images (LanguageModelDataPart, later) came
// after; they are declared here as VS Code ships them and looked up at run time, so an older
// editor gets a clear error for what it cannot do instead of a crash.

/** A text part of a message or of a response. */
interface LmTextPart {
  readonly value: string;
}

/** A tool call the model made. */
interface LmToolCallPart {
  readonly callId: string;
  readonly name: string;
  readonly input: object;
}

/** The classes of VS Code's language-model API that 1.90 does not have. */
export interface LmPartsApi {
  readonly LanguageModelTextPart: new (value: string) => LmTextPart;
  readonly LanguageModelToolCallPart: new (callId: string, name: string, input: object) => LmToolCallPart;
  readonly LanguageModelToolResultPart: new (callId: string, content: unknown[]) => object;
  /** Images in messages; newer still than the tool parts. */
  readonly LanguageModelDataPart?: { image(data: Uint8Array, mimeType: string): object };
}

/** A tool offered to the model (`LanguageModelChatTool`). */
export interface LmChatTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}

/** The request options with the tools newer editors take. */
export interface LmRequestOptions extends vscode.LanguageModelChatRequestOptions {
  readonly tools?: LmChatTool[];
}

/** A response: newer editors stream parts (text and tool calls), every one streams text. */
export interface LmResponse {
  readonly text: AsyncIterable<string>;
  readonly stream?: AsyncIterable<unknown>;
}

/** A message whose content is parts, as the newer `LanguageModelChatMessage.User/Assistant` take it. */
type PartsMessageFactory = {
  User(content: string | unknown[]): vscode.LanguageModelChatMessage;
  Assistant(content: string | unknown[]): vscode.LanguageModelChatMessage;
};

/** The parts API when this editor has it (1.95 and later), else undefined. */
export function lmPartsApi(): LmPartsApi | undefined {
  const api = vscode as unknown as Partial<LmPartsApi>;
  if (!api.LanguageModelTextPart || !api.LanguageModelToolCallPart || !api.LanguageModelToolResultPart) return undefined;
  return api as LmPartsApi;
}

/** A message of either role with text or parts; parts only where `lmPartsApi()` is defined. */
export function lmMessage(role: 'user' | 'assistant', content: string | unknown[]): vscode.LanguageModelChatMessage {
  const factory = vscode.LanguageModelChatMessage as unknown as PartsMessageFactory;
  return role === 'user' ? factory.User(content) : factory.Assistant(content);
}
