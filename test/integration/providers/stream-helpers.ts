import type { ApiStream, ApiStreamChunk, TokenUsage } from '../../../src/core/providers/types.js';

/** What a provider stream yielded before it ended or failed. */
export interface CollectedStream {
  chunks: ApiStreamChunk[];
  text: string;
  reasoning: string;
  usages: TokenUsage[];
  error?: unknown;
}

/** Drains a stream, keeping what arrived before any error so tests can check partial output. */
export async function collect(stream: ApiStream): Promise<CollectedStream> {
  const result: CollectedStream = { chunks: [], text: '', reasoning: '', usages: [] };
  try {
    for await (const chunk of stream) {
      result.chunks.push(chunk);
      if (chunk.type === 'text') result.text += chunk.text;
      else if (chunk.type === 'reasoning') result.reasoning += chunk.text;
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
