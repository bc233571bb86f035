import { RawText } from './text-accumulators.js';
import { isWhitespace, matchTag, MAYBE_TAG, NO_TAG } from './tags.js';
import type { ToolTags } from './tags.js';

// A raw value (a file body, a diff) may contain anything, its own tags included: an XML file with
// <content> elements, a diff that edits a <diff> element, a page that shows a whole tool call
// (`</content>` then `</write_to_file>`). So it can only end at a closing tag followed by optional
// whitespace, complete ordinary parameters and the tool's closing tag (a "candidate end"), and
// which candidate is the real end cannot be known before the message is over: each one is
// remembered, and the text after it is read on as part of the value. When the message ends, the
// candidate that leaves the fewest of the tool's own opening tags unclosed in the value wins (an
// example call inside the file, or a second call after this one, opens one more), the last of
// those. Nothing is ever dropped; while streaming, the value shown stops at the first candidate.
// The choice is made earlier when a tool call starts well after the best candidate (DECIDE_AFTER
// characters), with no more of the tool's tags open than at that candidate: that is taken for the
// message's next call. Waiting for the message's end would make a message of many calls cost time
// quadratic in its length; closer to the candidate, the call may still be an example in the file.

/** How a raw parameter, and the tool call around it, ended. */
export interface RawEnd {
  /** The raw value, without the one leading and trailing newline of the tag layout. */
  readonly value: string;
  /** The ordinary parameters that came after the raw one. */
  readonly params: Readonly<Record<string, string>>;
  /** False when the message ended before the tool's closing tag. */
  readonly complete: boolean;
  /** The message text after the tool's closing tag, to be read as ordinary text. */
  readonly rest: string;
}

/** How far past a candidate end a tool call must start to settle the choice before the message ends. */
const DECIDE_AFTER = 4096;

interface RememberedEnd {
  readonly value: string;
  readonly params: Readonly<Record<string, string>>;
  readonly toolDepth: number;
  /** Offset (from the start of the raw value's source) where the text after the tool's end starts. */
  readonly restFrom: number;
}

/** Reads what follows a candidate closing tag: whitespace, ordinary parameters, the tool's end. */
class ToolEndLookahead {
  readonly params: Record<string, string> = {};
  private param: string | undefined;
  private paramClose = '';
  private valueStart = 0;

  constructor(
    private readonly tool: ToolTags,
    /** Where the candidate closing tag starts in the scanner's buffer. */
    public start: number,
    private pos: number,
    readonly toolDepth: number,
  ) {}

  /** Moves the positions when the buffer drops `delta` characters from its front. */
  shift(delta: number): void {
    this.start -= delta;
    this.pos -= delta;
    this.valueStart -= delta;
  }

  /** Reads on: the offset just past the tool's closing tag, 'more' when the input ends too soon, or 'dead'. */
  advance(buf: string): number | 'more' | 'dead' {
    for (;;) {
      if (this.param === undefined) {
        while (this.pos < buf.length && isWhitespace(buf.charAt(this.pos))) this.pos++;
        if (this.pos === buf.length) return 'more';
        if (buf.charAt(this.pos) !== '<') return 'dead';
        const tag = matchTag(buf, this.pos, this.tool.afterRawTags);
        if (tag === MAYBE_TAG) return 'more';
        if (tag === NO_TAG) return 'dead';
        this.pos += tag.length;
        if (tag === this.tool.close) return this.pos;
        this.param = this.tool.paramByTag.get(tag) ?? '';
        this.paramClose = `</${this.param}>`;
        this.valueStart = this.pos;
        continue;
      }
      const lt = buf.indexOf('<', this.pos);
      if (lt === -1) {
        this.pos = buf.length;
        return 'more';
      }
      // An ordinary parameter ends at its closing tag, or (forgotten) at the tool's.
      const tag = matchTag(buf, lt, [this.paramClose, this.tool.close]);
      if (tag === MAYBE_TAG) {
        this.pos = lt;
        return 'more';
      }
      if (tag === NO_TAG) {
        this.pos = lt + 1;
        continue;
      }
      this.params[this.param] = buf.slice(this.valueStart, lt).trim();
      this.param = undefined;
      this.pos = lt + tag.length;
      if (tag === this.tool.close) return this.pos;
    }
  }

  /** The parameters read so far, an unfinished one included, for a message that ended here. */
  paramsSoFar(buf: string): Record<string, string> {
    if (this.param === undefined) return this.params;
    return { ...this.params, [this.param]: buf.slice(this.valueStart).trim() };
  }
}

/**
 * Scans one raw parameter's text as it streams and, when the message ends, decides where it ended.
 * Each character is read once, except the few after a closing tag that are read again as value.
 */
export class RawParamScanner {
  private readonly value = new RawText();
  private readonly closeTag: string;
  private readonly tags: readonly string[];
  /** Source text not yet decided (from `pos`, or from a candidate's closing tag on). */
  private buf = '';
  private pos = 0;
  /** Offset of buf[0] from the start of the raw value's source. */
  private base = 0;
  private toolDepth = 0;
  private lookahead: ToolEndLookahead | undefined;
  private readonly remembered: RememberedEnd[] = [];
  /** The value shown while a remembered end may still be the real one. */
  private frozen: string | undefined;
  /** Source text after the first remembered end's tool tag, for the text that follows the call. */
  private after: string[] | undefined;
  private afterFrom = 0;

  /** Starts scanning the value of raw parameter `param` of `tool`; `toolOpeners` are every tool's opening tag. */
  constructor(
    private readonly tool: ToolTags,
    param: string,
    private readonly toolOpeners: ReadonlySet<string>,
  ) {
    this.closeTag = `</${param}>`;
    this.tags = [this.closeTag, tool.close, ...toolOpeners];
  }

  /** The value so far; always a prefix of the final value. */
  get shown(): string {
    return this.frozen ?? this.value.value;
  }

  /** Length of `shown`. */
  get shownLength(): number {
    return this.frozen?.length ?? this.value.length;
  }

  /** `shown` from `offset` on, costing only that text while nothing is frozen. */
  shownFrom(offset: number): string {
    if (this.frozen === undefined) return this.value.textFrom(offset);
    // The value grew past the frozen point in the same chunk: it is still a prefix of the value.
    return offset >= this.frozen.length ? '' : this.value.textFrom(offset).slice(0, this.frozen.length - offset);
  }

  /** Feeds the next piece of source text; returns the end once it is decided. */
  feed(text: string): RawEnd | undefined {
    const keep = this.lookahead === undefined ? this.pos : this.lookahead.start;
    if (keep > 0) {
      this.buf = this.buf.slice(keep);
      this.base += keep;
      this.pos -= keep;
      this.lookahead?.shift(keep);
    }
    this.buf += text;
    this.after?.push(text);
    return this.scan();
  }

  /** The message ended: the best candidate end, or the unfinished call as it stands. */
  finish(): RawEnd {
    const best = this.best();
    if (best !== undefined) return this.endAt(best);
    if (this.lookahead !== undefined) {
      return { value: this.value.final(), params: this.lookahead.paramsSoFar(this.buf), complete: false, rest: '' };
    }
    // An undecided "<…" fragment at the very end is text of the value.
    this.value.append(this.buf.slice(this.pos));
    this.pos = this.buf.length;
    return { value: this.value.final(), params: {}, complete: false, rest: '' };
  }

  private best(): RememberedEnd | undefined {
    let best: RememberedEnd | undefined;
    for (const end of this.remembered) if (best === undefined || end.toolDepth <= best.toolDepth) best = end;
    return best;
  }

  private endAt(end: RememberedEnd): RawEnd {
    const rest = (this.after ?? []).join('').slice(end.restFrom - this.afterFrom);
    return { value: end.value, params: end.params, complete: true, rest };
  }

  private scan(): RawEnd | undefined {
    for (;;) {
      const look = this.lookahead;
      if (look !== undefined) {
        const end = look.advance(this.buf);
        if (end === 'more') return undefined;
        if (end !== 'dead') this.remember(look, end);
        // Read on as if the closing tag belonged to the value; what followed it is read again.
        this.lookahead = undefined;
        this.value.append(this.closeTag);
        this.pos = look.start + this.closeTag.length;
        continue;
      }
      const lt = this.buf.indexOf('<', this.pos);
      if (lt === -1) {
        this.value.append(this.pos === 0 ? this.buf : this.buf.slice(this.pos));
        this.pos = this.buf.length;
        return undefined;
      }
      if (lt > this.pos) this.value.append(this.buf.slice(this.pos, lt));
      this.pos = lt;
      const tag = matchTag(this.buf, lt, this.tags);
      if (tag === MAYBE_TAG) return undefined;
      if (typeof tag === 'string' && this.toolOpeners.has(tag)) {
        const best = this.best();
        if (best !== undefined && best.toolDepth === this.toolDepth && this.base + lt - best.restFrom >= DECIDE_AFTER) {
          return this.endAt(best);
        }
      }
      if (tag === this.closeTag) {
        this.lookahead = new ToolEndLookahead(this.tool, lt, lt + tag.length, this.toolDepth);
        continue;
      }
      const literal = tag === NO_TAG ? '<' : tag;
      this.value.append(literal);
      this.pos = lt + literal.length;
      if (tag === this.tool.open) this.toolDepth++;
      else if (tag === this.tool.close) this.toolDepth = Math.max(0, this.toolDepth - 1);
    }
  }

  private remember(look: ToolEndLookahead, end: number): void {
    if (this.after === undefined) {
      this.after = [this.buf.slice(end)];
      this.afterFrom = this.base + end;
      this.frozen = this.value.value;
    }
    this.remembered.push({ value: this.value.final(), params: look.params, toolDepth: look.toolDepth, restFrom: this.base + end });
  }
}
