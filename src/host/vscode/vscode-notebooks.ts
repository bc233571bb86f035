import { resolve } from 'node:path';
import * as vscode from 'vscode';
import type { ExpectedCell, NotebookCellContent, NotebookCellEdit, NotebookPort } from '../../core/ports.js';

/** The notebook type of VS Code's Jupyter support (the built-in `ipynb` extension registers its serializer). */
const JUPYTER_NOTEBOOK = 'jupyter-notebook';

/**
 * Notebook edits through VS Code's notebook editor: the cell edit is applied to the file's
 * NotebookDocument as one WorkspaceEdit (so the user sees it in the notebook and one undo takes it
 * back) and the document is saved by the Jupyter serializer. Without Jupyter notebook support the
 * engine writes the file itself.
 */
export class VsCodeNotebooks implements NotebookPort {
  async applyCellEdit(absolutePath: string, edit: NotebookCellEdit, expected: readonly ExpectedCell[]): Promise<boolean> {
    const document = await this.documentOf(absolutePath);
    if (!document) return false;
    const name = vscode.workspace.asRelativePath(document.uri);
    if (document.isDirty) {
      throw new Error(
        `${name} has unsaved changes in its notebook editor, so the edit was not made and nothing was written. Ask the user to save or revert them, then read the notebook again.`,
      );
    }
    const different = firstDifference(document, expected);
    if (different)
      throw new Error(`${name} in its notebook editor is not the notebook on disk (${different}), so the edit was not made. Read the notebook again.`);
    // Shown, without taking focus, so the user sees the cell change and can undo it.
    await Promise.resolve(vscode.window.showNotebookDocument(document, { preserveFocus: true, preview: true })).catch(() => undefined);
    const change = new vscode.WorkspaceEdit();
    change.set(document.uri, [notebookEdit(edit)]);
    if (!(await vscode.workspace.applyEdit(change))) throw new Error(`VS Code refused the edit of ${name}; nothing was changed.`);
    if (!(await document.save())) {
      throw new Error(`The edit of ${name} is in its notebook editor, but VS Code could not save it; the notebook shows it unsaved.`);
    }
    return true;
  }

  /** The file's Jupyter notebook document, open already or opened now; undefined without Jupyter notebook support. */
  private async documentOf(absolutePath: string): Promise<vscode.NotebookDocument | undefined> {
    const wanted = resolve(absolutePath);
    const open = vscode.workspace.notebookDocuments.find((d) => d.uri.scheme === 'file' && resolve(d.uri.fsPath) === wanted);
    if (open) return open.notebookType === JUPYTER_NOTEBOOK ? open : undefined;
    try {
      const opened = await vscode.workspace.openNotebookDocument(vscode.Uri.file(absolutePath));
      return opened.notebookType === JUPYTER_NOTEBOOK ? opened : undefined;
    } catch {
      // No serializer for .ipynb files in this editor.
      return undefined;
    }
  }
}

/** Where the document's cells differ from the ones the edit was made from, in words; undefined when they match. */
function firstDifference(document: vscode.NotebookDocument, expected: readonly ExpectedCell[]): string | undefined {
  if (document.cellCount !== expected.length) return `it has ${document.cellCount} cells, the file ${expected.length}`;
  for (const [index, cell] of expected.entries()) {
    const shown = document.cellAt(index);
    if (cellTypeOf(shown) !== cell.cellType) return `cell ${index} is ${cellTypeOf(shown)}, not ${cell.cellType}`;
    if (lf(shown.document.getText()) !== lf(cell.source)) return `cell ${index} has another source`;
  }
  return undefined;
}

function cellTypeOf(cell: vscode.NotebookCell): ExpectedCell['cellType'] {
  if (cell.kind === vscode.NotebookCellKind.Markup) return 'markdown';
  return cell.document.languageId === 'raw' ? 'raw' : 'code';
}

function notebookEdit(edit: NotebookCellEdit): vscode.NotebookEdit {
  switch (edit.kind) {
    case 'replace':
      return vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(edit.index, edit.index + 1), [cellData(edit.cell)]);
    case 'insert':
      return vscode.NotebookEdit.insertCells(edit.index, [cellData(edit.cell)]);
    case 'delete':
      return vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(edit.index, edit.index + 1));
  }
}

/** A cell as the ipynb serializer reads it back: the Jupyter metadata under `metadata`, the id and attachments beside it. */
function cellData(cell: NotebookCellContent): vscode.NotebookCellData {
  const kind = cell.cellType === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
  const language = cell.cellType === 'markdown' ? 'markdown' : cell.cellType === 'raw' ? 'raw' : cell.language;
  const data = new vscode.NotebookCellData(kind, cell.source, language);
  data.outputs = [];
  data.metadata = {
    ...(cell.id ? { id: cell.id } : {}),
    metadata: cell.metadata,
    ...(cell.attachments ? { attachments: cell.attachments } : {}),
    ...(cell.cellType === 'code' ? { execution_count: null } : {}),
  };
  return data;
}

function lf(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
