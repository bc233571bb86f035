import { isBlank, punctuationNormaliser } from './line-normalisers.js';
import { type Anchor, jaccard, jaccardOf, MAX_TOKENISED_CHARS, tokenSet } from './line-tokens.js';

// Scoring every line of a large file against the SEARCH's anchor lines is the whole cost of the
// closest-region search. Splitting the file into line strings and tokenising each with a regex
// allocates a few strings per line; this scan walks the file's UTF-8 bytes once instead and
// allocates nothing per line. A line with a non-ASCII character among the characters that get
// tokenised takes the string path (punctuation normalisation, tokenSet, jaccard), so both paths
// give every line exactly the score the string functions give it.

/** The file's non-blank lines in order: their 0-based line numbers and character ranges. */
interface ContentLines {
  readonly count: number;
  readonly lineIndex: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** Non-blank lines and, per window (a position among them), the best anchor score it got. */
interface ScoredWindows {
  readonly content: ContentLines;
  /** Indexed by window; 0 when no anchor shares a token with any line that starts it. */
  readonly scores: Float64Array;
}

// Read once: the scan runs per line, and an imported binding may be read through an accessor.
const TOKENISED_CHARS = MAX_TOKENISED_CHARS;
const scoreOf = jaccardOf;

const OTHER = 0;
const WORD = 1;
const SPACE = 2;
const NEWLINE = 3;
const HIGH = 4;

/** The class of each byte: word characters as in line-tokens.ts, whitespace as String.trim sees it. */
const BYTE_CLASS = new Uint8Array(256).map((_, byte) => {
  if (byte >= 0x80) return HIGH;
  if (byte === 0x0a) return NEWLINE;
  if (byte === 0x09 || byte === 0x0b || byte === 0x0c || byte === 0x0d || byte === 0x20) return SPACE;
  return /[A-Za-z0-9_$]/.test(String.fromCharCode(byte)) ? WORD : OTHER;
});

/** What LineTokens.scan found: whitespace only, tokens read from the bytes, or a line for the string path. */
const BLANK = 0;
const BYTE_PATH = 1;
const STRING_PATH = 2;

/** Scores each non-blank line of `text` against each anchor, as findClosestRegion defines it. */
export function scoreWindows(text: string, anchors: readonly Anchor[]): ScoredWindows {
  const { bytes, ascii } = utf8Bytes(text);
  const matcher = new AnchorMatcher(anchors);
  const line = new LineTokens(bytes);
  const content = new ContentTable(bytes.length);
  let byteStart = 0;
  let charStart = 0;
  for (let lineNumber = 0; ; lineNumber++) {
    const kind = line.scan(byteStart);
    const byteEnd = line.end >= 0 ? line.end : findNewline(text, bytes, ascii, -line.end - 1);
    // Byte and character offsets agree in ASCII text; otherwise newlines are matched up one by one.
    const charEnd = ascii ? byteEnd : lineEnd(text, charStart);
    if (kind === BYTE_PATH) {
      const position = content.add(lineNumber, charStart, charEnd);
      const size = matcher.match(line);
      for (let a = 0; size > 0 && a < anchors.length; a++) {
        const shared = matcher.shared[a]!;
        if (shared > 0) content.record(position, anchors[a]!.offset, scoreOf(shared, anchors[a]!.tokens.size, size));
      }
    } else if (kind === STRING_PATH) {
      const raw = text.slice(charStart, charEnd);
      if (!isBlank(raw)) {
        const position = content.add(lineNumber, charStart, charEnd);
        const tokens = tokenSet(punctuationNormaliser(raw));
        for (const anchor of anchors) {
          const score = jaccard(anchor.tokens, tokens);
          if (score > 0) content.record(position, anchor.offset, score);
        }
      }
    }
    if (byteEnd >= bytes.length) break;
    byteStart = byteEnd + 1;
    charStart = charEnd + 1;
  }
  return content.result();
}

/** Content lines and window scores in typed arrays that grow by doubling: pushing to plain arrays costs more than the scan. */
class ContentTable {
  private count = 0;
  private lineIndex: Int32Array;
  private start: Int32Array;
  private end: Int32Array;
  private scores: Float64Array;

  constructor(textLength: number) {
    const capacity = Math.max(64, textLength >> 5);
    this.lineIndex = new Int32Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  /** Adds a content line and returns its position. */
  add(line: number, start: number, end: number): number {
    if (this.count === this.lineIndex.length) this.grow();
    this.lineIndex[this.count] = line;
    this.start[this.count] = start;
    this.end[this.count] = end;
    return this.count++;
  }

  /** An anchor at `offset` in the SEARCH scored the line at `position`: the window starts `offset` lines earlier. */
  record(position: number, offset: number, score: number): void {
    const window = position > offset ? position - offset : 0;
    if (score > this.scores[window]!) this.scores[window] = score;
  }

  result(): ScoredWindows {
    const count = this.count;
    return {
      content: { count, lineIndex: this.lineIndex.subarray(0, count), start: this.start.subarray(0, count), end: this.end.subarray(0, count) },
      scores: this.scores.subarray(0, count),
    };
  }

  private grow(): void {
    const widen = <T extends Int32Array | Float64Array>(array: T, make: (length: number) => T): T => {
      const wider = make(array.length * 2);
      wider.set(array);
      return wider;
    };
    this.lineIndex = widen(this.lineIndex, (n) => new Int32Array(n));
    this.start = widen(this.start, (n) => new Int32Array(n));
    this.end = widen(this.end, (n) => new Int32Array(n));
    this.scores = widen(this.scores, (n) => new Float64Array(n));
  }
}

/** The tokens of one line, found in the file's bytes; one instance is reused from line to line. */
class LineTokens {
  /** Token start offsets and lengths, in bytes; at most one token per two tokenised characters. */
  readonly starts = new Int32Array(TOKENISED_CHARS);
  readonly lengths = new Int32Array(TOKENISED_CHARS);
  /** Tokens are grouped by first byte and length: only tokens with the same key can be equal. */
  readonly keys = new Int32Array(TOKENISED_CHARS);
  count = 0;
  /** The offset of the line's newline (or the text's end), or -(offset + 1) where the search for it resumes. */
  end = 0;

  constructor(readonly bytes: Uint8Array) {}

  /** Tokenises the line starting at byte `start` as tokenSet(punctuationNormaliser(line)) would. */
  scan(start: number): number {
    const bytes = this.bytes;
    const total = bytes.length;
    let at = start;
    while (at < total && BYTE_CLASS[bytes[at]!] === SPACE) at++;
    let type = at < total ? BYTE_CLASS[bytes[at]!]! : NEWLINE;
    if (type === NEWLINE) return this.finish(BLANK, at);
    if (type === HIGH) return this.finish(STRING_PATH, findByte(bytes, 0x0a, at));
    // Like slice(0, MAX_TOKENISED_CHARS) of the trimmed line: a token the limit cuts keeps its head.
    const trimmedStart = at;
    const limit = Math.min(total, trimmedStart + TOKENISED_CHARS);
    let count = 0;
    let lastSolid = trimmedStart;
    while (at < limit) {
      type = BYTE_CLASS[bytes[at]!]!;
      if (type === WORD) {
        // Most bytes are in words: a tight loop over the run.
        const run = at;
        do at++;
        while (at < limit && BYTE_CLASS[bytes[at]!] === WORD);
        if (at - run >= 2) count = this.push(count, run, at - run);
        lastSolid = at - 1;
      } else if (type === SPACE) {
        at++;
      } else if (type === OTHER) {
        lastSolid = at++;
      } else if (type === NEWLINE) {
        break;
      } else {
        return this.finish(STRING_PATH, findByte(bytes, 0x0a, at));
      }
    }
    // A line without word tokens is its own token, as tokenSet has it.
    if (count === 0) count = this.push(0, trimmedStart, lastSolid + 1 - trimmedStart);
    this.count = count;
    return this.finish(BYTE_PATH, at >= total || bytes[at] === 0x0a ? at : -(at + 1));
  }

  /** True when tokens `a` and `b` have the same bytes. */
  same(a: number, b: number): boolean {
    const length = this.lengths[a]!;
    if (length !== this.lengths[b]) return false;
    const startA = this.starts[a]!;
    const startB = this.starts[b]!;
    for (let i = 0; i < length; i++) if (this.bytes[startA + i] !== this.bytes[startB + i]) return false;
    return true;
  }

  /** True when token `t` is `other`, byte for byte. */
  equals(t: number, other: Uint8Array): boolean {
    const length = this.lengths[t]!;
    if (length !== other.length) return false;
    const start = this.starts[t]!;
    for (let i = 0; i < length; i++) if (this.bytes[start + i] !== other[i]) return false;
    return true;
  }

  private finish(kind: number, end: number): number {
    this.end = end;
    return kind;
  }

  private push(count: number, start: number, length: number): number {
    this.starts[count] = start;
    this.lengths[count] = length;
    this.keys[count] = tokenKey(this.bytes[start]!, length);
    return count + 1;
  }
}

const KEYS = 128 * 64;

/** A token's group in the tables below: its first byte (ASCII) and its length, the long ones together. */
function tokenKey(firstByte: number, length: number): number {
  return firstByte * 64 + Math.min(length, 63);
}

interface AnchorToken {
  readonly bytes: Uint8Array;
  /** Bit a is set when anchor a has this token. */
  readonly anchors: number;
  /** The line it was last counted on, so a token repeated on a line counts once. */
  countedOn: number;
}

/**
 * Counts, per anchor, the distinct tokens a line shares with it and, for a line that shares any,
 * its number of distinct tokens. Tables keyed by first byte and length, stamped per line instead
 * of cleared, make each token cost a lookup; bytes are compared only between tokens with one key.
 */
class AnchorMatcher {
  /** Per anchor, the distinct tokens of the last matched line that the anchor has. */
  readonly shared: number[];
  // Filled to full size up front: an array written at scattered indices turns into a slow dictionary.
  private readonly anchorTokens = new Array<AnchorToken[] | undefined>(KEYS).fill(undefined);
  private readonly keyStamp = new Int32Array(KEYS);
  private readonly keyFirst = new Int32Array(KEYS);
  private readonly nextWithKey = new Int32Array(TOKENISED_CHARS);
  private stamp = 0;

  constructor(anchors: readonly Anchor[]) {
    const masks = new Map<string, number>();
    anchors.forEach((anchor, a) => {
      for (const token of anchor.tokens) masks.set(token, (masks.get(token) ?? 0) | (1 << a));
    });
    // A token with a non-ASCII character can only be on a line that takes the string path.
    for (const [token, mask] of masks) {
      if (!/^[\x00-\x7f]+$/.test(token)) continue;
      const bytes = new TextEncoder().encode(token);
      const key = tokenKey(bytes[0]!, bytes.length);
      const sameKey = this.anchorTokens[key] ?? [];
      sameKey.push({ bytes, anchors: mask, countedOn: 0 });
      this.anchorTokens[key] = sameKey;
    }
    this.shared = anchors.map(() => 0);
  }

  /** The line's number of distinct tokens, or 0 when it shares none with any anchor; fills `shared`. */
  match(line: LineTokens): number {
    const stamp = ++this.stamp;
    let sharesAny = false;
    for (let t = 0; t < line.count; t++) {
      const candidates = this.anchorTokens[line.keys[t]!];
      if (candidates === undefined) continue;
      for (const token of candidates) {
        if (token.countedOn === stamp || !line.equals(t, token.bytes)) continue;
        token.countedOn = stamp;
        // A loop: Array.prototype.fill costs more than the rest of a line's matching.
        if (!sharesAny) for (let a = 0; a < this.shared.length; a++) this.shared[a] = 0;
        sharesAny = true;
        for (let a = 0; a < this.shared.length; a++) if (token.anchors & (1 << a)) this.shared[a]!++;
      }
    }
    // Most lines share nothing, and their other tokens need not be told apart.
    return sharesAny ? this.distinctTokens(line, stamp) : 0;
  }

  private distinctTokens(line: LineTokens, stamp: number): number {
    let distinct = 0;
    for (let t = 0; t < line.count; t++) {
      const key = line.keys[t]!;
      const first = this.keyStamp[key] === stamp ? this.keyFirst[key]! : -1;
      let earlier = first;
      while (earlier >= 0 && !line.same(earlier, t)) earlier = this.nextWithKey[earlier]!;
      if (earlier >= 0) continue;
      this.nextWithKey[t] = first;
      this.keyFirst[key] = t;
      this.keyStamp[key] = stamp;
      distinct++;
    }
    return distinct;
  }
}

/** The text as UTF-8, and whether it is all ASCII (then byte offsets are character offsets). */
function utf8Bytes(text: string): { bytes: Uint8Array; ascii: boolean } {
  const encoder = new TextEncoder();
  const bytes = new Uint8Array(text.length);
  // Into a buffer of one byte per character: it takes the whole text only when every character is ASCII.
  if (encoder.encodeInto(text, bytes).read === text.length) return { bytes, ascii: true };
  return { bytes: encoder.encode(text), ascii: false };
}

function findByte(bytes: Uint8Array, byte: number, from: number): number {
  const at = bytes.indexOf(byte, from);
  return at === -1 ? bytes.length : at;
}

/** The newline at or after byte `from`; a string's indexOf is much faster than a typed array's. */
function findNewline(text: string, bytes: Uint8Array, ascii: boolean, from: number): number {
  return ascii ? lineEnd(text, from) : findByte(bytes, 0x0a, from);
}

/** The offset of the newline at or after `from`, or the text's length. */
function lineEnd(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  return at === -1 ? text.length : at;
}
