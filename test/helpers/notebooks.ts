// Notebooks for tests, written as Jupyter writes them (json.dumps with sort_keys, indent=1,
// ensure_ascii=False, and a final newline), with every kind of output.
import assert from 'node:assert/strict';
import { notebookSchemaProblems } from '../../src/core/notebooks/notebook-document.js';

/** A 1×1 PNG. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The head of a PNG that says 640×480 (enough for its type and size to be read). */
export const PNG_640X480 = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 2, 128, 0, 0, 1, 224, 8, 6, 0, 0, 0]),
]).toString('base64');

/** Keys sorted at every depth, as Jupyter's sort_keys=True. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** The notebook as Jupyter saves it. */
export function jupyterText(notebook: unknown): string {
  return `${JSON.stringify(sortKeys(notebook), null, 1)}\n`;
}

/** A code cell in nbformat 4 form. */
export function codeCell(source: string, outputs: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cell_type: 'code', execution_count: outputs.length > 0 ? 1 : null, metadata: {}, outputs, source: lines(source), ...extra };
}

export function markdownCell(source: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cell_type: 'markdown', metadata: {}, source: lines(source), ...extra };
}

export function rawCell(source: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { cell_type: 'raw', metadata: {}, source: lines(source), ...extra };
}

/** A notebook of the given cells; ids `c0`, `c1`, … added from nbformat 4.5 on. */
export function notebook(cells: Record<string, unknown>[], minor = 5, metadata: Record<string, unknown> = PYTHON_METADATA): Record<string, unknown> {
  return {
    cells: cells.map((cell, index) => (minor >= 5 && cell.id === undefined ? { ...cell, id: `c${index}` } : cell)),
    metadata,
    nbformat: 4,
    nbformat_minor: minor,
  };
}

export const PYTHON_METADATA = {
  kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
  language_info: { name: 'python', version: '3.12.1' },
};

function lines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** Fails unless the text is JSON of a valid nbformat 4 notebook; returns the parsed notebook. */
export function assertValidNotebook(text: string): { cells: Array<Record<string, unknown>>; metadata: Record<string, unknown>; nbformat_minor: number } {
  const json = JSON.parse(text) as { cells: Array<Record<string, unknown>>; metadata: Record<string, unknown>; nbformat_minor: number };
  assert.deepEqual(notebookSchemaProblems(json), []);
  return json;
}
