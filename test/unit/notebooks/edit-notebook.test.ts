// edit_notebook: each edit kind leaves a valid nbformat notebook in which only the edited cell's
// bytes changed (a Jupyter-written file comes out exactly as Jupyter would write the edited
// notebook), in the file's own layout; the usual edit checks hold (read first, stale file,
// approval); an editor with notebooks gets the edit as a cell edit.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { cellsLayout } from '../../../src/core/notebooks/notebook-layout.js';
import type { ExpectedCell, Host, NotebookCellEdit } from '../../../src/core/ports.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { editNotebookTool } from '../../../src/core/tools/edit-notebook.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { assertValidNotebook, codeCell, jupyterText, markdownCell, notebook, rawCell } from '../../helpers/notebooks.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const OUTPUT = { output_type: 'stream', name: 'stdout', text: ['42\n'] };

function sample(minor = 5): Record<string, unknown> {
  return notebook(
    [
      markdownCell('# Analysis', { attachments: {} }),
      codeCell('x = 41\nprint(x + 1)', [OUTPUT], { metadata: { tags: ['keep'], scrolled: true } }),
      rawCell('raw'),
    ],
    minor,
  );
}

function errorOf(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'error', JSON.stringify(outcome));
  return outcome.kind === 'error' ? outcome.error : '';
}

/** The text of each cell object in the file, by position. */
function cellTexts(text: string): string[] {
  return cellsLayout(text)!.cells.map((span) => text.slice(span.start, span.end));
}

describe('edit_notebook', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
  });
  afterEach(() => ws.dispose());

  async function readThenEdit(path: string, text: string, params: Record<string, string>): Promise<ToolOutcome> {
    ws.write(path, text);
    assert.equal((await harness.run(readFileTool, { path })).kind, 'result');
    return harness.run(editNotebookTool, { path, ...params });
  }

  test('replacing a code cell: the file is what Jupyter writes for the edited notebook (outputs and count cleared, metadata and id kept)', async () => {
    const nb = sample();
    const outcome = await readThenEdit('nb.ipynb', jupyterText(nb), { action: 'replace', index: '1', source: '\nx = 1\nprint(x)\n' });
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
    const cells = nb.cells as Record<string, unknown>[];
    cells[1] = { ...cells[1], source: ['x = 1\n', 'print(x)'], outputs: [], execution_count: null };
    assert.equal(ws.read('nb.ipynb'), jupyterText(nb));
    assertValidNotebook(ws.read('nb.ipynb'));
    assert.match(
      outcome.kind === 'result' ? outcome.output : '',
      /^Cell 1 of nb\.ipynb was replaced\. Its outputs and execution count were cleared\. The notebook has 3 cells\.$/,
    );
  });

  test('inserting: a new cell with a fresh id where nbformat 4.5 has ids, none in 4.4; other cells byte for byte', async () => {
    const before = jupyterText(sample());
    const outcome = await readThenEdit('nb.ipynb', before, { action: 'insert', index: '1', cell_type: 'markdown', source: '## Step 2' });
    const after = assertValidNotebook(ws.read('nb.ipynb'));
    const id = after.cells[1]!.id as string;
    assert.match(id, /^[0-9a-f]{8}$/);
    assert.notEqual(id, 'c0');
    const nb = sample();
    (nb.cells as unknown[]).splice(1, 0, { cell_type: 'markdown', id, metadata: {}, source: ['## Step 2'] });
    assert.equal(ws.read('nb.ipynb'), jupyterText(nb));
    assert.match(
      outcome.kind === 'result' ? outcome.output : '',
      /A markdown cell was inserted as cell 1 of nb\.ipynb \(id "[0-9a-f]{8}"\)\. The cells after it moved\. The notebook has 4 cells\./,
    );

    const old = jupyterText(sample(4));
    await readThenEdit('old.ipynb', old, { action: 'insert', index: '3', source: 'print("end")' });
    const appended = sample(4);
    (appended.cells as unknown[]).push({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: ['print("end")'] });
    assert.equal(ws.read('old.ipynb'), jupyterText(appended), 'appended, without an id');
  });

  test('deleting: the cell and its separator go, first, middle and last alike; the last cell leaves "cells": []', async () => {
    for (const index of [0, 1, 2]) {
      const outcome = await readThenEdit(`d${index}.ipynb`, jupyterText(sample()), { action: 'delete', index: String(index) });
      assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
      const nb = sample();
      (nb.cells as unknown[]).splice(index, 1);
      assert.equal(ws.read(`d${index}.ipynb`), jupyterText(nb), `delete ${index}`);
    }
    const one = notebook([codeCell('only')]);
    await readThenEdit('one.ipynb', jupyterText(one), { action: 'delete', cell_id: 'c0' });
    assert.equal(ws.read('one.ipynb'), jupyterText(notebook([])));
    await harness.run(readFileTool, { path: 'one.ipynb' });
    await harness.run(editNotebookTool, { path: 'one.ipynb', action: 'insert', index: '0', source: 'again' });
    const again = assertValidNotebook(ws.read('one.ipynb'));
    assert.deepEqual(
      again.cells.map((cell) => cell.source),
      [['again']],
    );
    assert.equal(ws.read('one.ipynb'), jupyterText({ ...one, cells: [{ ...codeCell('again'), id: again.cells[0]!.id }] }));
  });

  test("another writer's layout is kept: 2-space or tab indentation, CRLF, one line, unsorted keys; untouched cells unchanged", async () => {
    const nb = sample();
    const layouts: Record<string, string> = {
      'two.ipynb': JSON.stringify(nb, null, 2),
      'tab.ipynb': `${JSON.stringify(nb, null, '\t')}\n`,
      'crlf.ipynb': `${JSON.stringify(nb, null, 1).replace(/\n/g, '\r\n')}\r\n`,
      'line.ipynb': JSON.stringify(nb),
    };
    for (const [path, text] of Object.entries(layouts)) {
      const edits: Record<string, string>[] = [
        { action: 'replace', index: '2', source: 'new raw\ntext' },
        { action: 'insert', index: '0', source: 'first()' },
        { action: 'delete', index: '1' },
      ];
      for (const params of edits) {
        const outcome = await readThenEdit(path, text, params);
        assert.equal(outcome.kind, 'result', `${path} ${params.action}: ${JSON.stringify(outcome)}`);
        const written = ws.read(path);
        assertValidNotebook(written);
        const before = cellTexts(text);
        const after = cellTexts(written);
        const untouched = params.action === 'replace' ? [0, 1] : params.action === 'delete' ? [0, 2] : [0, 1, 2];
        const shift = (i: number) => (params.action === 'insert' ? i + 1 : params.action === 'delete' && i > 1 ? i - 1 : i);
        for (const i of untouched) assert.equal(after[shift(i)], before[i], `${path} ${params.action}: cell ${i} unchanged`);
        assert.equal(written.slice(cellsLayout(written)!.array.end), text.slice(cellsLayout(text)!.array.end), `${path}: the rest of the file kept`);
        if (path === 'crlf.ipynb') assert.doesNotMatch(written, /[^\r]\n/, 'only CRLF line ends');
        if (path === 'line.ipynb') assert.doesNotMatch(written, /\n/, 'still one line');
        if (path === 'tab.ipynb') assert.match(written, /\n\t\t\{\n\t\t\t"/, 'cells indented by tabs');
        if (path === 'two.ipynb' && params.action === 'insert') assert.match(written, /"cells": \[\n {4}\{\n {6}"cell_type": "code"/);
      }
    }
  });

  test('changing a cell type: code to markdown drops outputs; markdown to code gets empty outputs; the id stays', async () => {
    await readThenEdit('nb.ipynb', jupyterText(sample()), { action: 'replace', index: '1', cell_type: 'markdown', source: 'Now text' });
    let cells = assertValidNotebook(ws.read('nb.ipynb')).cells;
    assert.deepEqual(cells[1], { cell_type: 'markdown', id: 'c1', metadata: { scrolled: true, tags: ['keep'] }, source: ['Now text'] });
    await harness.run(editNotebookTool, { path: 'nb.ipynb', action: 'replace', cell_id: 'c0', cell_type: 'code', source: 'run()' });
    cells = assertValidNotebook(ws.read('nb.ipynb')).cells;
    assert.deepEqual(cells[0], { cell_type: 'code', execution_count: null, id: 'c0', metadata: {}, outputs: [], source: ['run()'] });
  });

  test('odd but valid JSON: a second "cells" key (the one JSON.parse reads is edited), a "__proto__" key, a cell without metadata', async () => {
    const text = `{"cells": [{"cell_type": "raw", "metadata": {}, "source": "old"}], "metadata": {"cells": [1]}, "nbformat": 4, "nbformat_minor": 4, "cells": [{"cell_type": "code", "__proto__": {"kept": true}, "source": "a", "outputs": [], "execution_count": 3}]}`;
    const outcome = await readThenEdit('odd.ipynb', text, { action: 'replace', index: '0', source: 'b' });
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
    const written = ws.read('odd.ipynb');
    assert.ok(
      written.startsWith('{"cells": [{"cell_type": "raw", "metadata": {}, "source": "old"}], "metadata": {"cells": [1]}'),
      'the first list and the metadata untouched',
    );
    const cell = assertValidNotebook(written).cells[0]!;
    assert.deepEqual([cell.source, cell.execution_count, cell.metadata, Object.hasOwn(cell, '__proto__')], ['b', null, {}, true]);
    assert.deepEqual(Object.getOwnPropertyDescriptor(JSON.parse(written).cells[0], '__proto__')?.value, { kept: true });
    for (const index of ['1.0', '0x0', '1e0']) {
      assert.match(errorOf(await harness.run(editNotebookTool, { path: 'odd.ipynb', action: 'delete', index })), /index must be a cell number counted from 0/);
    }
  });

  test('the same source again changes nothing (the outputs stay)', async () => {
    const text = jupyterText(sample());
    const outcome = await readThenEdit('nb.ipynb', text, { action: 'replace', index: '1', source: 'x = 41\nprint(x + 1)' });
    assert.match(outcome.kind === 'result' ? outcome.output : '', /^No changes/);
    assert.equal(ws.read('nb.ipynb'), text);
  });

  test('bad calls are the model’s mistakes and change nothing', async () => {
    const text = jupyterText(sample());
    ws.write('nb.ipynb', text);
    const unread = errorOf(await harness.run(editNotebookTool, { path: 'nb.ipynb', action: 'delete', index: '0' }));
    assert.match(unread, /you have not read it in this task/);
    await harness.run(readFileTool, { path: 'nb.ipynb' });
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ action: 'move', index: '0' }, /action must be replace, insert or delete/],
      [{ action: 'replace', index: '3', source: 'x' }, /There is no cell 3: the notebook has 3 cells \(0 to 2\)/],
      [{ action: 'replace', index: '-1', source: 'x' }, /index must be a cell number counted from 0/],
      [{ action: 'replace', index: '0' }, /source is required to replace a cell/],
      [{ action: 'delete' }, /index or cell_id is required to delete a cell/],
      [{ action: 'delete', cell_id: 'nope' }, /No cell has the id "nope"/],
      [{ action: 'delete', index: '0', cell_id: 'c2' }, /Cell 0 is not the cell with id "c2" \(that is cell 2\)/],
      [{ action: 'insert', index: '4', source: 'x' }, /index 4 is past the end: the notebook has 3 cells, so a new cell goes at 0 to 3/],
      [{ action: 'insert', source: 'x' }, /index is required to insert a cell/],
      [{ action: 'insert', index: '0', cell_type: 'heading', source: 'x' }, /cell_type must be code, markdown or raw/],
    ];
    for (const [params, message] of cases) {
      const outcome = await harness.run(editNotebookTool, { path: 'nb.ipynb', ...params });
      assert.match(errorOf(outcome), message, JSON.stringify(params));
      assert.equal(outcome.kind === 'error' && outcome.mistake, true);
    }
    assert.equal(ws.read('nb.ipynb'), text);
    ws.write('notes.md', '# x\n');
    assert.match(errorOf(await harness.run(editNotebookTool, { path: 'notes.md', action: 'delete', index: '0' })), /edits Jupyter notebooks \(\.ipynb\) only/);
    ws.write('broken.ipynb', '{"cells": [');
    await harness.run(readFileTool, { path: 'broken.ipynb' });
    assert.match(
      errorOf(await harness.run(editNotebookTool, { path: 'broken.ipynb', action: 'delete', index: '0' })),
      /broken\.ipynb is not a valid Jupyter notebook: it is not valid JSON/,
    );
  });

  test('a notebook changed since it was read is not edited; the approval shows the cell diff, and a rejection writes nothing', async () => {
    const text = jupyterText(sample());
    ws.write('nb.ipynb', text);
    await harness.run(readFileTool, { path: 'nb.ipynb' });
    ws.write('nb.ipynb', text.replace('# Analysis', '# Changed'));
    assert.match(
      errorOf(await harness.run(editNotebookTool, { path: 'nb.ipynb', action: 'delete', index: '2' })),
      /was changed on disk since you last read or wrote it/,
    );
    await harness.run(readFileTool, { path: 'nb.ipynb' });
    harness.policy = { ...APPROVE_ALL_POLICY, editFiles: false };
    harness.answers = [{ approved: false, feedback: 'not that one' }];
    const rejected = await harness.run(editNotebookTool, { path: 'nb.ipynb', action: 'replace', index: '1', source: 'y = 2' });
    assert.deepEqual(rejected, { kind: 'rejected', feedback: 'not that one' });
    const asked = harness.asked[0]!;
    assert.equal(asked.summary, 'Replace cell 1 of nb.ipynb (+1 -2)');
    assert.equal(asked.proposal, undefined, 'no editable diff of the JSON');
    assert.match(
      asked.diff!,
      /^--- a\/nb\.ipynb \(cell 1\)\n\+\+\+ b\/nb\.ipynb \(cell 1\)\n@@ -1,3 \+1,2 @@\n \[cell 1: code\]\n-x = 41\n-print\(x \+ 1\)\n\+y = 2\n$/m,
    );
    assert.equal(ws.read('nb.ipynb'), text.replace('# Analysis', '# Changed'));
  });

  test('write_to_file and replace_in_file leave a valid notebook to edit_notebook; a new .ipynb must be a valid notebook', async () => {
    const text = jupyterText(sample());
    ws.write('nb.ipynb', text);
    await harness.run(readFileTool, { path: 'nb.ipynb' });
    assert.match(
      errorOf(await harness.run(writeToFileTool, { path: 'nb.ipynb', content: text })),
      /nb\.ipynb is a Jupyter notebook: change its cells with edit_notebook/,
    );
    const diff = '------- SEARCH\n   "# Analysis"\n=======\n   "# Other"\n+++++++ REPLACE';
    assert.match(
      errorOf(await harness.run(replaceInFileTool, { path: 'nb.ipynb', diff })),
      /change its cells with edit_notebook \(replace, insert or delete a cell\), not replace_in_file/,
    );
    assert.equal(ws.read('nb.ipynb'), text);
    assert.match(
      errorOf(await harness.run(writeToFileTool, { path: 'new.ipynb', content: '{"cells": []}' })),
      /not a valid nbformat 4 notebook: nbformat must be 4; nbformat_minor must be a whole number; metadata must be an object/,
    );
    assert.match(errorOf(await harness.run(writeToFileTool, { path: 'new.ipynb', content: 'print(1)' })), /is not valid JSON/);
    const fresh = jupyterText(notebook([codeCell('print(1)')]));
    assert.equal((await harness.run(writeToFileTool, { path: 'new.ipynb', content: fresh })).kind, 'result');
    assertValidNotebook(ws.read('new.ipynb'));
    ws.write('broken.ipynb', '{"cells": [}');
    const repaired = await harness.run(replaceInFileTool, {
      path: 'broken.ipynb',
      diff: '------- SEARCH\n{"cells": [}\n=======\n{"cells": []}\n+++++++ REPLACE',
    });
    assert.equal(repaired.kind, 'result', 'a file that is not a notebook yet may be repaired as text');
  });

  test("through an editor's notebooks: the cell edit goes to the port with the cells it expects; false falls back to the file; a refusal writes nothing", async () => {
    const text = jupyterText(sample());
    const calls: Array<{ path: string; edit: NotebookCellEdit; expected: readonly ExpectedCell[] }> = [];
    let answer: 'editor' | 'unavailable' | 'refuse' = 'editor';
    (harness.host as { notebooks?: Host['notebooks'] }).notebooks = {
      applyCellEdit: async (path, edit, expected) => {
        calls.push({ path, edit, expected });
        if (answer === 'refuse') throw new Error('The notebook has unsaved changes in its editor; nothing was changed.');
        if (answer === 'unavailable') return false;
        // The editor saves in its own layout (VS Code's serializer sorts keys and indents by one space too).
        ws.write('nb.ipynb', jupyterText({ ...sample(), cells: [] }));
        return true;
      },
    };
    const viaEditor = await readThenEdit('nb.ipynb', text, { action: 'insert', index: '1', source: 'plot()' });
    assert.match(
      viaEditor.kind === 'result' ? viaEditor.output : '',
      /was inserted as cell 1 of nb\.ipynb \(id "[0-9a-f]{8}"\) through the notebook editor \(the user can undo it there\)/,
    );
    const call = calls[0]!;
    assert.equal(call.path, `${ws.root}/nb.ipynb`);
    assert.deepEqual(
      call.expected.map((cell) => [cell.cellType, cell.source]),
      [
        ['markdown', '# Analysis'],
        ['code', 'x = 41\nprint(x + 1)'],
        ['raw', 'raw'],
      ],
    );
    assert.equal(call.edit.kind, 'insert');
    assert.deepEqual(call.edit.kind === 'insert' && { ...call.edit.cell, id: undefined }, {
      cellType: 'code',
      source: 'plot()',
      language: 'python',
      id: undefined,
      metadata: {},
    });
    assert.equal(viaEditor.kind === 'result' && viaEditor.details?.file?.size, Buffer.byteLength(ws.read('nb.ipynb')), 'the stamp is of what the editor saved');

    answer = 'unavailable';
    const fallback = await readThenEdit('nb.ipynb', text, { action: 'delete', index: '2' });
    assert.doesNotMatch(fallback.kind === 'result' ? fallback.output : '', /notebook editor/);
    const nb = sample();
    (nb.cells as unknown[]).splice(2, 1);
    assert.equal(ws.read('nb.ipynb'), jupyterText(nb), 'written as a file');

    answer = 'refuse';
    const refused = await readThenEdit('nb.ipynb', text, { action: 'delete', index: '0' });
    assert.deepEqual(refused, { kind: 'error', error: 'The notebook has unsaved changes in its editor; nothing was changed.', mistake: false });
    assert.equal(ws.read('nb.ipynb'), text);
  });
});
