// Turns a conversation in Anthropic's message shape (which Claude Code, Cline and Roo Code all store)
// into Smith's events: the task, the user's messages, the model's replies with their tool calls, and
// each call's result. Every source format's reader feeds it; see docs/import-sessions.md.
import type { AssistantBlock, ToolGrammar, ToolUseBlock } from '../parse/types.js';
import { parseAssistantMessage } from '../parse/streaming-tool-parser.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import type { SignedReasoning } from '../log/conversation-events.js';
import type { NewEvent } from '../log/events.js';
import type { Base64Image, TokenUsage } from '../providers/types.js';
import { MAX_IMAGE_BYTES } from '../context/image-files.js';
import { ImportError, type SourceBlock, type TimedEvent } from './import-types.js';

import { base64Bytes, deniedFeedback, imageOf, mergeTexts, resultContent } from './source-content.js';
import { NotCarried } from './not-carried.js';

/** One message of the conversation as the source stored it. */
export interface SourceMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly SourceBlock[];
  readonly ts: number;
  /** The reply's tokens, when the source recorded them. */
  readonly usage?: TokenUsage;
  /** US dollars, when the source recorded them. */
  readonly cost?: number;
  /** The reply's id: messages with the same id are one reply stored in pieces. */
  readonly replyId?: string;
}

/** A call as Smith's tool of the same job would have been called; undefined: Smith has no such tool. */
export interface MappedCall {
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
}

/** What the builder needs to know of a source. */
export interface SourceDialect {
  /** The agent's name as the user knows it ("Claude Code"). */
  readonly agent: string;
  /** A native call (tool_use block) as Smith's call; undefined when Smith has no equivalent. */
  mapNative(name: string, input: Readonly<Record<string, unknown>>): MappedCall | undefined;
  /** Tool calls written as XML in the reply's text (Cline's protocol): their grammar and their mapping. */
  readonly xml?: { readonly grammar: ToolGrammar; map(name: string, params: Readonly<Record<string, string>>): MappedCall | undefined };
  /** Splits a user message's text into what the user wrote, the context mentions attached and the environment details. */
  splitUserText?(text: string): { text: string; context?: string; environment?: string };
}

/** A call of the reply being built whose outcome is still to come. */
interface OpenCall {
  readonly callId: string;
  readonly name: string;
  readonly mapped: MappedCall | undefined;
  /** For a call Smith has no tool for: the text block that stands for it, completed with its result. */
  readonly summaryIndex?: number;
  readonly xmlResultLabel?: string;
}

interface PendingReply {
  readonly id: string | undefined;
  blocks: AssistantBlock[];
  reasoning: string[];
  signed: SignedReasoning[];
  usage: TokenUsage | undefined;
  cost: number | undefined;
  ts: number;
  /** Every call of the reply, in order. */
  readonly calls: OpenCall[];
  /** Those still without an outcome. */
  readonly open: Set<OpenCall>;
}

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** Builds the events of one imported conversation; `add` each message in order, then `finish`. */
export class ConversationBuilder {
  readonly notes = new NotCarried();
  private task: { text: string; context?: string; images?: Base64Image[]; ts: number } | undefined;
  private readonly events: TimedEvent[] = [];
  private reply: PendingReply | undefined;
  /** Outcomes read from a user message, logged once the reply they answer is. */
  private outcomes: TimedEvent[] = [];
  private environment: { text: string; ts: number } | undefined;
  private calls = 0;
  private repliesWithoutUsage = 0;
  private repliesWithoutCost = 0;
  private unsignedThinking = 0;

  constructor(private readonly dialect: SourceDialect) {}

  add(message: SourceMessage): void {
    if (message.role === 'assistant') this.addReply(message);
    else this.addUser(message);
  }

  /** The task, the events after it, and what was not carried over. */
  finish(): { task: NonNullable<ConversationBuilder['task']>; events: TimedEvent[]; notes: NotCarried } {
    if (!this.task) throw new ImportError(`the ${this.dialect.agent} session holds no message from the user`);
    const last = this.reply;
    this.flushReply();
    // A reply without a tool call that ends the session: the agent had answered.
    if (last && last.calls.length === 0) {
      const text = last.blocks
        .flatMap((b) => (b.kind === 'text' ? [b.text] : []))
        .join('\n\n')
        .trim();
      this.push({ type: 'task_completed', result: text }, last.ts);
    }
    this.events.push(...this.outcomes);
    this.outcomes = [];
    if (this.repliesWithoutUsage > 0)
      this.notes.add(`token counts of ${plural(this.repliesWithoutUsage, 'reply', 'replies')} (${this.dialect.agent} did not record them; they count as 0)`);
    if (this.repliesWithoutCost > 0)
      this.notes.add(`costs of ${plural(this.repliesWithoutCost, 'reply', 'replies')} (not recorded; Smith shows no cost for them)`);
    if (this.unsignedThinking > 0)
      this.notes.add(`${plural(this.unsignedThinking, 'thinking block')} without a signature: shown in the chat, never sent back to a model`);
    return { task: this.task, events: this.events, notes: this.notes };
  }

  /** The source compacted the conversation into a summary, which replaces what came before it for the model. */
  condensed(summary: string, ts: number): void {
    this.flushReply();
    this.events.push(...this.outcomes);
    this.outcomes = [];
    if (!this.task) this.task = { text: summary, ts };
    else this.push({ type: 'history_condensed', summary }, ts);
  }

  private push(event: NewEvent, ts: number): void {
    this.events.push({ event, ts });
  }

  private addUser(message: SourceMessage): void {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const texts: string[] = [];
    const images: Base64Image[] = [];
    // Results of native calls come first; the rest is what the user (or the agent on their behalf) said.
    for (const block of blocks) {
      if (block.type === 'tool_result') this.nativeOutcome(block, message.ts);
      else if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'image') {
        const image = imageOf(block);
        if (!image) this.notes.add('images the session refers to but does not hold (only their mention is kept)');
        else if (base64Bytes(image.data) > MAX_IMAGE_BYTES) this.notes.add(`images larger than Smith sends (${MAX_IMAGE_BYTES / 1024 / 1024} MB)`);
        else images.push(image);
      } else this.notes.add(`content of type "${String(block.type)}" in the user's messages`);
    }
    const rest = this.xmlOutcome(texts, images, message.ts);
    // Claude Code writes each result of a reply's calls in a message of its own: the reply waits for them all.
    if (rest.length === 0 && images.length === 0 && this.reply && this.reply.open.size > 0) return;
    this.flushReply();
    this.events.push(...this.outcomes);
    this.outcomes = [];
    const joined = rest.join('\n\n');
    const split = this.dialect.splitUserText ? this.dialect.splitUserText(joined) : { text: joined };
    if (split.environment !== undefined) this.environment = { text: split.environment, ts: message.ts };
    const text = split.text.trim();
    if (!text && !split.context && images.length === 0) return;
    if (!this.task) {
      this.task = { text, ts: message.ts, ...(split.context ? { context: split.context } : {}), ...(images.length > 0 ? { images } : {}) };
      return;
    }
    this.push({ type: 'user_message', text, ...(split.context ? { context: split.context } : {}), ...(images.length > 0 ? { images } : {}) }, message.ts);
  }

  /** A tool_result block: the outcome of the open call it names. */
  private nativeOutcome(block: SourceBlock, ts: number): void {
    const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
    const call = [...(this.reply?.open ?? [])].find((c) => c.callId === id);
    const { text, images } = resultContent(block.content);
    if (!call) {
      this.notes.add('tool results whose call is not in the session (kept out)');
      return;
    }
    this.outcome(call, text, images, block.is_error === true, ts);
  }

  /**
   * The XML protocol puts a call's result in the next user message's text, headed "[tool …] Result:";
   * returns the texts that are not that result.
   */
  private xmlOutcome(texts: readonly string[], images: Base64Image[], ts: number): string[] {
    const call = [...(this.reply?.open ?? [])].find((c) => c.xmlResultLabel !== undefined);
    if (!call || texts.length === 0) return [...texts];
    const head = /^\[([a-z_]+)(?: for [^\n]*)?\] Result:\s*\n?/.exec(texts[0]!);
    if (!head || head[1] !== call.name) return [...texts];
    const body: string[] = [texts[0]!.slice(head[0].length)];
    let i = 1;
    for (; i < texts.length; i++) {
      if (/^\s*<environment_details>/.test(texts[i]!)) break;
      body.push(texts[i]!);
    }
    this.outcome(call, body.join('\n').trim(), images.splice(0), false, ts);
    return texts.slice(i);
  }

  private outcome(call: OpenCall, text: string, images: readonly Base64Image[], isError: boolean, ts: number): void {
    const reply = this.reply!;
    reply.open.delete(call);
    if (!call.mapped) {
      const block = reply.blocks[call.summaryIndex!];
      if (block?.kind === 'text') reply.blocks[call.summaryIndex!] = { ...block, text: `${block.text}\n${isError ? 'Error' : 'Result'}:\n${text}]` };
      if (images.length > 0) this.notes.add('images in the results of tools Smith does not have');
      return;
    }
    if (call.mapped.tool === 'attempt_completion') {
      // What follows a completion is the user's answer to it (Smith logs it as their next message).
      const feedback = /<feedback>\n?([\s\S]*?)\n?<\/feedback>/.exec(text)?.[1] ?? text;
      if (feedback.trim()) this.outcomes.push({ event: { type: 'user_message', text: feedback.trim() }, ts });
      return;
    }
    const denied = deniedFeedback(text);
    if (denied !== undefined) {
      this.outcomes.push({ event: { type: 'approval_answered', callId: call.callId, approved: false, ...(denied ? { feedback: denied } : {}) }, ts });
      return;
    }
    // The call ran in the other agent, so it was approved there; a replay approves the same call again.
    this.outcomes.push({ event: { type: 'approval_answered', callId: call.callId, approved: true }, ts });
    const error = isError || /^The tool execution failed with the following error:/.test(text);
    this.outcomes.push({
      event: error
        ? { type: 'tool_error', callId: call.callId, tool: call.mapped.tool, error: text, mistake: false }
        : { type: 'tool_result', callId: call.callId, tool: call.mapped.tool, output: text, ...(images.length > 0 ? { images } : {}) },
      ts,
    });
  }

  private addReply(message: SourceMessage): void {
    let reply = this.reply;
    if (reply && message.replyId !== undefined && reply.id === message.replyId) {
      // More of the same reply (Claude Code logs a reply's blocks one by one); its latest usage counts.
      if (message.usage) reply.usage = message.usage;
      if (message.cost !== undefined) reply.cost = message.cost;
    } else {
      this.flushReply();
      this.events.push(...this.outcomes);
      this.outcomes = [];
      reply = {
        id: message.replyId,
        blocks: [],
        reasoning: [],
        signed: [],
        usage: message.usage,
        cost: message.cost,
        ts: message.ts,
        calls: [],
        open: new Set(),
      };
    }
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of blocks) {
      switch (block.type) {
        case 'text':
          if (typeof block.text === 'string') this.replyText(reply, block.text);
          break;
        case 'thinking':
        case 'reasoning': {
          const text = typeof block.thinking === 'string' ? block.thinking : typeof block.text === 'string' ? block.text : '';
          if (text) reply.reasoning.push(text);
          if (typeof block.signature === 'string' && block.signature) {
            reply.signed.push({ text, signature: block.signature, ...afterCalls(reply) });
          } else if (text) this.unsignedThinking++;
          break;
        }
        case 'redacted_thinking':
          if (typeof block.data === 'string') reply.signed.push({ type: 'redacted_thinking', data: block.data, ...afterCalls(reply) });
          break;
        case 'tool_use':
          this.nativeCall(reply, block);
          break;
        default:
          this.notes.add(`content of type "${String(block.type)}" in the model's replies`);
      }
    }
    this.reply = reply;
  }

  private replyText(reply: PendingReply, text: string): void {
    if (!this.dialect.xml) {
      pushText(reply.blocks, text);
      return;
    }
    for (const block of parseAssistantMessage(text, this.dialect.xml.grammar)) {
      if (block.kind !== 'tool') {
        reply.blocks.push(block);
        continue;
      }
      // The XML protocol runs the first call of a reply; the agent ignored the rest, and so does the log.
      if (reply.calls.length > 0) {
        this.notes.add('tool calls after the first of a reply (the agent did not run them)');
        continue;
      }
      const mapped = this.dialect.xml.map(block.name, block.params);
      this.addCall(reply, block.name, mapped, block.params, undefined);
    }
  }

  private nativeCall(reply: PendingReply, block: SourceBlock): void {
    const name = typeof block.name === 'string' ? block.name : 'unknown';
    const input = typeof block.input === 'object' && block.input !== null ? (block.input as Record<string, unknown>) : {};
    const id = typeof block.id === 'string' && block.id ? block.id : undefined;
    this.addCall(reply, name, this.dialect.mapNative(name, input), input, id);
  }

  private addCall(
    reply: PendingReply,
    name: string,
    mapped: MappedCall | undefined,
    input: Readonly<Record<string, unknown>>,
    vendorId: string | undefined,
  ): void {
    const callId = vendorId ?? `imported-${++this.calls}`;
    if (mapped) {
      const tool: ToolUseBlock = { kind: 'tool', name: mapped.tool, params: mapped.params, partial: false, ...(vendorId ? { id: vendorId } : {}) };
      reply.blocks.push(tool);
      this.track(reply, { callId, name, mapped, ...(vendorId ? {} : { xmlResultLabel: name }) });
      return;
    }
    this.notes.add(`calls of ${this.dialect.agent}'s ${name} tool (Smith has no such tool; kept as text)`);
    reply.blocks.push({
      kind: 'text',
      text: `[${this.dialect.agent} called its ${name} tool, which Smith does not have, with ${JSON.stringify(input)}`,
      partial: false,
    });
    this.track(reply, { callId, name, mapped: undefined, summaryIndex: reply.blocks.length - 1, ...(vendorId ? {} : { xmlResultLabel: name }) });
  }

  private track(reply: PendingReply, call: OpenCall): void {
    reply.calls.push(call);
    reply.open.add(call);
  }

  /** Logs the reply being built: the request, the response, its calls. */
  private flushReply(): void {
    const reply = this.reply;
    if (!reply) return;
    this.reply = undefined;
    for (const call of reply.open) {
      if (call.mapped) continue;
      const block = reply.blocks[call.summaryIndex!];
      if (block?.kind === 'text' && !block.text.endsWith(']')) reply.blocks[call.summaryIndex!] = { ...block, text: `${block.text}; no result was recorded]` };
    }
    if (!reply.usage) this.repliesWithoutUsage++;
    if (reply.cost === undefined) this.repliesWithoutCost++;
    const environment = this.environment;
    this.environment = undefined;
    this.push({ type: 'request_started', environmentDetails: environment?.text ?? '' }, environment?.ts ?? reply.ts);
    const blocks = mergeTexts(reply.blocks);
    this.push(
      {
        type: 'model_response',
        text: serializeBlocks(blocks),
        reasoning: reply.reasoning.join('\n\n'),
        blocks,
        usage: reply.usage ?? NO_USAGE,
        ...(reply.cost !== undefined ? { cost: reply.cost } : {}),
        ...(reply.signed.length > 0 ? { signedReasoning: reply.signed } : {}),
      },
      reply.ts,
    );
    for (const call of reply.calls) {
      if (!call.mapped) continue;
      const vendorId = vendorIdOf(call);
      this.push(
        { type: 'tool_requested', callId: call.callId, tool: call.mapped.tool, params: call.mapped.params, ...(vendorId ? { toolUseId: vendorId } : {}) },
        reply.ts,
      );
      // attempt_completion ends the task; its result is what the user was shown.
      if (call.mapped.tool === 'attempt_completion') this.push({ type: 'task_completed', result: call.mapped.params.result ?? '' }, reply.ts);
    }
  }
}

/** The vendor's id of a native call (XML calls have none). */
function vendorIdOf(call: OpenCall): string | undefined {
  return call.xmlResultLabel === undefined && !call.callId.startsWith('imported-') ? call.callId : undefined;
}

function afterCalls(reply: PendingReply): { afterCalls?: number } {
  const calls = reply.blocks.filter((b) => b.kind === 'tool').length;
  return calls > 0 ? { afterCalls: calls } : {};
}

function pushText(blocks: AssistantBlock[], text: string): void {
  if (text) blocks.push({ kind: 'text', text, partial: false });
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
