import type { RedactingStream, SecretRedactor } from '../secrets/secret-redactor.js';
import type { TurnDelta } from './model-turn.js';

/**
 * Redacts one response's streamed deltas for the UI. The raw text, the reasoning and each value
 * of each block (its text, each parameter) go through their own redacting stream, which holds
 * back only a tail that could be the start of a secret: each delta costs its own length, whatever
 * came before. When a block closes, what its streams held back is released first. The logged
 * model_response (redacted by the task log) carries the complete text.
 */
export class RedactedDeltas {
  private readonly text: RedactingStream;
  private readonly reasoning: RedactingStream;
  /** The open streams of each block, by parameter name ('' for a block's text). */
  private readonly blocks = new Map<number, Map<string, RedactingStream>>();

  constructor(private readonly redactor: SecretRedactor) {
    this.text = redactor.stream();
    this.reasoning = redactor.stream();
  }

  /** The deltas the UI may see for one delta; empty when nothing of it can be shown yet. */
  map(delta: TurnDelta): TurnDelta[] {
    if (this.redactor.empty) return [delta];
    switch (delta.kind) {
      case 'text':
      case 'reasoning': {
        const text = (delta.kind === 'text' ? this.text : this.reasoning).push(delta.text);
        return text === '' ? [] : [{ kind: delta.kind, text }];
      }
      case 'block_opened':
        this.blocks.set(delta.index, new Map());
        return [{ ...delta, block: this.redactor.redactDeep(delta.block) }];
      case 'block_appended': {
        const text = this.stream(delta.index, delta.param ?? '').push(delta.text);
        // An empty append still says that a parameter exists.
        return text === '' && delta.text !== '' ? [] : [{ ...delta, text }];
      }
      case 'block_set': {
        // The value starts over: what was held back of the old one is dropped with it.
        const stream = this.redactor.stream();
        this.streams(delta.index).set(delta.param, stream);
        return [{ ...delta, value: stream.push(delta.value) }];
      }
      case 'block_closed': {
        const out: TurnDelta[] = [];
        for (const [param, stream] of this.streams(delta.index)) {
          const text = stream.end();
          if (text !== '') out.push({ kind: 'block_appended', index: delta.index, ...(param === '' ? {} : { param }), text });
        }
        this.blocks.delete(delta.index);
        out.push(delta);
        return out;
      }
    }
  }

  private streams(index: number): Map<string, RedactingStream> {
    let streams = this.blocks.get(index);
    if (streams === undefined) {
      streams = new Map();
      this.blocks.set(index, streams);
    }
    return streams;
  }

  private stream(index: number, param: string): RedactingStream {
    const streams = this.streams(index);
    let stream = streams.get(param);
    if (stream === undefined) {
      stream = this.redactor.stream();
      streams.set(param, stream);
    }
    return stream;
  }
}
