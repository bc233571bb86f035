// An in-memory model for the loop's unit tests: it implements the engine's provider port and
// replays scripted turns, so the task loop's rules run in-process without a server. The wire
// formats of the real SDKs are tested against the scripted servers in test/integration/providers.
import { ProviderAbortedError } from '../../src/core/providers/types.js';
import type { ApiProvider, ApiRequest, ApiStream, ProviderId, TokenUsage, ToolProtocol } from '../../src/core/providers/types.js';

/** One native tool call of a scripted turn; `input` is sent as JSON, `arguments` as written (maybe malformed). */
export type ScriptedToolCall = { readonly id?: string; readonly name: string } & (
  | { readonly input: Readonly<Record<string, string>> }
  | { readonly arguments: string }
);

/** What the model answers to one request, streamed in this order: reasoning, text, tool calls, usage, then `error` or `stall`. */
export interface ScriptedTurn {
  readonly reasoning?: string;
  /** Streamed in chunks of `chunkSize` characters (default: the whole text at once). */
  readonly text?: string;
  readonly chunkSize?: number;
  /** Native tool calls (a provider with the native protocol). */
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: TokenUsage;
  /** Runs after the chunks above were consumed, before the stream goes on: the user acting mid-response. */
  readonly during?: () => void;
  /** Thrown after the chunks (before any chunk when the turn has none). */
  readonly error?: Error;
  /** The stream then waits until the request is cancelled, as a stalled server does. */
  readonly stall?: boolean;
}

/** A request as the provider received it, for assertions on what the model was sent. */
export interface ScriptedRequest {
  readonly systemPrompt: string;
  readonly messages: ApiRequest['messages'];
  readonly tools?: ApiRequest['tools'];
}

/** The provider port over a queue of scripted turns; a request with no turn left fails the test with a clear error. */
export class ScriptedProvider implements ApiProvider {
  readonly id: ProviderId = 'openai-compatible';
  readonly modelId: string;
  readonly toolProtocol: ToolProtocol;
  readonly requests: ScriptedRequest[] = [];
  private readonly turns: ScriptedTurn[] = [];

  constructor(options: { readonly modelId?: string; readonly toolProtocol?: ToolProtocol; readonly turns?: readonly ScriptedTurn[] } = {}) {
    this.modelId = options.modelId ?? 'scripted-model';
    this.toolProtocol = options.toolProtocol ?? 'xml';
    this.turns.push(...(options.turns ?? []));
  }

  /** Adds turns to answer the next requests, in order. */
  enqueue(...turns: ScriptedTurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  /** Turns not yet played. */
  get remaining(): number {
    return this.turns.length;
  }

  /** The text of every message of the request at `index`, joined (tool results included). */
  textOf(index: number): string {
    const request = this.requests[index];
    if (!request) throw new Error(`no request ${index}: ${this.requests.length} were made`);
    return request.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  }

  async *createMessage(request: ApiRequest): ApiStream {
    this.requests.push({ systemPrompt: request.systemPrompt, messages: request.messages, ...(request.tools ? { tools: request.tools } : {}) });
    const turn = this.turns.shift();
    if (!turn) throw new Error(`the script has no turn for request ${this.requests.length}`);
    const { signal } = request;
    if (signal?.aborted) throw new ProviderAbortedError();
    if (turn.reasoning) yield { type: 'reasoning', text: turn.reasoning };
    const text = turn.text ?? '';
    const size = turn.chunkSize ?? Math.max(1, text.length);
    for (let at = 0; at < text.length; at += size) {
      if (signal?.aborted) throw new ProviderAbortedError();
      yield { type: 'text', text: text.slice(at, at + size) };
    }
    for (const [i, call] of (turn.toolCalls ?? []).entries()) {
      const args = 'input' in call ? JSON.stringify(call.input) : call.arguments;
      yield { type: 'tool_call', id: call.id ?? `call_${this.requests.length}_${i}`, name: call.name, arguments: args };
    }
    if (turn.usage) yield { type: 'usage', usage: turn.usage };
    turn.during?.();
    if (turn.error) throw turn.error;
    if (turn.stall) {
      await new Promise<void>((resolve) => {
        if (!signal || signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      throw new ProviderAbortedError();
    }
  }
}

/** A turn that ends the task with attempt_completion (XML protocol). */
export function completeTurn(result = 'Done.', usage?: TokenUsage): ScriptedTurn {
  return { text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`, ...(usage ? { usage } : {}) };
}

/** A turn that calls one tool in XML with these parameters. */
export function toolTurn(tool: string, params: Readonly<Record<string, string>>, usage?: TokenUsage): ScriptedTurn {
  const body = Object.entries(params)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('\n');
  return { text: `<${tool}>\n${body}\n</${tool}>`, ...(usage ? { usage } : {}) };
}
