// read_file of a Jupyter notebook: cells with index, type, id and source; outputs summarised;
// images described, and attached for a model that takes images; paging as for any file; a file
// that is not a valid notebook shown as raw text with a note.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { OUTPUT_TEXT_LINES, TRACEBACK_LINES } from '../../../src/core/notebooks/notebook-outputs.js';
import { MAX_NOTEBOOK_IMAGES } from '../../../src/core/notebooks/notebook-images.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { codeCell, jupyterText, markdownCell, notebook, PNG_1X1, PNG_640X480, rawCell } from '../../helpers/notebooks.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

function resultOf(outcome: ToolOutcome): Extract<ToolOutcome, { kind: 'result' }> {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return outcome as Extract<ToolOutcome, { kind: 'result' }>;
}

/** The view's lines without their "N | " numbers. */
function viewLines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /^\s*\d+ \| /.test(line))
    .map((line) => line.replace(/^\s*\d+ \| /, ''));
}

describe('read_file on a Jupyter notebook', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
  });
  afterEach(() => ws.dispose());

  const everyOutput = notebook([
    markdownCell('# Title\nSome *text*.'),
    codeCell('print("hi")\n1/0', [
      { output_type: 'stream', name: 'stdout', text: ['hi\n', 'there\n'] },
      {
        output_type: 'error',
        ename: 'ZeroDivisionError',
        evalue: 'division by zero',
        traceback: ['\u001b[0;31m---------\u001b[0m', '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'],
      },
    ]),
    codeCell('df', [
      { output_type: 'execute_result', execution_count: 3, data: { 'text/plain': ['   a  b\n', '0  1  2'], 'text/html': ['<table></table>'] }, metadata: {} },
    ]),
    codeCell('plot()', [
      { output_type: 'display_data', data: { 'image/png': PNG_640X480, 'text/plain': ['<Figure size 640x480 with 1 Axes>'] }, metadata: {} },
    ]),
    codeCell('svg()', [{ output_type: 'display_data', data: { 'image/svg+xml': ['<svg/>'] }, metadata: {} }]),
    rawCell('raw text'),
  ]);

  test('shows each cell with its index, type and id, and every kind of output summarised', async () => {
    ws.write('nb.ipynb', jupyterText(everyOutput));
    const result = resultOf(await harness.run(readFileTool, { path: 'nb.ipynb' }));
    assert.match(
      result.output,
      /^Notebook nb\.ipynb \(nbformat 4\.5, python, 6 cells\)\. The numbers are lines of this view, not of the file; change cells with edit_notebook/,
    );
    assert.deepEqual(viewLines(result.output), [
      '[cell 0: markdown, id "c0"]',
      '# Title',
      'Some *text*.',
      '[cell 1: code, id "c1", execution_count 1]',
      'print("hi")',
      '1/0',
      '[cell 1 output 0: stream stdout]',
      'hi',
      'there',
      '[cell 1 output 1: error ZeroDivisionError: division by zero]',
      '---------',
      'ZeroDivisionError: division by zero',
      '[cell 2: code, id "c2", execution_count 1]',
      'df',
      '[cell 2 output 0: execute_result Out[3], also text/html (15 characters)]',
      '   a  b',
      '0  1  2',
      '[cell 3: code, id "c3", execution_count 1]',
      'plot()',
      '[cell 3 output 0: display_data, image/png 640x480, 29 bytes]',
      '<Figure size 640x480 with 1 Axes>',
      '[cell 4: code, id "c4", execution_count 1]',
      'svg()',
      '[cell 4 output 0: display_data, image/svg+xml (6 characters)]',
      '[cell 5: raw, id "c5"]',
      'raw text',
    ]);
    assert.equal(result.images, undefined, 'a model without images gets none');
    assert.deepEqual(result.details?.read, { path: 'nb.ipynb', firstLine: 1, lastLine: 26, totalLines: 26, truncated: false });
    assert.equal(result.details?.file?.size, Buffer.byteLength(jupyterText(everyOutput)), 'the stamp is of the file, so edits check it');
  });

  test('a model that takes images gets the images of the lines shown, each named in a note', async () => {
    harness.modelSupportsImages = true;
    const nb = notebook([
      codeCell('a', [{ output_type: 'display_data', data: { 'image/png': PNG_1X1 }, metadata: {} }]),
      codeCell('b', [{ output_type: 'display_data', data: { 'image/png': `${PNG_1X1.slice(0, 20)}\n${PNG_1X1.slice(20)}` }, metadata: {} }]),
      codeCell('c', [{ output_type: 'display_data', data: { 'image/jpeg': PNG_1X1 }, metadata: {} }]),
    ]);
    ws.write('nb.ipynb', jupyterText(nb));
    const all = resultOf(await harness.run(readFileTool, { path: 'nb.ipynb' }));
    assert.deepEqual(
      all.images?.map((image) => [image.mimeType, image.data]),
      [
        ['image/png', PNG_1X1],
        ['image/png', PNG_1X1],
      ],
      'base64 split over lines is joined; data that is not the type it claims is not sent',
    );
    assert.match(
      all.output,
      /\[Attached for you to see, in order: cell 0 output 0 \(image\/png 1x1, 70 bytes\); cell 1 output 0 \(image\/png 1x1, 70 bytes\)\.\]/,
    );
    assert.match(all.output, /\[Images not attached: cell 2 output 0 \(its data is not a image\/jpeg image\)\.\]/);
    const second = resultOf(await harness.run(readFileTool, { path: 'nb.ipynb', start_line: '4', end_line: '6' }));
    assert.deepEqual(
      second.images?.map((image) => image.data),
      [PNG_1X1],
      'only the image of cell 1, whose lines were shown',
    );
  });

  test(`at most ${MAX_NOTEBOOK_IMAGES} images per read; the rest are named with how to see them`, async () => {
    harness.modelSupportsImages = true;
    const cells = Array.from({ length: MAX_NOTEBOOK_IMAGES + 2 }, (_, i) =>
      codeCell(`plot(${i})`, [{ output_type: 'display_data', data: { 'image/png': PNG_1X1 }, metadata: {} }]),
    );
    ws.write('many.ipynb', jupyterText(notebook(cells)));
    const result = resultOf(await harness.run(readFileTool, { path: 'many.ipynb' }));
    assert.equal(result.images?.length, MAX_NOTEBOOK_IMAGES);
    assert.match(result.output, /cell 8 output 0 \(at most 8 images per read; read a later line range for more\); cell 9 output 0/);
  });

  test('long output is cut with a note; a long traceback keeps its last lines', async () => {
    const stream = Array.from({ length: 100 }, (_, i) => `row ${i}\n`);
    const traceback = Array.from({ length: 40 }, (_, i) => `frame ${i}`);
    ws.write(
      'long.ipynb',
      jupyterText(
        notebook([
          codeCell('loop()', [
            { output_type: 'stream', name: 'stderr', text: stream },
            { output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback },
          ]),
        ]),
      ),
    );
    const lines = viewLines(resultOf(await harness.run(readFileTool, { path: 'long.ipynb' })).output);
    assert.equal(lines[2], '[cell 0 output 0: stream stderr]');
    assert.deepEqual(
      lines.slice(3, 3 + OUTPUT_TEXT_LINES),
      stream.slice(0, OUTPUT_TEXT_LINES).map((row) => row.trimEnd()),
    );
    assert.match(lines[3 + OUTPUT_TEXT_LINES]!, /^\[… 70 more lines of this output \(\d+ characters in all\)\]$/);
    const errorAt = lines.indexOf('[cell 0 output 1: error ValueError: bad]');
    assert.equal(lines[errorAt + 1], `[traceback: last ${TRACEBACK_LINES} of 40 lines]`);
    assert.deepEqual(lines.slice(errorAt + 2), traceback.slice(-TRACEBACK_LINES));
  });

  test('a big notebook pages like a big file: the line cap, then a note naming the start_line to continue with', async () => {
    const cells = Array.from({ length: 1500 }, (_, i) => codeCell(`x = ${i}\ny = x * 2`));
    ws.write('big.ipynb', jupyterText(notebook(cells)));
    const first = resultOf(await harness.run(readFileTool, { path: 'big.ipynb' }));
    assert.deepEqual([first.details?.read?.lastLine, first.details?.read?.totalLines, first.details?.read?.truncated], [2000, 4500, false]);
    assert.match(first.output, /\[Showing lines 1-2000 of 4500\. Use start_line\/end_line to read more\.\]$/);
    const next = resultOf(await harness.run(readFileTool, { path: 'big.ipynb', start_line: '2001', end_line: '2003' }));
    assert.deepEqual(viewLines(next.output), ['y = x * 2', '[cell 667: code, id "c667"]', 'x = 667']);
    const past = await harness.run(readFileTool, { path: 'big.ipynb', start_line: '9000' });
    assert.match(past.kind === 'error' ? past.error : '', /start_line 9000 is past the end of the view of big\.ipynb \(4500 lines\)/);
  });

  test('nbformat 4.0 to 4.5 read alike: ids only where cells have them, the language from the kernel', async () => {
    for (const minor of [0, 1, 2, 3, 4, 5]) {
      const nb = notebook([codeCell('1 + 1')], minor, { kernelspec: { name: 'ir', language: 'R', display_name: 'R' } });
      ws.write(`v${minor}.ipynb`, jupyterText(nb));
      const result = resultOf(await harness.run(readFileTool, { path: `v${minor}.ipynb` }));
      assert.match(result.output, new RegExp(`^Notebook v${minor}\\.ipynb \\(nbformat 4\\.${minor}, R, 1 cell\\)`));
      assert.deepEqual(viewLines(result.output), [minor >= 5 ? '[cell 0: code, id "c0"]' : '[cell 0: code]', '1 + 1']);
    }
  });

  test('a notebook without cells, and a source held as one string', async () => {
    ws.write('empty.ipynb', jupyterText(notebook([])));
    const empty = resultOf(await harness.run(readFileTool, { path: 'empty.ipynb' }));
    assert.match(empty.output, /0 cells\)[^\n]*\n\n\(The notebook has no cells\.\)$/);
    ws.write('string.ipynb', JSON.stringify(notebook([{ cell_type: 'markdown', metadata: {}, source: 'one\ntwo' }], 4)));
    assert.deepEqual(viewLines(resultOf(await harness.run(readFileTool, { path: 'string.ipynb' })).output), ['[cell 0: markdown]', 'one', 'two']);
  });

  test('a notebook over 16 MB is read as raw text, with a note', async () => {
    const big = jupyterText(notebook([codeCell('x = 1')])).replace('"cells"', `${' '.repeat(17 * 1024 * 1024)}"cells"`);
    ws.write('huge.ipynb', big);
    const result = resultOf(await harness.run(readFileTool, { path: 'huge.ipynb', end_line: '1' }));
    assert.match(
      result.output,
      /^\[huge\.ipynb is 17\.0 MB, more than notebooks are read as cells \(16 MB\): shown as raw JSON text, and edit_notebook cannot change it\.\]\n\n1 \| \{\n/,
    );
  });

  test('invalid JSON, nbformat 3 and a bad cell: a clear note, then the raw text', async () => {
    ws.write('broken.ipynb', '{\n "cells": [\n');
    const broken = resultOf(await harness.run(readFileTool, { path: 'broken.ipynb' }));
    assert.match(
      broken.output,
      /^\[broken\.ipynb is not a valid Jupyter notebook: it is not valid JSON \([^)]*\)\. Shown as raw text; edit_notebook cannot change it until it is a valid notebook\.\]\n\n1 \| \{\n2 \| {2}"cells": \[$/,
    );
    ws.write('old.ipynb', JSON.stringify({ nbformat: 3, worksheets: [] }));
    assert.match(resultOf(await harness.run(readFileTool, { path: 'old.ipynb' })).output, /it has nbformat 3; only nbformat 4 notebooks are shown as cells/);
    ws.write('cell.ipynb', JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: 'heading', source: 'x' }] }));
    assert.match(resultOf(await harness.run(readFileTool, { path: 'cell.ipynb' })).output, /cell 0 has cell_type "heading" \(not code, markdown or raw\)/);
  });
});
