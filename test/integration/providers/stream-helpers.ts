import type { ApiStream, ApiStreamChunk, TokenUsage } from '../../../src/core/providers/types.js';

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
      else result.usages.push(chunk.usage);
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
