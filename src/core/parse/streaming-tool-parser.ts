import type { AssistantBlock, ToolGrammar } from './types.js';
import { RawParamScanner } from './raw-param-scanner.js';
import type { RawEnd } from './raw-param-scanner.js';
import { matchTag, MAYBE_TAG, NO_TAG } from './tags.js';
import type { ToolTags } from './tags.js';
import { TrimmedText } from './text-accumulators.js';

/**
 * Parameters kept byte for byte (file bodies, SEARCH/REPLACE diffs). They may contain their own
 * tags; raw-param-scanner.ts decides where they end.
 */
const RAW_PARAMS: ReadonlySet<string> = new Set(['content', 'diff']);

const THINKING_TAGS: ReadonlyMap<string, string> = new Map([
  ['<thinking>', '</thinking>'],
  ['<think>', '</think>'],
]);

// A tag name must be safe to put between < and >, and must not be a key that changes an
// object's prototype when used as a parameter name.
const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

type Opener = { readonly kind: 'tool'; readonly tool: ToolTags } | { readonly kind: 'thinking'; readonly close: string };

/**
 * Where the scanner is. `tool` is between parameters; `param` is inside a trimmed parameter, which
 * ends at the first `</param>` (or at `</tool>`, forgiving a forgotten `</param>`); `raw` is inside a
 * raw parameter.
 */
type Mode = 'text' | 'thinking' | 'tool' | 'param' | 'raw';

function checkTagName(name: string, what: string): void {
  if (!TAG_NAME.test(name) || name === '__proto__') {
    throw new Error(`ToolGrammar: ${what} name ${JSON.stringify(name)} cannot be used as an XML tag`);
  }
}

function compileGrammar(grammar: ToolGrammar): Map<string, Opener> {
  const openers = new Map<string, Opener>();
  for (const [open, close] of THINKING_TAGS) openers.set(open, { kind: 'thinking', close });
  for (const [name, params] of grammar.tools) {
    checkTagName(name, 'tool');
    if (openers.has(`<${name}>`)) throw new Error(`ToolGrammar: tool name "${name}" is reserved`);
    const paramByTag = new Map<string, string>();
    for (const param of params) {
      checkTagName(param, `parameter of tool "${name}"`);
      paramByTag.set(`<${param}>`, param);
    }
    const open = `<${name}>`;
    const close = `</${name}>`;
    const ordinary = [...paramByTag].filter(([, param]) => !RAW_PARAMS.has(param)).map(([tag]) => tag);
    const tool: ToolTags = { name, open, close, paramByTag, nextTags: [close, ...paramByTag.keys()], afterRawTags: [close, ...ordinary] };
    openers.set(open, { kind: 'tool', tool });
  }
  return openers;
}

/**
 * Incremental parser for assistant messages with Cline-style XML tool blocks. It keeps a scanning
 * state (mode, current block, an undecided tag fragment) so that each push costs time proportional
 * to the new text, whatever the message length; the final blocks never depend on the chunking.
 */
export class StreamingToolParser {
  private readonly openers: ReadonlyMap<string, Opener>;
  private readonly openerTags: readonly string[];
  private readonly toolOpeners: ReadonlySet<string>;
  private mode: Mode = 'text';
  /** Tail of the input that starts with "<" and may still become a tag; not yet shown anywhere. */
  private pending = '';
  private readonly done: AssistantBlock[] = [];
  private prose: TrimmedText = new TrimmedText();
  private thinkingClose = '';
  private tool: ToolTags | undefined;
  private params: Record<string, string> = {};
  private paramName = '';
  private paramTags: readonly string[] = [];
  private value = new TrimmedText();
  private raw: RawParamScanner | undefined;
  private snapshot: readonly AssistantBlock[] | undefined;
  private finished = false;
  /** Counts the values started (a text or thinking block's text, a parameter), naming the one growing now. */
  private serial = 0;

  /** Creates a parser that recognises the tools and parameters of `grammar`. */
  constructor(grammar: ToolGrammar) {
    this.openers = compileGrammar(grammar);
    this.openerTags = [...this.openers.keys()];
    this.toolOpeners = new Set([...this.openers].filter(([, opener]) => opener.kind === 'tool').map(([tag]) => tag));
  }

  /** Feeds the next chunk of streamed text. */
  push(chunk: string): void {
    if (this.finished) throw new Error('StreamingToolParser: push() after finish()');
    if (chunk.length === 0) return;
    this.snapshot = undefined;
    this.scan(this.pending + chunk);
  }

  /**
   * The blocks that are over, in order. The same array for the parser's whole life: it only ever
   * grows and its entries never change, so reading it after each chunk costs O(1).
   */
  get completed(): readonly AssistantBlock[] {
    return this.done;
  }

  /** The block still growing (partial: true), if any; built from the scanning state in O(1). */
  get current(): AssistantBlock | undefined {
    return this.finished ? undefined : this.currentBlock();
  }

  /** How many values (a text or thinking block's text, a parameter) have started growing so far. */
  get valuesStarted(): number {
    return this.serial;
  }

  /**
   * The value of the open block that grows as text arrives, read without copying what was read
   * before: undefined between a tool's parameters and after finish().
   */
  get growing(): GrowingValue | undefined {
    if (this.finished || this.mode === 'tool') return undefined;
    const serial = this.serial;
    if (this.mode === 'raw') {
      const raw = this.requireRaw();
      return { param: this.paramName, serial, length: raw.shownLength, textFrom: (offset) => raw.shownFrom(offset) };
    }
    if (this.mode === 'param') return { param: this.paramName, serial, length: this.value.length, textFrom: (offset) => this.value.textFrom(offset) };
    return { serial, length: this.prose.length, textFrom: (offset) => this.prose.textFrom(offset) };
  }

  /**
   * Current blocks, including the last one still growing (partial: true). A fresh copy costing
   * O(blocks): a reader after every chunk should use `completed` and `current` instead.
   */
  get blocks(): readonly AssistantBlock[] {
    if (this.snapshot === undefined) {
      const current = this.currentBlock();
      this.snapshot = current === undefined ? this.done.slice() : [...this.done, current];
    }
    return this.snapshot;
  }

  /**
   * Ends the stream: returns the final blocks. A tool block whose closing tag never came stays
   * partial: true (the engine must not execute it). Text/thinking blocks become partial: false.
   */
  finish(): readonly AssistantBlock[] {
    if (this.finished) return this.blocks;
    this.finished = true;
    this.snapshot = undefined;
    this.flushPending();
    // The message's end decides where a raw value ended if the next tool call did not; the text
    // after its tool is then read like the rest of the message.
    while (this.mode === 'raw') {
      const end = this.requireRaw().finish();
      this.endRaw(end);
      this.scan(end.rest);
      this.flushPending();
    }
    switch (this.mode) {
      case 'text':
        this.endProse('text');
        break;
      case 'thinking':
        this.endProse('thinking');
        break;
      case 'param':
        this.endParam();
        this.endTool(true);
        break;
      case 'tool':
        this.endTool(true);
        break;
    }
    this.snapshot = this.done.slice();
    return this.snapshot;
  }

  private scan(input: string): void {
    let work = input;
    let at = 0;
    while (at < work.length) {
      if (this.mode === 'raw') {
        const end = this.requireRaw().feed(at === 0 ? work : work.slice(at));
        if (end === undefined) break;
        this.endRaw(end);
        work = end.rest;
        at = 0;
        continue;
      }
      const lt = work.indexOf('<', at);
      if (lt === -1) {
        this.consume(at === 0 ? work : work.slice(at));
        break;
      }
      if (lt > at) this.consume(work.slice(at, lt));
      const next = this.atTag(work, lt);
      if (next < 0) {
        this.pending = work.slice(lt);
        return;
      }
      at = next;
    }
    this.pending = '';
  }

  /** Handles the "<" at `lt`: returns where scanning resumes, or -1 if the input ends too soon to tell. */
  private atTag(work: string, lt: number): number {
    switch (this.mode) {
      case 'text': {
        const tag = matchTag(work, lt, this.openerTags);
        if (tag === MAYBE_TAG) return -1;
        if (tag === NO_TAG) return this.literalLt(lt);
        const opener = this.openers.get(tag);
        this.endProse('text');
        if (opener?.kind === 'thinking') {
          this.thinkingClose = opener.close;
          this.mode = 'thinking';
        } else if (opener?.kind === 'tool') {
          this.tool = opener.tool;
          this.params = {};
          this.mode = 'tool';
        }
        return lt + tag.length;
      }
      case 'thinking': {
        const tag = matchTag(work, lt, [this.thinkingClose]);
        if (tag === MAYBE_TAG) return -1;
        if (tag === NO_TAG) return this.literalLt(lt);
        this.endProse('thinking');
        this.mode = 'text';
        return lt + tag.length;
      }
      case 'tool':
        return this.betweenParams(work, lt);
      case 'param': {
        const tag = matchTag(work, lt, this.paramTags);
        if (tag === MAYBE_TAG) return -1;
        if (tag === NO_TAG) return this.literalLt(lt);
        this.endParam();
        if (tag !== this.paramTags[0]) this.endTool(false);
        return lt + tag.length;
      }
      case 'raw':
        throw new Error('StreamingToolParser: internal error, raw text reached the tag scanner');
    }
  }

  private betweenParams(work: string, lt: number): number {
    const tool = this.requireTool();
    const tag = matchTag(work, lt, tool.nextTags);
    if (tag === MAYBE_TAG) return -1;
    // Stray text between parameters carries no meaning for the call, so it is skipped.
    if (tag === NO_TAG) return lt + 1;
    if (tag === tool.close) this.endTool(false);
    else this.startParam(tool, tag);
    return lt + tag.length;
  }

  /** A "<" that starts no tag here is ordinary text of the current block. */
  private literalLt(lt: number): number {
    this.consume('<');
    return lt + 1;
  }

  private consume(text: string): void {
    switch (this.mode) {
      case 'text':
      case 'thinking':
        this.prose.append(text);
        break;
      case 'param':
        this.value.append(text);
        break;
      case 'tool':
      case 'raw':
        break;
    }
  }

  /** At the end of the stream an undecided fragment is plain text. */
  private flushPending(): void {
    const rest = this.pending;
    this.pending = '';
    if (rest.length > 0) this.consume(rest);
  }

  private requireTool(): ToolTags {
    if (this.tool === undefined) throw new Error('StreamingToolParser: internal error, no open tool');
    return this.tool;
  }

  private requireRaw(): RawParamScanner {
    if (this.raw === undefined) throw new Error('StreamingToolParser: internal error, no raw parameter');
    return this.raw;
  }

  private startParam(tool: ToolTags, openTag: string): void {
    const name = tool.paramByTag.get(openTag) ?? '';
    this.paramName = name;
    this.serial++;
    if (RAW_PARAMS.has(name)) {
      this.raw = new RawParamScanner(tool, name, this.toolOpeners);
      this.mode = 'raw';
      return;
    }
    this.paramTags = [`</${name}>`, tool.close];
    this.value = new TrimmedText();
    this.mode = 'param';
  }

  /** Stores a raw value and the parameters after it, and closes its tool. */
  private endRaw(end: RawEnd): void {
    this.params[this.paramName] = end.value;
    Object.assign(this.params, end.params);
    this.raw = undefined;
    this.endTool(!end.complete);
  }

  private endParam(): void {
    // A repeated parameter replaces the earlier value, as the model's latest word on it.
    this.params[this.paramName] = this.value.final();
    this.mode = 'tool';
  }

  private endTool(partial: boolean): void {
    const tool = this.requireTool();
    this.done.push({ kind: 'tool', name: tool.name, params: this.params, partial });
    this.tool = undefined;
    this.params = {};
    this.mode = 'text';
  }

  /** Closes the current text or thinking block; blocks with only whitespace are dropped. */
  private endProse(kind: 'text' | 'thinking'): void {
    const text = this.prose.final();
    if (text.length > 0) this.done.push({ kind, text, partial: false });
    this.prose = new TrimmedText();
    this.serial++;
  }

  private currentBlock(): AssistantBlock | undefined {
    switch (this.mode) {
      case 'text':
      case 'thinking': {
        const text = this.prose.value;
        return text.length === 0 ? undefined : { kind: this.mode, text, partial: true };
      }
      case 'tool':
        return { kind: 'tool', name: this.requireTool().name, params: { ...this.params }, partial: true };
      case 'param':
      case 'raw': {
        // Copied key by key: an object spread with a computed key takes V8's slow path, and this
        // runs after every chunk.
        const params: Record<string, string> = {};
        for (const key of Object.keys(this.params)) params[key] = this.params[key]!;
        params[this.paramName] = this.mode === 'raw' ? this.requireRaw().shown : this.value.value;
        return { kind: 'tool', name: this.requireTool().name, params, partial: true };
      }
    }
  }
}

/**
 * The growing value of the open block: its text (no `param`) or one parameter's value. `serial`
 * changes whenever another value starts growing (a repeated parameter starts again from empty);
 * while it stays the same, the value only ever grows at its end.
 */
export interface GrowingValue {
  readonly param?: string;
  readonly serial: number;
  readonly length: number;
  textFrom(offset: number): string;
}

/** Parses a whole message at once (same result as pushing it in one chunk and finishing). */
export function parseAssistantMessage(text: string, grammar: ToolGrammar): readonly AssistantBlock[] {
  const parser = new StreamingToolParser(grammar);
  parser.push(text);
  return parser.finish();
}
