// Where the cells lie in a notebook's text and how the file is laid out, so an edit rewrites only
// the cell it changes: every other byte of the file (other cells with their outputs, metadata,
// key order, number spellings) stays as it was. Jupyter writes 1-space indentation and a final
// newline; other writers use 2 spaces, tabs, CRLF or one line, and each is kept.
import { visit } from 'jsonc-parser/lib/esm/main.js';

/** Start (inclusive) and end (exclusive) offsets of a value in the text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The top-level `cells` list: its brackets, each cell's object, and the `"cells"` key. */
export interface CellsLayout {
  readonly array: Span;
  readonly cells: readonly Span[];
  /** Offset of the `"cells"` key. */
  readonly key: number;
}

/** How the file is laid out: its indentation unit ('' for JSON on one line) and line ending. */
export interface TextLayout {
  readonly unit: string;
  readonly eol: string;
}

/** The layout of the text's top-level `cells` list (the last one, as JSON.parse reads duplicates), or undefined. */
export function cellsLayout(text: string): CellsLayout | undefined {
  let depth = 0;
  let pendingKey = -1;
  let collecting: { array: { start: number; end: number }; cells: Span[]; key: number } | undefined;
  let found: CellsLayout | undefined;
  let cellStart = -1;
  visit(
    text,
    {
      onObjectProperty: (property, offset) => {
        if (depth === 1) pendingKey = property === 'cells' ? offset : -1;
      },
      onObjectBegin: (offset) => {
        if (depth === 2 && collecting) cellStart = offset;
        if (depth === 1) pendingKey = -1;
        depth++;
      },
      onObjectEnd: (offset, length) => {
        depth--;
        if (depth === 2 && collecting) collecting.cells.push({ start: cellStart, end: offset + length });
      },
      onArrayBegin: (offset) => {
        if (depth === 1 && pendingKey >= 0) collecting = { array: { start: offset, end: -1 }, cells: [], key: pendingKey };
        if (depth === 1) pendingKey = -1;
        depth++;
      },
      onArrayEnd: (offset, length) => {
        depth--;
        if (depth === 1 && collecting) {
          collecting.array.end = offset + length;
          found = collecting;
          collecting = undefined;
        }
      },
      onLiteralValue: () => {
        if (depth === 1) pendingKey = -1;
      },
    },
    { disallowComments: true },
  );
  return found;
}

/** The file's indentation unit (the first indented line's) and line ending. */
export function textLayout(text: string): TextLayout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^\uFEFF?\s*\{[ \t]*\r?\n([ \t]+)\S/.exec(text);
  return { unit: indented ? indented[1]! : '', eol };
}

/** The whitespace a value starting at `offset` is indented by ('' when something else precedes it on its line). */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : '';
}

/** A value as JSON laid out like the file, its first line at the caller's position and the rest indented from `base`. */
export function layOutValue(value: unknown, layout: TextLayout, base: string): string {
  if (layout.unit === '') return JSON.stringify(value);
  return JSON.stringify(value, null, layout.unit).split('\n').join(`${layout.eol}${base}`);
}
