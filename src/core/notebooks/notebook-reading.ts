// read_file of a .ipynb: the notebook's cells as a view (notebook-view.ts) windowed and numbered
// like a file's lines. A file that is not a valid notebook is shown as its raw text with a note
// saying why; one too large to load whole is read as raw text by read_file's streaming path.
import type { FileInfo, FileSystemPort } from '../ports.js';
import { readWholeText } from '../tool-kit/file-reading.js';
import { type LineWindow, windowOfText } from '../tool-kit/line-window.js';
import type { ResolvedPath } from '../workspace/workspace-paths.js';
import { parseNotebook } from './notebook-document.js';
import { type NotebookView, notebookView } from './notebook-view.js';

/** What read_file shows of a notebook: a note above the lines, and the lines (absent: read the file as text). */
interface NotebookRead {
  readonly preamble: string;
  readonly window?: LineWindow | { readonly kind: 'binary' };
  /** The cells' view, when the file is a valid notebook. */
  readonly view?: NotebookView;
}

/** Reads a notebook for read_file: its view, or its raw text when it is not a valid notebook. */
export async function readNotebook(
  files: FileSystemPort,
  target: ResolvedPath,
  info: FileInfo,
  request: { readonly first: number; readonly last: number; readonly maxChars: number },
  signal: AbortSignal,
): Promise<NotebookRead> {
  const whole = await readWholeText(files, target.absolute, info, { signal });
  if (whole.kind === 'binary') return { preamble: '', window: { kind: 'binary' } };
  if (whole.kind === 'too_large') {
    return {
      preamble: `[${target.display} is ${(whole.size / 1024 / 1024).toFixed(1)} MB, more than notebooks are read as cells (16 MB): shown as raw JSON text, and edit_notebook cannot change it.]`,
    };
  }
  const notebook = parseNotebook(whole.text);
  if ('problem' in notebook) {
    return {
      preamble: `[${target.display} is not a valid Jupyter notebook: ${notebook.problem}. Shown as raw text; edit_notebook cannot change it until it is a valid notebook.]`,
      window: windowOfText(whole.text, whole.stamp, request),
    };
  }
  const view = notebookView(notebook, target.display);
  return { preamble: view.summary, window: windowOfText(view.lines.join('\n'), whole.stamp, request), view };
}
