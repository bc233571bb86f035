import * as vscode from 'vscode';
import { unlessAborted, untilAborted } from '../../core/providers/abortable-iteration.js';
import { chooseEditorModel, editorModelFacts } from '../../core/providers/editor-models.js';
import { messageText } from '../../core/providers/message-conversion.js';
import type { ModelFacts } from '../../core/providers/model-facts.js';
import { ProviderAbortedError, ProviderError } from '../../core/providers/types.js';
import { idleTimeoutError } from '../../core/providers/provider-errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../core/providers/stream-guard.js';
import type { ApiProvider, ApiRequest, ApiStream, ProviderConfig, TokenUsage, ToolProtocol } from '../../core/providers/types.js';
import { lmPartsApi, type LmPartsApi, type LmRequestOptions, type LmResponse } from './vscode-lm-api.js';
import { lmProviderError } from './vscode-lm-errors.js';
import { NATIVE_TOOLS_NEED_NEWER_VS_CODE, toLmMessages, toLmTools } from './vscode-lm-messages.js';

/** Shown by VS Code when it asks the user whether Smith may use a model. */
const JUSTIFICATION = "Smith sends your task and your workspace's context to this model to work on the task you gave it.";

/**
 * A model VS Code offers (`vscode.lm`: GitHub Copilot's, or any extension's) behind Smith's
 * provider interface. The model is the one with the configured id, else the first VS Code offers;
 * it is looked up once and kept. The API reports no usage, so the usage chunk is an estimate from
 * the model's own token counter; the model's extension bills it, not Smith, so its price is $0.
 */
export class VsCodeLmProvider implements ApiProvider {
  readonly id = 'vscode-lm' as const;
  readonly toolProtocol: ToolProtocol | undefined;
  private chosen: Promise<vscode.LanguageModelChat> | undefined;
  private chosenId: string | undefined;

  constructor(readonly config: ProviderConfig) {
    this.toolProtocol = config.toolProtocol;
  }

  /** The configured id, or the id of the model VS Code gave once it is known. */
  get modelId(): string {
    return this.chosenId ?? this.config.model.trim();
  }

  async describeModel(): Promise<ModelFacts | undefined> {
    try {
      const model = await this.model();
      // Billed by the model's extension (a subscription), never per token through Smith.
      return { ...editorModelFacts(model), inputPrice: 0, outputPrice: 0 };
    } catch {
      return undefined;
    }
  }

  createMessage(request: ApiRequest): ApiStream {
    return this.stream(request);
  }

  private async *stream(request: ApiRequest): ApiStream {
    const { signal } = request;
    if (signal?.aborted) throw new ProviderAbortedError();
    const model = await this.model();
    const api = lmPartsApi();
    if (request.tools?.length && !api) throw new ProviderError(NATIVE_TOOLS_NEED_NEWER_VS_CODE);
    const messages = toLmMessages(request.systemPrompt, request.messages, api);
    const options: LmRequestOptions = { justification: JUSTIFICATION, ...(request.tools?.length ? { tools: toLmTools(request.tools) } : {}) };
    const cancellation = new vscode.CancellationTokenSource();
    const cancel = () => cancellation.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    let output = '';
    try {
      // VS Code may first ask the user whether Smith may use the model; Stop does not wait for the answer.
      const response = (await unlessAborted(model.sendRequest(messages, options, cancellation.token), signal)) as LmResponse;
      // Only the wait for the model's next part counts, as for the other providers (smith.requestIdleTimeout).
      const idleMs = this.config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
      const idle = { ms: idleMs, error: (first: boolean) => idleTimeoutError({ label: modelName(model) }, idleMs, first ? 'headers' : 'body') };
      for await (const part of untilAborted<unknown>(response.stream ?? response.text, signal, idle)) {
        const chunk = streamChunk(part, api);
        if (!chunk) continue;
        output += chunk.type === 'text' ? chunk.text : `${chunk.name} ${chunk.arguments}`;
        yield chunk;
      }
      if (signal?.aborted) throw new ProviderAbortedError();
      yield { type: 'usage', usage: await estimatedUsage(model, messages, request, output, cancellation.token) };
    } catch (error) {
      const failure = lmProviderError(error, modelName(model), signal);
      // A model that is gone is looked up again next time: it may be back, or another answers.
      if (failure.status === 404) this.chosen = undefined;
      throw failure;
    } finally {
      signal?.removeEventListener('abort', cancel);
      // An answer abandoned (idle, a broken stream) must not go on in the model's extension.
      cancellation.cancel();
      cancellation.dispose();
    }
  }

  /** The model VS Code offers under the configured id (the first one without an id), asked once. */
  private model(): Promise<vscode.LanguageModelChat> {
    if (this.chosen) return this.chosen;
    const chosen = this.lookUpModel();
    this.chosen = chosen;
    // A failed lookup is asked again next time (the model's extension may have started meanwhile).
    chosen.catch(() => {
      if (this.chosen === chosen) this.chosen = undefined;
    });
    return chosen;
  }

  private async lookUpModel(): Promise<vscode.LanguageModelChat> {
    let models: vscode.LanguageModelChat[];
    try {
      models = await vscode.lm.selectChatModels();
    } catch (error) {
      throw new ProviderError(`VS Code did not list its language models: ${error instanceof Error ? error.message : String(error)}`);
    }
    const model = chooseEditorModel(models, this.config.model);
    this.chosenId = model.id;
    return model;
  }
}

type StreamedChunk = { type: 'text'; text: string } | { type: 'tool_call'; id: string; name: string; arguments: string };

/** A response part as a stream chunk: text, or a tool call with its input as JSON text; other parts (data, reasoning of newer editors) are skipped. */
function streamChunk(part: unknown, api: LmPartsApi | undefined): StreamedChunk | undefined {
  if (typeof part === 'string') return part === '' ? undefined : { type: 'text', text: part };
  if (!api) return undefined;
  if (part instanceof api.LanguageModelTextPart) return part.value === '' ? undefined : { type: 'text', text: part.value };
  if (part instanceof api.LanguageModelToolCallPart)
    return { type: 'tool_call', id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
  return undefined;
}

/**
 * The request's and the answer's tokens as the model's own counter puts them (the API reports no
 * usage). Where the counter fails, four characters a token.
 */
async function estimatedUsage(
  model: vscode.LanguageModelChat,
  messages: readonly vscode.LanguageModelChatMessage[],
  request: ApiRequest,
  output: string,
  token: vscode.CancellationToken,
): Promise<TokenUsage> {
  const roughly = (text: string) => Math.ceil(text.length / 4);
  const promptText = [request.systemPrompt, ...request.messages.map(messageText), ...(request.tools ?? []).map((tool) => JSON.stringify(tool))].join('\n\n');
  const inputTokens = await Promise.all(messages.map((message) => model.countTokens(message, token)))
    .then((counts) => counts.reduce((sum, count) => sum + count, 0) + (request.tools?.length ? roughly(JSON.stringify(request.tools)) : 0))
    .catch(() => roughly(promptText));
  const outputTokens = output === '' ? 0 : await Promise.resolve(model.countTokens(output, token)).catch(() => roughly(output));
  return { inputTokens, outputTokens };
}

/** "GPT-4.1 (copilot)": how a model is named in errors. */
function modelName(model: vscode.LanguageModelChat): string {
  return `${model.name || model.id} (${model.vendor})`;
}
