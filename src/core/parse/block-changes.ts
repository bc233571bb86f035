import type { GrowingValue, StreamingToolParser } from './streaming-tool-parser.js';
import type { AssistantBlock } from './types.js';

/**
 * What changed in a streamed message's blocks. Folding the changes in order (see foldBlockChange)
 * gives exactly the blocks, so a reader after every chunk handles the new text only. `index` is
 * the block's place in the order the blocks opened.
 */
export type BlockChange =
  /** A block started; its text and parameter values are empty, they arrive as `block_appended`. */
  | { readonly kind: 'block_opened'; readonly index: number; readonly block: AssistantBlock }
  /** Text added at the end of the block's text, or of one parameter's value (created when absent). */
  | { readonly kind: 'block_appended'; readonly index: number; readonly param?: string; readonly text: string }
  /** A parameter's value replaced whole (the model wrote the parameter again). */
  | { readonly kind: 'block_set'; readonly index: number; readonly param: string; readonly value: string }
  /** The block is over; `partial` stays true for a tool call whose closing tag never came. */
  | { readonly kind: 'block_closed'; readonly index: number; readonly partial: boolean };

/** Key of a block's text among its parameters' names (which are XML tag names, never empty). */
const TEXT = '';

/**
 * What was reported of each value of the open block: its length, and either the value (once it
 * stopped growing, to tell a replacement by identity) or, while it grows, the text reported.
 */
interface Known {
  length: number;
  value: string | undefined;
  /** The growing value's text as reported, joined lazily (only compared when a restart is possible). */
  reported: string;
}

/**
 * Reads a StreamingToolParser after each push and says what changed since the last read. Only
 * the open block is looked at, and of it only the values that changed: the growing one through
 * GrowingValue.textFrom, so no earlier text is copied or read again.
 */
export class BlockChangeReader {
  private opened = 0;
  private closed = 0;
  /** Stream index of the open parser block, if one is open. */
  private openIndex = -1;
  private known = new Map<string, Known>();
  private growingSerial = -1;
  /** The parser's valuesStarted at the last read. */
  private lastStarted = 0;

  constructor(
    /** Gives each opened block its stream index (the reader's own count when absent). */
    private readonly nextIndex: () => number = () => this.opened,
  ) {}

  /**
   * The changes since the last read. `limit`: blocks from this parser index on are not reported
   * (the rest of a message after its first tool call, which the engine drops).
   */
  read(parser: StreamingToolParser, limit = Number.POSITIVE_INFINITY): BlockChange[] {
    const out: BlockChange[] = [];
    const completed = parser.completed;
    while (this.closed < completed.length && this.closed < limit) {
      const block = completed[this.closed]!;
      this.ensureOpen(block, out);
      // A value that started since the last read may have been the growing parameter written again.
      this.settle(block, undefined, out, parser.valuesStarted > this.lastStarted);
      out.push({ kind: 'block_closed', index: this.openIndex, partial: block.partial });
      this.closed++;
      this.openIndex = -1;
    }
    const current = this.closed < limit ? parser.current : undefined;
    if (current !== undefined) {
      this.ensureOpen(current, out);
      const growing = parser.growing;
      // Besides the value growing now, another one started and ended since the last read: it may
      // have been the growing parameter written again.
      this.settle(current, growing, out, parser.valuesStarted - this.lastStarted > (growing === undefined ? 0 : 1));
    }
    this.lastStarted = parser.valuesStarted;
    return out;
  }

  /** The changes for a block that arrives whole (a native tool call): opened, its values, closed. */
  whole(block: AssistantBlock): BlockChange[] {
    const index = this.nextIndex();
    this.opened++;
    const out: BlockChange[] = [{ kind: 'block_opened', index, block: emptied(block) }];
    for (const [param, text] of valuesOf(block)) out.push({ kind: 'block_appended', index, ...(param === TEXT ? {} : { param }), text });
    out.push({ kind: 'block_closed', index, partial: block.partial });
    return out;
  }

  private ensureOpen(block: AssistantBlock, out: BlockChange[]): void {
    if (this.openIndex !== -1) return;
    this.openIndex = this.nextIndex();
    this.opened++;
    this.known = new Map();
    this.growingSerial = -1;
    out.push({ kind: 'block_opened', index: this.openIndex, block: emptied(block) });
  }

  /** Reports how the open block's values differ from what was reported of them. */
  private settle(block: AssistantBlock, growing: GrowingValue | undefined, out: BlockChange[], restartPossible: boolean): void {
    const index = this.openIndex;
    const growingKey = growing === undefined ? undefined : (growing.param ?? TEXT);
    for (const [key, value] of valuesOf(block)) {
      if (key === growingKey) continue;
      const known = this.known.get(key);
      if (known === undefined) {
        out.push(appended(index, key, value));
        this.known.set(key, { length: value.length, value, reported: '' });
      } else if (known.value === undefined) {
        // The value that was growing is complete. It only grew since (the parser's promise), unless
        // the parameter was written again: only then is what was reported compared, once.
        const grew = value.length >= known.length && (!restartPossible || key === TEXT || value.startsWith(known.reported));
        if (!grew) out.push({ kind: 'block_set', index, param: key, value });
        else if (value.length > known.length) out.push(appended(index, key, value.slice(known.length)));
        this.known.set(key, { length: value.length, value, reported: '' });
      } else if (value !== known.value) {
        out.push({ kind: 'block_set', index, param: key, value });
        this.known.set(key, { length: value.length, value, reported: '' });
      }
    }
    if (growing === undefined || growingKey === undefined) return;
    let known = this.known.get(growingKey);
    if (growing.serial !== this.growingSerial) {
      this.growingSerial = growing.serial;
      // A parameter written again starts over from empty.
      if (known !== undefined && (known.length > 0 || known.value === undefined)) out.push({ kind: 'block_set', index, param: growingKey, value: '' });
      known = undefined;
    }
    if (known === undefined) {
      known = { length: 0, value: undefined, reported: '' };
      this.known.set(growingKey, known);
      // A parameter is reported as soon as it exists, even while empty.
      if (growingKey !== TEXT && growing.length === 0) out.push(appended(index, growingKey, ''));
    }
    known.value = undefined;
    if (growing.length > known.length) {
      const text = growing.textFrom(known.length);
      out.push(appended(index, growingKey, text));
      known.length = growing.length;
      if (growingKey !== TEXT) known.reported += text;
    }
  }
}

function appended(index: number, key: string, text: string): BlockChange {
  return key === TEXT ? { kind: 'block_appended', index, text } : { kind: 'block_appended', index, param: key, text };
}

/** The block's values by key: its text, or its parameters. */
function valuesOf(block: AssistantBlock): [string, string][] {
  return block.kind === 'tool' ? Object.entries(block.params) : [[TEXT, block.text]];
}

/** The block as it opens: every value empty, partial. */
function emptied(block: AssistantBlock): AssistantBlock {
  return block.kind === 'tool' ? { ...block, params: {}, partial: true } : { ...block, text: '', partial: true };
}

/**
 * Applies one change to blocks kept by index (the reader of BlockChange's fold). Returns the
 * changed block; strings grow by concatenation, so a long value is never copied.
 */
export function foldBlockChange(blocks: AssistantBlock[], change: BlockChange): AssistantBlock | undefined {
  if (change.kind === 'block_opened') {
    blocks[change.index] = change.block;
    return change.block;
  }
  const block = blocks[change.index];
  if (block === undefined) return undefined;
  let next: AssistantBlock;
  switch (change.kind) {
    case 'block_appended':
      if (block.kind === 'tool') {
        const param = change.param ?? '';
        next = { ...block, params: { ...block.params, [param]: (block.params[param] ?? '') + change.text } };
      } else next = { ...block, text: block.text + change.text };
      break;
    case 'block_set':
      next = block.kind === 'tool' ? { ...block, params: { ...block.params, [change.param]: change.value } } : block;
      break;
    case 'block_closed':
      next = { ...block, partial: change.partial };
      break;
  }
  blocks[change.index] = next;
  return next;
}
