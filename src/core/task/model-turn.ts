import { BlockChangeReader, type BlockChange } from '../parse/block-changes.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import { StreamingToolParser } from '../parse/streaming-tool-parser.js';
import type { AssistantBlock, ToolGrammar, ToolUseBlock } from '../parse/types.js';
import type { ApiProvider, ApiRequest, ApiStreamChunk, TokenUsage } from '../providers/types.js';
import type { SignedReasoning } from '../log/conversation-events.js';
import { nativeToolBlock } from './native-tool-calls.js';

/** One streamed model response, reduced to what the loop acts on. */
export interface ModelTurn {
  /**
   * XML: blocks up to and including the first tool call (the rest of the message is dropped).
   * Native: the text blocks, then every tool call.
   */
  readonly blocks: readonly AssistantBlock[];
  readonly reasoning: string;
  /** The reasoning the vendor wants back with native tool calls (Anthropic's thinking, OpenAI's reasoning items), in order. */
  readonly signedReasoning: readonly SignedReasoning[];
  readonly usage: TokenUsage;
  /**
   * The calls to run, in order. XML: the first tool block, complete or (if the stream ended inside
   * it) partial. Native: every call of the response.
   */
  readonly tools: readonly ToolUseBlock[];
  /** XML tool calls after the first, which were not executed. */
  readonly ignoredTools: number;
}

/**
 * Transient streaming output for the UI: the raw text and reasoning as they arrive, and what
 * changed in the parsed blocks (see BlockChange; folding them gives the response's blocks).
 */
export type TurnDelta = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'reasoning'; readonly text: string } | BlockChange;

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };
// Native tool calls arrive apart from the text, so the parser only separates <thinking> there.
const TEXT_ONLY: ToolGrammar = { tools: new Map() };

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
 * Streams one response through the incremental parser. With the XML protocol, once a tool block
 * is complete, later text is no longer parsed (one tool per message) but the stream is read on for
 * its usage. With native tool calling (the request offers `tools`) every call is kept, in order.
 * A `restart` chunk (the provider layer retries a stream that broke) drops everything received so
 * far; `onInterrupted` is told what was shown of it, so it can be recorded as interrupted.
 */
export async function runModelTurn(
  provider: ApiProvider,
  request: ApiRequest,
  grammar: ToolGrammar,
  onDelta: (delta: TurnDelta) => void,
  onInterrupted: (partialText: string, reason: string) => void = () => {},
): Promise<ModelTurn> {
  const native = request.tools !== undefined;
  let parser = new StreamingToolParser(native ? TEXT_ONLY : grammar);
  let streamIndex = 0;
  let changes = new BlockChangeReader(() => streamIndex++);
  // XML: the blocks after the first complete tool call are dropped, so they are never shown.
  let shownLimit = Number.POSITIVE_INFINITY;
  const showChanges = () => {
    for (const change of changes.read(parser, shownLimit)) onDelta(change);
  };
  let calls: ToolUseBlock[] = [];
  let signedReasoning: SignedReasoning[] = [];
  let unsignedReasoning = '';
  let reasoning = '';
  let usage = NO_USAGE;
  let toolDone = false;
  let checked = 0;
  let trailing = '';
  let received = '';
  const receivedAnything = () => received !== '' || reasoning !== '' || calls.length > 0 || signedReasoning.length > 0;
  // Where a piece of reasoning stands among the calls, so it goes back in its place.
  const callsSoFar = () => (calls.length > 0 ? { afterCalls: calls.length } : {});

  const consume = (chunk: ApiStreamChunk) => {
    if (chunk.type === 'restart') {
      if (receivedAnything()) onInterrupted(received, chunk.reason);
      parser = new StreamingToolParser(native ? TEXT_ONLY : grammar);
      streamIndex = 0;
      changes = new BlockChangeReader(() => streamIndex++);
      shownLimit = Number.POSITIVE_INFINITY;
      calls = [];
      signedReasoning = [];
      unsignedReasoning = '';
      reasoning = '';
      usage = NO_USAGE;
      toolDone = false;
      checked = 0;
      trailing = '';
      received = '';
    } else if (chunk.type === 'usage') {
      usage = chunk.usage;
    } else if (chunk.type === 'reasoning') {
      reasoning += chunk.text;
      unsignedReasoning += chunk.text;
      onDelta({ kind: 'reasoning', text: chunk.text });
    } else if (chunk.type === 'reasoning_signature') {
      signedReasoning.push({ text: unsignedReasoning, signature: chunk.signature, ...callsSoFar() });
      unsignedReasoning = '';
    } else if (chunk.type === 'signed_reasoning') {
      // Its text (a reasoning summary) already came as reasoning chunks; the part holds its own copy.
      signedReasoning.push({ ...chunk.part, ...callsSoFar() });
      unsignedReasoning = '';
    } else if (chunk.type === 'tool_call') {
      // The XML protocol never asks for native calls; a server sending them anyway is ignored there.
      if (!native) return;
      const call = nativeToolBlock(chunk);
      calls.push(call);
      for (const change of changes.whole(call)) onDelta(change);
    } else if (toolDone) {
      trailing += chunk.text;
    } else {
      received += chunk.text;
      parser.push(chunk.text);
      onDelta({ kind: 'text', text: chunk.text });
      // Only the blocks completed since the last chunk can be the first finished tool call.
      const completed = parser.completed;
      for (; checked < completed.length && !toolDone; checked++) toolDone = completed[checked]!.kind === 'tool';
      if (toolDone && !native) shownLimit = checked;
      showChanges();
    }
  };

  try {
    for await (const chunk of provider.createMessage(request)) consume(chunk);
  } catch (error) {
    if (receivedAnything()) throw new TurnInterruptedError(received, error);
    throw error;
  }

  const all = parser.finish();
  // What the end of the stream settled (held-back text, the last block's end) is shown too.
  showChanges();
  if (native) return { blocks: [...all, ...calls], reasoning, signedReasoning, usage, tools: calls, ignoredTools: 0 };
  const firstTool = all.findIndex((b) => b.kind === 'tool');
  const blocks = firstTool === -1 ? all : all.slice(0, firstTool + 1);
  const tools = firstTool === -1 ? [] : [all[firstTool] as ToolUseBlock];
  return {
    blocks,
    reasoning,
    signedReasoning,
    usage,
    tools,
    ignoredTools: firstTool === -1 ? 0 : countIgnoredTools(all.slice(firstTool + 1), trailing, grammar),
  };
}

/**
 * The tool calls after the first one: those the parser completed, plus the tags in the text it
 * never saw. The chunk that ended the first call may have stopped inside the next call's opening
 * tag (`<read_fi`, which the parser ends as text) or inside the call, so the parser's last block,
 * when it is text or partial, is counted together with that text.
 */
function countIgnoredTools(after: readonly AssistantBlock[], trailing: string, grammar: ToolGrammar): number {
  const last = after.at(-1);
  const open = last !== undefined && (last.kind === 'text' || last.partial);
  const complete = open ? after.slice(0, -1) : after;
  return complete.filter((b) => b.kind === 'tool').length + countToolTags((open ? serializeBlocks([last]) : '') + trailing, grammar);
}

function countToolTags(text: string, grammar: ToolGrammar): number {
  let count = 0;
  for (const name of grammar.tools.keys()) count += text.split(`<${name}>`).length - 1;
  return count;
}
