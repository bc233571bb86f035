import type { TurnDelta } from '../core/task/model-turn.js';
import type { StreamingView } from './panel-changes.js';
import { lastIndexAtOrBefore } from '../shared/sorted-search.js';

/** Pieces are joined into blocks of about this many characters, so reading a tail finds its start quickly. */
const BLOCK = 4096;

/**
 * Text that only grows at its end, readable from any offset at the cost of the text read (plus
 * at most one block): a reader that sends what was added since its last read never copies the
 * whole text, as slicing one long concatenated string would.
 */
export class AppendedText {
  private readonly blocks: string[] = [];
  /** Offset where each block starts. */
  private readonly starts: number[] = [];
  private recent: string[] = [];
  private recentLength = 0;
  private total = 0;
  private whole = '';

  get length(): number {
    return this.total;
  }

  append(text: string): void {
    if (text === '') return;
    this.recent.push(text);
    this.recentLength += text.length;
    this.total += text.length;
    this.whole += text;
    if (this.recentLength >= BLOCK) {
      this.starts.push(this.total - this.recentLength);
      this.blocks.push(this.recent.join(''));
      this.recent = [];
      this.recentLength = 0;
    }
  }

  /** The text from `offset` on. */
  textFrom(offset: number): string {
    if (offset >= this.total) return '';
    if (offset <= 0) return this.whole;
    const recentStart = this.total - this.recentLength;
    const parts: string[] = [];
    if (offset < recentStart) {
      // The last block starting at or before `offset`.
      const low = lastIndexAtOrBefore(this.starts, offset);
      parts.push(this.blocks[low]!.slice(offset - this.starts[low]!));
      for (let i = low + 1; i < this.blocks.length; i++) parts.push(this.blocks[i]!);
      parts.push(...this.recent);
    } else {
      let skip = offset - recentStart;
      for (const piece of this.recent) {
        if (skip >= piece.length) skip -= piece.length;
        else {
          parts.push(skip === 0 ? piece : piece.slice(skip));
          skip = 0;
        }
      }
    }
    return parts.join('');
  }

  toString(): string {
    return this.whole;
  }
}

/** Separates the answer's text blocks, and the reasoning's parts, as the logged message shows them. */
const SEPARATOR = '\n\n';

/**
 * The assistant message the panel shows while it streams, built from the task's deltas by
 * appending: the answer (the text blocks, without tool calls) and the reasoning (the provider's,
 * then <thinking> blocks). `key` names this message; it changes whenever the text starts over,
 * so a reader that has sent part of it knows when to send it whole again.
 */
export class StreamingMessage {
  readonly text = new AppendedText();
  reasoning = new AppendedText();
  private revision = 0;
  /** Text blocks' indices, and whether each has shown text yet. */
  private readonly textBlocks = new Map<number, boolean>();
  private readonly thinkingBlocks = new Map<number, boolean>();
  /** Where each thinking block's text is in `thinking`. */
  private readonly thinkingPart = new Map<number, number>();
  /** The parts of the reasoning in order: the provider's reasoning first, then each thinking block. */
  private providerReasoning = '';
  private readonly thinking: string[] = [];

  constructor(private readonly id: string) {}

  get key(): string {
    return this.revision === 0 ? this.id : `${this.id}.${this.revision}`;
  }

  /** Applies one delta; false when it changes nothing the panel shows. */
  apply(delta: TurnDelta): boolean {
    switch (delta.kind) {
      case 'text':
        return false;
      case 'reasoning':
        return this.addProviderReasoning(delta.text);
      case 'block_opened':
        if (delta.block.kind === 'text') this.textBlocks.set(delta.index, false);
        else if (delta.block.kind === 'thinking') {
          this.thinkingBlocks.set(delta.index, false);
          this.thinkingPart.set(delta.index, this.thinking.length);
          this.thinking.push('');
        }
        return false;
      case 'block_appended':
        if (delta.param !== undefined || delta.text === '') return false;
        if (this.textBlocks.has(delta.index)) {
          this.appendPart(this.text, this.textBlocks, delta.index, delta.text);
          return true;
        }
        if (this.thinkingBlocks.has(delta.index)) {
          const part = this.thinkingPart.get(delta.index)!;
          this.thinking[part] += delta.text;
          this.appendPart(this.reasoning, this.thinkingBlocks, delta.index, delta.text);
          return true;
        }
        return false;
      case 'block_set':
      case 'block_closed':
        return false;
    }
  }

  /** Appends a block's text, after a separator when an earlier part has shown text. */
  private appendPart(target: AppendedText, blocks: Map<number, boolean>, index: number, text: string): void {
    if (!blocks.get(index)) {
      if (target.length > 0) target.append(SEPARATOR);
      blocks.set(index, true);
    }
    target.append(text);
  }

  private addProviderReasoning(text: string): boolean {
    if (text === '') return false;
    const thinkingShown = this.thinking.some((part) => part !== '');
    this.providerReasoning += text;
    if (!thinkingShown) {
      this.reasoning.append(text);
      return true;
    }
    // The provider's reasoning comes first: with thinking already shown, the reasoning starts over.
    this.revision++;
    this.reasoning = new AppendedText();
    this.reasoning.append([this.providerReasoning, ...this.thinking].filter(Boolean).join(SEPARATOR));
    // Later thinking text is appended after what the rebuilt reasoning holds.
    return true;
  }
}

/** Text that is given whole (an empty streaming view; tests). */
export function appendedText(text: string): AppendedText {
  const out = new AppendedText();
  out.append(text);
  return out;
}

/** The view of a task with nothing streaming: empty, sent whole. */
export function emptyStreamingView(taskId: string): StreamingView {
  return { taskId, text: appendedText(''), reasoning: appendedText('') };
}
