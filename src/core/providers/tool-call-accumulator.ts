import { randomUUID } from 'node:crypto';
import type { ApiStreamChunk } from './types.js';

type ToolCallChunk = Extract<ApiStreamChunk, { type: 'tool_call' }>;

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/**
 * Gathers the streamed pieces of native tool calls (id and name first, then argument deltas) by
 * the vendor's index, so the engine only ever sees complete calls.
 */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, PendingCall>();

  /** Adds what one delta says about call `index`; the first id and name given win, arguments append. */
  add(index: number, delta: { id?: string | null; name?: string | null; arguments?: string | null }): void {
    const call = this.calls.get(index) ?? { id: '', name: '', args: '' };
    if (!call.id && delta.id) call.id = delta.id;
    if (!call.name && delta.name) call.name = delta.name;
    if (delta.arguments) call.args += delta.arguments;
    this.calls.set(index, call);
  }

  /** True when a call with this index has started. */
  has(index: number): boolean {
    return this.calls.has(index);
  }

  /** Completes call `index` (e.g. at Anthropic's content_block_stop). */
  take(index: number): ToolCallChunk | undefined {
    const call = this.calls.get(index);
    if (!call) return undefined;
    this.calls.delete(index);
    return toChunk(call);
  }

  /** Completes every call still open, in index order (OpenAI's calls end with the stream). */
  takeAll(): ToolCallChunk[] {
    const indexes = [...this.calls.keys()].sort((a, b) => a - b);
    return indexes.map((index) => this.take(index)!);
  }
}

/** An id for a call whose vendor gave none (Gemini, some OpenAI-compatible servers); it is logged, so it stays stable. */
export function syntheticToolCallId(): string {
  return `${SYNTHETIC_PREFIX}${randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

/** True for an id made by syntheticToolCallId, which no vendor has seen. */
export function isSyntheticToolCallId(id: string): boolean {
  return id.startsWith(SYNTHETIC_PREFIX);
}

const SYNTHETIC_PREFIX = 'call_smith_';

function toChunk(call: PendingCall): ToolCallChunk {
  return { type: 'tool_call', id: call.id || syntheticToolCallId(), name: call.name, arguments: call.args };
}
