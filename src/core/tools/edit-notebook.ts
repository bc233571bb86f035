import type { ToolContext } from '../tool-kit/tool-spec.js';
import { CELL_TYPES, type CellType, isNotebookPath, type Notebook, parseNotebook } from '../notebooks/notebook-document.js';
import { type CellEditRequest, editNotebookText, type NotebookTextEdit } from '../notebooks/notebook-edit.js';
import { applyProposedEdit, type EditPresentation, loadEditTarget } from '../tool-kit/apply-proposed-edit.js';
import { unifiedDiff } from '../tool-kit/file-text.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';
import { isOutcome, resolveToolPath } from '../tool-kit/tool-paths.js';
import type { ResolvedPath } from '../workspace/workspace-paths.js';

const ACTIONS = ['replace', 'insert', 'delete'] as const;
type Action = (typeof ACTIONS)[number];

/** edit_notebook: one cell of a Jupyter notebook replaced, inserted or deleted, the rest of the file untouched. */
export const editNotebookTool: ToolHandler = {
  spec: builtInSpec({
    name: 'edit_notebook',
    description:
      'Replace, insert or delete one cell of a Jupyter notebook you read with read_file. Cells count from 0; replacing a code cell clears its outputs.',
    params: [
      { name: 'path', required: true, description: 'The .ipynb file.' },
      { name: 'action', required: true, description: 'replace, insert or delete.' },
      { name: 'index', required: false, description: "Cell index (insert: the new cell's)." },
      { name: 'cell_id', required: false, description: "Or the cell's id." },
      { name: 'cell_type', required: false, description: 'code (default), markdown or raw.' },
      { name: 'source', required: false, allowEmpty: true, description: 'The whole new source.' },
    ],
    example: '<edit_notebook>\n<path>a.ipynb</path>\n<action>replace</action>\n<index>2</index>\n<source>df.head()</source>\n</edit_notebook>',
  }),
  async execute(params, context) {
    const target = resolveToolPath(context, params.path!);
    if (isOutcome(target)) return target;
    if (!isNotebookPath(target.absolute))
      return mistake(`edit_notebook edits Jupyter notebooks (.ipynb) only; ${target.display} is not one. Use replace_in_file.`);
    const asked = readRequest(params);
    if (typeof asked === 'string') return mistake(asked);
    const current = await loadEditTarget(context, target, 'edit_notebook', { requireRead: true });
    if (current.kind === 'missing') return mistake(`File not found: ${target.display}. To create a notebook, write its nbformat 4 JSON with write_to_file.`);
    if (current.kind !== 'file') return current;
    const notebook = parseNotebook(current.text);
    if ('problem' in notebook) return mistake(`${target.display} is not a valid Jupyter notebook: ${notebook.problem}. Nothing was changed.`);
    const request = resolveCell(asked, notebook);
    if (typeof request === 'string') return mistake(`${request} Nothing was changed.`);
    const edit = editNotebookText(current.text, notebook, request);
    if ('problem' in edit) return mistake(`The edit of ${target.display} was not made: ${edit.problem}.`);
    // The same source and type again is no change: the outputs stay.
    const unchanged = request.kind === 'replace' && edit.before === edit.after;
    const proposal = { original: current.text, proposed: unchanged ? current.text : edit.text, isNewFile: false };
    return applyProposedEdit(context, target, proposal, current.stamp, presentation(context, target, request, edit, notebook.cells.length));
  },
};

/** What the call asked for, before the notebook is read: the cell by index and/or id. */
interface AskedEdit {
  readonly action: Action;
  readonly index?: number;
  readonly cellId?: string;
  readonly cellType?: CellType;
  readonly source?: string;
}

function readRequest(params: Readonly<Record<string, string>>): AskedEdit | string {
  const action = params.action?.trim().toLowerCase() as Action;
  if (!ACTIONS.includes(action)) return `action must be replace, insert or delete, got "${params.action}".`;
  const indexText = params.index?.trim();
  if (indexText && !/^\d+$/.test(indexText)) return `index must be a cell number counted from 0, got "${params.index}".`;
  const index = indexText ? Number(indexText) : undefined;
  const cellId = params.cell_id?.trim() || undefined;
  const typeText = params.cell_type?.trim().toLowerCase() || undefined;
  if (typeText !== undefined && !CELL_TYPES.includes(typeText as CellType)) return `cell_type must be code, markdown or raw, got "${params.cell_type}".`;
  if (action !== 'delete' && params.source === undefined) return `source is required to ${action} a cell: give the cell's complete source.`;
  if (action === 'insert' && index === undefined) return 'index is required to insert a cell: the place the new cell takes (the cell count appends it).';
  if (action === 'insert' && cellId !== undefined) return 'cell_id names an existing cell; to insert, give the index the new cell takes.';
  if (action !== 'insert' && index === undefined && cellId === undefined) return `index or cell_id is required to ${action} a cell.`;
  return {
    action,
    ...(index !== undefined ? { index } : {}),
    ...(cellId !== undefined ? { cellId } : {}),
    ...(typeText !== undefined ? { cellType: typeText as CellType } : {}),
    ...(params.source !== undefined ? { source: cellText(params.source) } : {}),
  };
}

/** The model's source as Jupyter keeps a cell's: LF line ends, no blank line around it from the call's layout. */
function cellText(source: string): string {
  return source.replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\n+$/, '');
}

/** The cell the call means, checked against the notebook; a message when it names none or two different ones. */
function resolveCell(asked: AskedEdit, notebook: Notebook): CellEditRequest | string {
  const count = notebook.cells.length;
  if (asked.action === 'insert') {
    if (asked.index! > count)
      return `index ${asked.index} is past the end: the notebook has ${count} cell${count === 1 ? '' : 's'}, so a new cell goes at 0 to ${count}.`;
    return { kind: 'insert', index: asked.index!, source: asked.source!, cellType: asked.cellType ?? 'code' };
  }
  let index = asked.index;
  if (asked.cellId !== undefined) {
    const found = notebook.cells.findIndex((cell) => cell.id === asked.cellId);
    if (found < 0) return `No cell has the id "${asked.cellId}". Read the notebook again to see its cells.`;
    if (index !== undefined && index !== found) return `Cell ${index} is not the cell with id "${asked.cellId}" (that is cell ${found}).`;
    index = found;
  }
  if (index! >= count) return `There is no cell ${index}: the notebook has ${count} cell${count === 1 ? '' : 's'} (0 to ${count - 1}).`;
  return asked.action === 'delete'
    ? { kind: 'delete', index: index! }
    : { kind: 'replace', index: index!, source: asked.source!, ...(asked.cellType ? { cellType: asked.cellType } : {}) };
}

/** The approval shows the cell's change, not the JSON's; in an editor with notebooks the edit goes through its notebook. */
function presentation(context: ToolContext, target: ResolvedPath, request: CellEditRequest, edit: NotebookTextEdit, count: number): EditPresentation {
  const cell = `cell ${request.index}`;
  const after = count + (request.kind === 'insert' ? 1 : request.kind === 'delete' ? -1 : 0);
  const notebooks = context.host.notebooks;
  return {
    diff: unifiedDiff(`${target.display} (${cell})`, edit.before, edit.after),
    summary: `${request.kind === 'replace' ? 'Replace' : request.kind === 'insert' ? 'Insert' : 'Delete'} ${cell} of ${target.display}`,
    ...(notebooks ? { write: () => notebooks.applyCellEdit(target.absolute, edit.cellEdit, edit.expected) } : {}),
    landed: (viaEditor) => {
      const how = viaEditor ? ' through the notebook editor (the user can undo it there)' : '';
      const shifted = request.index < count - (request.kind === 'delete' ? 1 : 0) && request.kind !== 'replace' ? ' The cells after it moved.' : '';
      const what =
        request.kind === 'replace'
          ? `Cell ${request.index} of ${target.display} was replaced${how}.${edit.cellEdit.kind === 'replace' && edit.cellEdit.cell.cellType === 'code' ? ' Its outputs and execution count were cleared.' : ''}`
          : request.kind === 'insert'
            ? `A ${request.cellType} cell was inserted as cell ${request.index} of ${target.display}${edit.newId ? ` (id "${edit.newId}")` : ''}${how}.${shifted}`
            : `Cell ${request.index} of ${target.display} was deleted${how}.${shifted}`;
      return `${what} The notebook has ${after} cell${after === 1 ? '' : 's'}.`;
    },
  };
}
