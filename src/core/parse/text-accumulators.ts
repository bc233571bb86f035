// Accumulators for streamed block text. Both only ever append to cons strings and never re-read
// what they already hold, so the parser's cost stays proportional to the new characters and a
// snapshot read is O(1).

/** Pieces joined per batch: few enough to keep reads cheap, enough to keep the string's pieces few. */
const BATCH = 64;

/**
 * Text built from many small appends. Joining each batch of pieces keeps the string made of a few
 * large parts instead of one part per streamed chunk, which the garbage collector would walk again
 * and again as a long message grows.
 */
class AppendOnlyText {
  private settled = '';
  private recent: string[] = [];
  private recentLength = 0;
  // The last batch joined into `settled`, kept flat: a reader after every chunk reads its tail
  // from here, never from `settled`, whose slicing would copy the whole text.
  private lastBatch = '';
  // `settled` plus the first `shownCount` pieces of `recent`: extended by the pieces appended since
  // the last read, so a read after every chunk costs O(1) instead of re-joining the whole batch.
  private shown = '';
  private shownCount = 0;

  get isEmpty(): boolean {
    return this.settled.length === 0 && this.recent.length === 0;
  }

  get length(): number {
    return this.settled.length + this.recentLength;
  }

  append(piece: string): void {
    if (piece.length === 0) return;
    this.recent.push(piece);
    this.recentLength += piece.length;
    if (this.recent.length >= BATCH) {
      this.lastBatch = this.recent.join('');
      this.settled += this.lastBatch;
      this.recent = [];
      this.recentLength = 0;
      this.shown = this.settled;
      this.shownCount = 0;
    }
  }

  toString(): string {
    const recent = this.recent;
    if (this.shownCount < recent.length) {
      this.shown += this.shownCount === recent.length - 1 ? recent[this.shownCount]! : recent.slice(this.shownCount).join('');
      this.shownCount = recent.length;
    }
    return this.shown;
  }

  /**
   * The text from `offset` on. Costs the length of that text when `offset` lies in the last batch
   * or later (a reader after every chunk); an earlier offset copies the whole text once.
   */
  textFrom(offset: number): string {
    const settledLength = this.settled.length;
    if (offset < settledLength - this.lastBatch.length) return this.toString().slice(offset);
    const parts: string[] = [];
    let need = settledLength + this.recentLength - offset;
    for (let i = this.recent.length - 1; i >= 0 && need > 0; i--) {
      const piece = this.recent[i]!;
      parts.push(piece.length <= need ? piece : piece.slice(piece.length - need));
      need -= piece.length;
    }
    if (need > 0) parts.push(this.lastBatch.slice(this.lastBatch.length - need));
    return parts.length === 1 ? parts[0]! : parts.reverse().join('');
  }
}

/** A growing value: the visible part so far, and the final value once the source ends. */
interface GrowingText {
  /** Appends the next decided piece of source text. */
  append(piece: string): void;
  /** The value so far; always a prefix of what `final()` will return. */
  readonly value: string;
  /** The value once no more text will come. */
  final(): string;
  /** Length of `value`. */
  readonly length: number;
  /** `value` from `offset` on, without copying the text before it (see AppendOnlyText.textFrom). */
  textFrom(offset: number): string;
}

/** Text trimmed at both ends (text and thinking blocks, ordinary parameters). */
export class TrimmedText implements GrowingText {
  private readonly body = new AppendOnlyText();
  // Whitespace after the last non-whitespace character: held back because it is dropped if the
  // text ends here and kept if more text follows.
  private gap = '';

  /** Appends a piece; leading whitespace of the whole value is dropped as it arrives. */
  append(piece: string): void {
    if (piece.length === 0) return;
    const end = piece.trimEnd().length;
    if (end === 0) {
      if (!this.body.isEmpty) this.gap += piece;
      return;
    }
    if (this.body.isEmpty) this.body.append(piece.slice(0, end).trimStart());
    else {
      this.body.append(this.gap);
      this.body.append(piece.slice(0, end));
    }
    this.gap = piece.slice(end);
  }

  /** The trimmed text so far. */
  get value(): string {
    return this.body.toString();
  }

  get length(): number {
    return this.body.length;
  }

  textFrom(offset: number): string {
    return this.body.textFrom(offset);
  }

  /** The trimmed text. */
  final(): string {
    return this.body.toString();
  }
}

/**
 * A raw parameter value (`content`, `diff`): every byte is kept except exactly one leading and one
 * trailing newline ("\n" or "\r\n"), which are only the tag layout `<content>\n…\n</content>`.
 */
export class RawText implements GrowingText {
  // Start of the value while we cannot yet tell whether it opens with a newline (a lone "\r").
  private head: string | undefined = '';
  private readonly body = new AppendOnlyText();
  // A trailing "\n", "\r\n" or "\r" held back so that the visible value stays a prefix of the
  // final one, which drops one trailing newline.
  private tail = '';

  /** Appends a piece of the raw value. */
  append(piece: string): void {
    if (piece.length === 0) return;
    let rest = piece;
    if (this.head !== undefined) {
      const start = this.head + piece;
      if (start === '\r') {
        this.head = start;
        return;
      }
      rest = start.startsWith('\r\n') ? start.slice(2) : start.startsWith('\n') ? start.slice(1) : start;
      this.head = undefined;
      if (rest.length === 0) return;
    }
    const joined = this.tail + rest;
    const held = joined.endsWith('\r\n') ? 2 : joined.endsWith('\n') || joined.endsWith('\r') ? 1 : 0;
    this.body.append(joined.slice(0, joined.length - held));
    this.tail = joined.slice(joined.length - held);
  }

  /** The value so far, without a trailing newline that may turn out to be the last one. */
  get value(): string {
    return this.body.toString();
  }

  get length(): number {
    return this.body.length;
  }

  textFrom(offset: number): string {
    return this.body.textFrom(offset);
  }

  /** The value with one leading and one trailing newline removed; a lone "\r" is not a newline. */
  final(): string {
    return (this.head ?? '') + this.body.toString() + (this.tail === '\r' ? '\r' : '');
  }
}
