import { StreamingToolParser } from '../parse/streaming-tool-parser.js';
import type { AssistantBlock, ToolGrammar, ToolUseBlock } from '../parse/types.js';
import type { ApiProvider, ApiRequest, ApiStreamChunk, TokenUsage } from '../providers/types.js';

/** One streamed model response, reduced to what the loop acts on. */
export interface ModelTurn {
  /** Blocks up to and including the first tool call; the rest of the message is dropped. */
  readonly blocks: readonly AssistantBlock[];
  readonly reasoning: string;
  readonly usage: TokenUsage;
  /** The first tool call, complete or (if the stream ended inside it) partial. */
  readonly tool?: ToolUseBlock;
  /** Tool calls after the first, which were not executed. */
  readonly ignoredTools: number;
}

/** Transient streaming output for the UI. */
export type TurnDelta =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'reasoning'; readonly text: string }
  | { readonly kind: 'blocks'; readonly blocks: readonly AssistantBlock[] };

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** The stream broke after some output arrived; that output is kept to show, never executed. */
export class TurnInterruptedError extends Error {
  constructor(
    readonly partialText: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'TurnInterruptedError';
  }
}

/**
 * Streams one response through the incremental parser. Once a tool block is complete, later
 * text is no longer parsed (one tool per message) but the stream is read on for its usage.
 */
export async function runModelTurn(
  provider: ApiProvider,
  request: ApiRequest,
  grammar: ToolGrammar,
  onDelta: (delta: TurnDelta) => void,
): Promise<ModelTurn> {
  const parser = new StreamingToolParser(grammar);
  let reasoning = '';
  let usage = NO_USAGE;
  let toolDone = false;
  let trailing = '';
  let received = '';

  const consume = (chunk: ApiStreamChunk) => {
    if (chunk.type === 'usage') {
      usage = chunk.usage;
    } else if (chunk.type === 'reasoning') {
      reasoning += chunk.text;
      onDelta({ kind: 'reasoning', text: chunk.text });
    } else if (toolDone) {
      trailing += chunk.text;
    } else {
      received += chunk.text;
      parser.push(chunk.text);
      onDelta({ kind: 'text', text: chunk.text });
      const blocks = parser.blocks;
      onDelta({ kind: 'blocks', blocks });
      toolDone = blocks.some((b) => b.kind === 'tool' && !b.partial);
    }
  };

  try {
    for await (const chunk of provider.createMessage(request)) consume(chunk);
  } catch (error) {
    if (received !== '' || reasoning !== '') throw new TurnInterruptedError(received, error);
    throw error;
  }

  const all = parser.finish();
  const firstTool = all.findIndex((b) => b.kind === 'tool');
  const blocks = firstTool === -1 ? all : all.slice(0, firstTool + 1);
  const tool = firstTool === -1 ? undefined : (all[firstTool] as ToolUseBlock);
  const ignoredTools = all.slice(firstTool + 1).filter((b) => b.kind === 'tool').length + countToolTags(trailing, grammar);
  return { blocks, reasoning, usage, ignoredTools: firstTool === -1 ? 0 : ignoredTools, ...(tool ? { tool } : {}) };
}

function countToolTags(text: string, grammar: ToolGrammar): number {
  let count = 0;
  for (const name of grammar.tools.keys()) count += text.split(`<${name}>`).length - 1;
  return count;
}
