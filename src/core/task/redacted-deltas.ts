import type { AssistantBlock } from '../parse/types.js';
import type { RedactingStream, SecretRedactor } from '../secrets/secret-redactor.js';
import type { TurnDelta } from './model-turn.js';

/**
 * Redacts one response's streamed deltas for the UI. Incremental text holds back a tail that could
 * be the start of a secret; cumulative blocks show only each string's settled part. The logged
 * model_response (redacted by the task log) carries the complete text.
 */
export class RedactedDeltas {
  private readonly text: RedactingStream;
  private readonly reasoning: RedactingStream;

  constructor(private readonly redactor: SecretRedactor) {
    this.text = redactor.stream();
    this.reasoning = redactor.stream();
  }

  /** The delta as the UI may see it; undefined when nothing of it can be shown yet. */
  map(delta: TurnDelta): TurnDelta | undefined {
    if (this.redactor.empty) return delta;
    if (delta.kind === 'blocks') return { kind: 'blocks', blocks: delta.blocks.map((block) => this.block(block)) };
    const text = (delta.kind === 'text' ? this.text : this.reasoning).push(delta.text);
    return text === '' ? undefined : { kind: delta.kind, text };
  }

  private block(block: AssistantBlock): AssistantBlock {
    if (!block.partial) return this.redactor.redactDeep(block);
    const settle = (value: unknown): unknown =>
      typeof value === 'string'
        ? this.redactor.settledPrefix(value)
        : Array.isArray(value)
          ? value.map(settle)
          : typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, settle(v)]))
            : value;
    return settle(block) as AssistantBlock;
  }
}
