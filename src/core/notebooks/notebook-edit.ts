// One cell edit of a notebook's text: replace a cell's source (and type), insert a cell, delete a
// cell. Only the edited cell's bytes change (notebook-layout.ts); the result is checked against
// nbformat's required fields before anyone sees it. A replaced code cell loses its outputs and
// execution count, as they no longer belong to its source; a new cell gets an id when the
// notebook's cells have ids.
import { randomBytes } from 'node:crypto';
import type { ExpectedCell, NotebookCellContent, NotebookCellEdit } from '../ports.js';
import {
  type CellType,
  cellSource,
  isRecord,
  type Notebook,
  type NotebookCell,
  notebookLanguage,
  notebookSchemaProblems,
  sourceLines,
  usesCellIds,
} from './notebook-document.js';
import { cellsLayout, indentAt, layOutValue, textLayout } from './notebook-layout.js';

/** What the model asked for, with the cell resolved to an index. */
export type CellEditRequest =
  | { readonly kind: 'replace'; readonly index: number; readonly source: string; readonly cellType?: CellType }
  | { readonly kind: 'insert'; readonly index: number; readonly source: string; readonly cellType: CellType }
  | { readonly kind: 'delete'; readonly index: number };

/** An edit worked out: the new text, the same change for an editor's notebook, and the cell before and after (for the approval). */
export interface NotebookTextEdit {
  readonly text: string;
  readonly cellEdit: NotebookCellEdit;
  /** The cells as the edit expects them, for an editor that holds its own copy. */
  readonly expected: readonly ExpectedCell[];
  /** The edited cell as people read it, before and after (empty for an inserted or deleted one). */
  readonly before: string;
  readonly after: string;
  /** The new cell's id, when it got one. */
  readonly newId?: string;
}

/** Applies one edit to the notebook's text; a problem in words when the result would not be a valid notebook. */
export function editNotebookText(text: string, notebook: Notebook, request: CellEditRequest): NotebookTextEdit | { readonly problem: string } {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const layout = cellsLayout(body);
  if (!layout || layout.cells.length !== notebook.cells.length) return { problem: 'its cells list could not be located in the text' };
  const style = textLayout(body);
  const language = notebookLanguage(notebook);
  const expected = notebook.cells.map((cell) => ({ cellType: cell.cell_type, source: cellSource(cell) }));
  const shown = (index: number, cell: Pick<NotebookCell, 'cell_type' | 'source'>) => `[cell ${index}: ${cell.cell_type}]\n${cellSource(cell)}\n`;
  const cellIndent = (index: number) => indentAt(body, layout.cells[index]!.start);
  const keyIndent = indentAt(body, layout.key);
  let next: string;
  let cellEdit: NotebookCellEdit;
  let before = '';
  let after = '';
  let newId: string | undefined;
  if (request.kind === 'replace') {
    const old = notebook.cells[request.index]!;
    const cell = replacedCell(old, request.source, request.cellType ?? old.cell_type);
    const span = layout.cells[request.index]!;
    next = body.slice(0, span.start) + layOutValue(cell, style, cellIndent(request.index)) + body.slice(span.end);
    cellEdit = { kind: 'replace', index: request.index, cell: contentOf(cell, cellLanguage(old, language)) };
    before = shown(request.index, old);
    after = shown(request.index, cell as unknown as NotebookCell);
  } else if (request.kind === 'insert') {
    newId = usesCellIds(notebook) ? freshId(notebook) : undefined;
    const cell = newCell(request.cellType, request.source, newId, preferredSourceForm(notebook));
    const base = layout.cells.length > 0 ? cellIndent(0) : style.unit === '' ? '' : keyIndent + style.unit;
    const laid = layOutValue(cell, style, base);
    const gap = style.unit === '' ? '' : `${style.eol}${base}`;
    if (layout.cells.length === 0) {
      const close = style.unit === '' ? '' : `${style.eol}${keyIndent}`;
      next = `${body.slice(0, layout.array.start)}[${gap}${laid}${close}]${body.slice(layout.array.end)}`;
    } else if (request.index < layout.cells.length) {
      const at = layout.cells[request.index]!.start;
      next = `${body.slice(0, at)}${laid},${gap}${body.slice(at)}`;
    } else {
      const at = layout.cells.at(-1)!.end;
      next = `${body.slice(0, at)},${gap}${laid}${body.slice(at)}`;
    }
    cellEdit = { kind: 'insert', index: request.index, cell: contentOf(cell, language) };
    after = shown(request.index, cell as unknown as NotebookCell);
  } else {
    const spans = layout.cells;
    if (spans.length === 1) next = `${body.slice(0, layout.array.start)}[]${body.slice(layout.array.end)}`;
    else if (request.index < spans.length - 1) next = body.slice(0, spans[request.index]!.start) + body.slice(spans[request.index + 1]!.start);
    else next = body.slice(0, spans[request.index - 1]!.end) + body.slice(spans[request.index]!.end);
    cellEdit = { kind: 'delete', index: request.index };
    before = shown(request.index, notebook.cells[request.index]!);
  }
  // Problems the file had already are its own (a cell without metadata); only new ones stop the edit.
  const added = newProblems(notebookSchemaProblems(JSON.parse(body)), notebookSchemaProblems(JSON.parse(next)));
  if (added.length > 0) return { problem: `the edited notebook would not be valid (${added.join('; ')})` };
  return { text: bom + next, cellEdit, expected, before, after, ...(newId ? { newId } : {}) };
}

/** The problems of `after` that `before` did not have, cell numbers aside (an insert or delete moves them). */
function newProblems(before: readonly string[], after: readonly string[]): string[] {
  const key = (problem: string) => problem.replace(/cell \d+/g, 'cell #');
  const left = new Map<string, number>();
  for (const problem of before) left.set(key(problem), (left.get(key(problem)) ?? 0) + 1);
  return after.filter((problem) => {
    const count = left.get(key(problem)) ?? 0;
    if (count > 0) left.set(key(problem), count - 1);
    return count === 0;
  });
}

/** The cell with its new source and type; its id, metadata and other fields kept, in their order. */
function replacedCell(old: NotebookCell, source: string, cellType: CellType): Record<string, unknown> {
  const form = typeof old.source === 'string' ? 'string' : 'lines';
  // Entries, not assignments: a key such as "__proto__" stays a key of the cell.
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(old)) {
    if (key === 'outputs' || key === 'execution_count') {
      if (cellType === 'code') entries.push([key, key === 'outputs' ? [] : null]);
    } else if (key === 'attachments' && cellType === 'code') continue;
    else entries.push([key, key === 'source' ? sourceValue(source, form) : key === 'cell_type' ? cellType : value]);
  }
  const has = (key: string) => entries.some(([name]) => name === key);
  if (!isRecord(old.metadata)) {
    const at = entries.findIndex(([name]) => name === 'metadata');
    if (at >= 0) entries.splice(at, 1);
    entries.push(['metadata', {}]);
  }
  if (cellType === 'code') {
    if (!has('outputs')) entries.push(['outputs', []]);
    if (!has('execution_count')) entries.push(['execution_count', null]);
  }
  const keys = Object.keys(old);
  const sorted = keys.every((key, i) => i === 0 || keys[i - 1]! <= key);
  if (sorted) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** A new cell, its keys in Jupyter's (alphabetical) order. */
function newCell(cellType: CellType, source: string, id: string | undefined, form: 'string' | 'lines'): Record<string, unknown> {
  return {
    cell_type: cellType,
    ...(cellType === 'code' ? { execution_count: null } : {}),
    ...(id ? { id } : {}),
    metadata: {},
    ...(cellType === 'code' ? { outputs: [] } : {}),
    source: sourceValue(source, form),
  };
}

function sourceValue(source: string, form: 'string' | 'lines'): string | string[] {
  return form === 'string' ? source : sourceLines(source);
}

/** Lists of lines, as Jupyter writes them, unless every cell of the notebook has its source as one string. */
function preferredSourceForm(notebook: Notebook): 'string' | 'lines' {
  return notebook.cells.length > 0 && notebook.cells.every((cell) => typeof cell.source === 'string') ? 'string' : 'lines';
}

/** Eight hex digits as nbformat's own ids, unused in the notebook. */
function freshId(notebook: Notebook): string {
  const taken = new Set(notebook.cells.map((cell) => cell.id));
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}

/** A code cell's language: its own (VS Code keeps it in metadata.vscode) or the notebook's. */
function cellLanguage(cell: NotebookCell, language: string): string {
  const vscode = isRecord(cell.metadata) && isRecord(cell.metadata.vscode) ? cell.metadata.vscode : undefined;
  return typeof vscode?.languageId === 'string' ? vscode.languageId : language;
}

function contentOf(cell: Record<string, unknown>, language: string): NotebookCellContent {
  const source = cell.source as string | string[];
  return {
    cellType: cell.cell_type as CellType,
    source: typeof source === 'string' ? source : source.join(''),
    language,
    ...(typeof cell.id === 'string' ? { id: cell.id } : {}),
    metadata: isRecord(cell.metadata) ? cell.metadata : {},
    ...(isRecord(cell.attachments) ? { attachments: cell.attachments } : {}),
  };
}
