// A Jupyter notebook's JSON (nbformat 4, https://nbformat.readthedocs.io/en/latest/format_description.html)
// as read_file shows it and edit_notebook changes it: what must be there, the cells' sources, the
// notebook's language. The file's own bytes stay the record; nothing here writes.

/** The cell types of nbformat 4. */
export const CELL_TYPES = ['code', 'markdown', 'raw'] as const;
export type CellType = (typeof CELL_TYPES)[number];

/** A cell as parsed (fields beyond these are kept by the edits as they are). */
export interface NotebookCell {
  readonly cell_type: CellType;
  readonly source: string | readonly string[];
  readonly id?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly outputs?: readonly unknown[];
  readonly execution_count?: number | null;
  readonly attachments?: Readonly<Record<string, unknown>>;
}

/** A notebook that parsed and has what read_file and edit_notebook rely on. */
export interface Notebook {
  readonly nbformat: number;
  readonly nbformatMinor: number;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly cells: readonly NotebookCell[];
}

/** Whether a path names a Jupyter notebook (by its extension, as Jupyter and VS Code decide). */
export function isNotebookPath(path: string): boolean {
  return /\.ipynb$/i.test(path);
}

/**
 * Parses a notebook's text. Lenient where Jupyter is (a cell without metadata, a code cell without
 * outputs still reads), strict where the cells could not be shown or addressed: a problem in words
 * otherwise.
 */
export function parseNotebook(text: string): Notebook | { readonly problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    return { problem: `it is not valid JSON (${(error as Error).message})` };
  }
  if (!isRecord(json)) return { problem: 'its JSON is not an object' };
  if (json.nbformat !== 4) {
    const found = typeof json.nbformat === 'number' ? `nbformat ${json.nbformat}` : 'no nbformat number';
    return { problem: `it has ${found}; only nbformat 4 notebooks are shown as cells (convert with \`jupyter nbconvert --to notebook\`)` };
  }
  if (!Array.isArray(json.cells)) return { problem: 'it has no "cells" list' };
  for (const [index, cell] of json.cells.entries()) {
    const problem = cellProblem(cell);
    if (problem) return { problem: `cell ${index} ${problem}` };
  }
  const minor = json.nbformat_minor;
  return {
    nbformat: 4,
    nbformatMinor: typeof minor === 'number' && Number.isInteger(minor) && minor >= 0 ? minor : 0,
    metadata: isRecord(json.metadata) ? json.metadata : {},
    cells: json.cells as NotebookCell[],
  };
}

function cellProblem(cell: unknown): string | undefined {
  if (!isRecord(cell)) return 'is not an object';
  if (!CELL_TYPES.includes(cell.cell_type as CellType)) return `has cell_type ${JSON.stringify(cell.cell_type)} (not code, markdown or raw)`;
  if (!isSource(cell.source)) return 'has a source that is neither a string nor a list of strings';
  if (cell.id !== undefined && typeof cell.id !== 'string') return 'has an id that is not a string';
  return undefined;
}

/**
 * What a valid nbformat 4 notebook must hold, as the format's schema requires it: the top-level
 * fields, and each cell's fields by type (ids from nbformat 4.5 on). Empty when nothing is missing.
 */
export function notebookSchemaProblems(json: unknown): string[] {
  if (!isRecord(json)) return ['the notebook is not a JSON object'];
  const problems: string[] = [];
  if (json.nbformat !== 4) problems.push('nbformat must be 4');
  if (typeof json.nbformat_minor !== 'number' || !Number.isInteger(json.nbformat_minor) || json.nbformat_minor < 0)
    problems.push('nbformat_minor must be a whole number');
  if (!isRecord(json.metadata)) problems.push('metadata must be an object');
  if (!Array.isArray(json.cells)) return [...problems, 'cells must be a list'];
  const needsIds = typeof json.nbformat_minor === 'number' && json.nbformat_minor >= 5;
  const ids = new Set<string>();
  for (const [index, cell] of json.cells.entries()) {
    const problem = cellProblem(cell);
    if (problem) {
      problems.push(`cell ${index} ${problem}`);
      continue;
    }
    const c = cell as Record<string, unknown>;
    if (!isRecord(c.metadata)) problems.push(`cell ${index} has no metadata object`);
    if (c.cell_type === 'code') {
      if (!Array.isArray(c.outputs)) problems.push(`code cell ${index} has no outputs list`);
      if (!(c.execution_count === null || (typeof c.execution_count === 'number' && Number.isInteger(c.execution_count))))
        problems.push(`code cell ${index} has no execution_count (a number or null)`);
    } else if (c.outputs !== undefined || c.execution_count !== undefined) problems.push(`${c.cell_type} cell ${index} has outputs or an execution_count`);
    if (typeof c.id === 'string') {
      if (!/^[a-zA-Z0-9-_]{1,64}$/.test(c.id)) problems.push(`cell ${index} has an id that is not 1-64 letters, digits, - or _`);
      if (ids.has(c.id)) problems.push(`cell ${index} repeats the id ${c.id}`);
      ids.add(c.id);
    } else if (needsIds) problems.push(`cell ${index} has no id (required from nbformat 4.5)`);
  }
  return problems;
}

/** A cell's source as one string (nbformat allows a list of lines or a string). */
export function cellSource(cell: Pick<NotebookCell, 'source'>): string {
  return typeof cell.source === 'string' ? cell.source : cell.source.join('');
}

/** The notebook's language: its kernel's, else Python (Jupyter's default). */
export function notebookLanguage(notebook: Pick<Notebook, 'metadata'>): string {
  const info = notebook.metadata.language_info;
  if (isRecord(info) && typeof info.name === 'string' && info.name !== '') return info.name;
  const kernel = notebook.metadata.kernelspec;
  if (isRecord(kernel) && typeof kernel.language === 'string' && kernel.language !== '') return kernel.language;
  return 'python';
}

/** Whether the notebook's cells carry ids: nbformat 4.5 and later, or any cell has one. */
export function usesCellIds(notebook: Notebook): boolean {
  return notebook.nbformatMinor >= 5 || notebook.cells.some((cell) => typeof cell.id === 'string');
}

/** Text as nbformat writes a multi-line string: a list of lines, each but the last ending in its newline. */
export function sourceLines(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

function isSource(value: unknown): value is string | string[] {
  return typeof value === 'string' || (Array.isArray(value) && value.every((line) => typeof line === 'string'));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why write_to_file or replace_in_file must not change a notebook as text, or undefined when it
 * may: a valid notebook is changed cell by cell with edit_notebook (read_file shows its cells, not
 * its JSON); a file that is not one yet may be repaired as text; a whole new content must be a
 * valid notebook. `proposed` is absent for replace_in_file, whose result is not judged.
 */
export function notebookTextEditRefusal(display: string, current: string | undefined, proposed: string | undefined, tool: string): string | undefined {
  if (!isNotebookPath(display)) return undefined;
  if (current !== undefined && current.trim() !== '' && !('problem' in parseNotebook(current))) {
    return `${display} is a Jupyter notebook: change its cells with edit_notebook (replace, insert or delete a cell), not ${tool}, which would rewrite its JSON. Nothing was written.`;
  }
  if (proposed === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(proposed.startsWith('\uFEFF') ? proposed.slice(1) : proposed);
  } catch (error) {
    return `The content for ${display} is not valid JSON (${(error as Error).message}); a .ipynb file must hold an nbformat 4 notebook. Nothing was written.`;
  }
  const problems = notebookSchemaProblems(json);
  if (problems.length === 0) return undefined;
  return `The content for ${display} is not a valid nbformat 4 notebook: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}. Nothing was written.`;
}
