import { after, before, beforeEach } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ApiProvider, ApiRequest, ApiStream, ApiStreamChunk, ProviderConfig, TokenUsage } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';

/** What a provider stream yielded before it ended or failed. */
export interface CollectedStream {
  chunks: ApiStreamChunk[];
  text: string;
  reasoning: string;
  usages: TokenUsage[];
  /** Native tool calls, as the provider completed them. */
  toolCalls: Array<Extract<ApiStreamChunk, { type: 'tool_call' }>>;
  /** Signatures closing the reasoning (Anthropic). */
  signatures: string[];
  error?: unknown;
}

/** Drains a stream, keeping what arrived before any error so tests can check partial output. */
export async function collect(stream: ApiStream): Promise<CollectedStream> {
  const result: CollectedStream = { chunks: [], text: '', reasoning: '', usages: [], toolCalls: [], signatures: [] };
  try {
    for await (const chunk of stream) {
      result.chunks.push(chunk);
      if (chunk.type === 'text') result.text += chunk.text;
      else if (chunk.type === 'reasoning') result.reasoning += chunk.text;
      else if (chunk.type === 'tool_call') result.toolCalls.push(chunk);
      else if (chunk.type === 'reasoning_signature') result.signatures.push(chunk.signature);
      else if (chunk.type === 'usage') result.usages.push(chunk.usage);
    }
  } catch (err) {
    result.error = err;
  }
  return result;
}

/** Like collect, but the stream must succeed. */
export async function collectOk(stream: ApiStream): Promise<CollectedStream> {
  const result = await collect(stream);
  if (result.error) throw result.error;
  return result;
}

/** A scripted server for a suite and a fresh provider per test, built from the server's address. */
export interface ProviderFixture {
  readonly server: ScriptedLlmServer;
  readonly provider: ApiProvider;
}

/** Registers the suite's hooks (inside describe) and returns the fixture. */
export function useProviderFixture(config: (server: ScriptedLlmServer) => ProviderConfig): ProviderFixture {
  let server: ScriptedLlmServer | undefined;
  let provider: ApiProvider | undefined;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(() => server?.close());
  beforeEach(() => {
    server!.requests.length = 0;
    provider = createProvider(config(server!));
  });
  return {
    get server() {
      return server!;
    },
    get provider() {
      return provider!;
    },
  };
}

/** Starts a request to a server that never answers and aborts it after 100 ms; returns what it ended with. */
export async function abortWhileHanging(fx: ProviderFixture, request: ApiRequest): Promise<{ error: unknown; elapsedMs: number }> {
  fx.server.enqueue({ fault: 'hang' });
  const controller = new AbortController();
  const started = Date.now();
  setTimeout(() => controller.abort(), 100);
  const { error } = await collect(fx.provider.createMessage({ ...request, signal: controller.signal }));
  return { error, elapsedMs: Date.now() - started };
}

/** Streams a slow 200-character reply and aborts after its second text chunk; returns the error and the chunks seen. */
export async function abortMidStream(fx: ProviderFixture, request: ApiRequest): Promise<{ error: unknown; textChunks: number }> {
  fx.server.enqueue({ text: 'x'.repeat(200), chunkSize: 5, chunkDelayMs: 20 });
  const controller = new AbortController();
  let textChunks = 0;
  try {
    for await (const chunk of fx.provider.createMessage({ ...request, signal: controller.signal })) {
      if (chunk.type === 'text' && ++textChunks === 2) controller.abort();
    }
  } catch (error) {
    return { error, textChunks };
  }
  return { error: undefined, textChunks };
}

/** The one-message conversation the provider tests send. */
export const HELLO = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };

/** One tool offered through native tool calling. */
export const READ_FILE_TOOLS = [
  {
    name: 'read_file',
    description: 'Reads a file.',
    parameters: { type: 'object' as const, properties: { path: { type: 'string' as const, description: 'The path.' } }, required: ['path'] },
  },
];

/** Remembers environment variables a suite changes; the function returned puts them back. */
export function keepEnvironment(names: readonly string[]): () => void {
  const saved = new Map(names.map((name) => [name, process.env[name]]));
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
