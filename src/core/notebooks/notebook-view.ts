// The text read_file shows for a notebook: each cell with its index (the one edit_notebook takes),
// type, id and source, then its outputs summarised (notebook-outputs.ts). read_file numbers and
// pages these lines like a file's.
import { appendOutput, type OutputImage } from './notebook-outputs.js';
import { cellSource, isRecord, type Notebook, notebookLanguage } from './notebook-document.js';

/** A notebook laid out as lines, with the images its outputs hold (each at its line). */
export interface NotebookView {
  /** One line saying what the notebook is; shown above the numbered lines. */
  readonly summary: string;
  readonly lines: readonly string[];
  readonly images: readonly OutputImage[];
}

/** Lays out every cell of the notebook. */
export function notebookView(notebook: Notebook, display: string): NotebookView {
  const language = notebookLanguage(notebook);
  const lines: string[] = [];
  const images: OutputImage[] = [];
  for (const [index, cell] of notebook.cells.entries()) {
    lines.push(cellHeader(index, cell, language));
    const source = cellSource(cell);
    if (source !== '') lines.push(...source.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n'));
    if (cell.cell_type !== 'code' || !Array.isArray(cell.outputs)) continue;
    for (const [at, output] of cell.outputs.entries()) {
      const image = appendOutput(lines, output, index, at);
      if (image) images.push(image);
    }
  }
  const count = notebook.cells.length;
  const summary = `Notebook ${display} (nbformat ${notebook.nbformat}.${notebook.nbformatMinor}, ${language}, ${count} cell${count === 1 ? '' : 's'}). The numbers are lines of this view, not of the file; change cells with edit_notebook, which counts cells from 0.`;
  return { summary, lines, images };
}

/** `[cell 2: code, id "a1b2", execution_count 5]`; a code cell's language only when it is not the notebook's. */
function cellHeader(index: number, cell: Notebook['cells'][number], language: string): string {
  const parts: string[] = [cell.cell_type];
  const vscode = isRecord(cell.metadata) && isRecord(cell.metadata.vscode) ? cell.metadata.vscode : undefined;
  const own = typeof vscode?.languageId === 'string' ? vscode.languageId : undefined;
  if (cell.cell_type === 'code' && own && own !== language) parts[0] = `code (${own})`;
  if (typeof cell.id === 'string') parts.push(`id ${JSON.stringify(cell.id)}`);
  if (cell.cell_type === 'code' && typeof cell.execution_count === 'number') parts.push(`execution_count ${cell.execution_count}`);
  return `[cell ${index}: ${parts.join(', ')}]`;
}
