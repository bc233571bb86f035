// A CLI task that reads a Jupyter notebook and edits one of its cells against the scripted model
// server: the model sees the cells view and is offered edit_notebook; the file stays a valid
// notebook with only the new cell added; rewinding the task's checkpoint puts the file back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { assertValidNotebook, codeCell, jupyterText, markdownCell, notebook } from '../../helpers/notebooks.js';

const reply = (text: string) => ({ text });

describe('smith CLI: notebooks', () => {
  const fx = useAgentFixture();

  test('reads the cells, inserts one with edit_notebook, and rewind restores the file byte for byte', async () => {
    const original = jupyterText(
      notebook([
        markdownCell('# Sales'),
        codeCell('total = 40 + 2\ntotal', [{ output_type: 'execute_result', execution_count: 1, data: { 'text/plain': ['42'] }, metadata: {} }]),
      ]),
    );
    fx.ws.write('sales.ipynb', original);
    fx.server.enqueue(
      reply('<read_file>\n<path>sales.ipynb</path>\n</read_file>'),
      reply('<edit_notebook>\n<path>sales.ipynb</path>\n<action>insert</action>\n<index>2</index>\n<source>\nprint(total * 2)\n</source>\n</edit_notebook>'),
      reply('<attempt_completion>\n<result>Added a cell.</result>\n</attempt_completion>'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Double the total in a new cell'] });
    assert.equal(run.code, 0, run.stderr);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };

    assert.match(JSON.stringify(fx.server.requestAt(0).body.messages), /## edit_notebook\\n/, 'offered: the workspace holds a notebook');
    const seen = JSON.stringify(fx.server.requestAt(1).body.messages);
    assert.match(seen, /\[cell 1: code, id \\"c1\\", execution_count 1\]\\n\s*\d+ \| total = 40 \+ 2/);
    assert.match(seen, /\[cell 1 output 0: execute_result Out\[1\]\]\\n\s*\d+ \| 42/);
    assert.match(
      JSON.stringify(fx.server.requestAt(2).body.messages),
      /A code cell was inserted as cell 2 of sales\.ipynb \(id \\"[0-9a-f]{8}\\"\)\. The notebook has 3 cells\./,
    );

    const edited = assertValidNotebook(fx.ws.read('sales.ipynb'));
    assert.deepEqual(
      edited.cells.map((cell) => cell.source),
      [['# Sales'], ['total = 40 + 2\n', 'total'], ['print(total * 2)']],
    );
    assert.ok(fx.ws.read('sales.ipynb').startsWith(original.slice(0, original.lastIndexOf('\n  }\n ],'))), 'the cells before it are unchanged');

    const rewind = await runCli({ args: ['rewind', taskId, '0', '--files-only', '--storage', fx.storage] });
    assert.equal(rewind.code, 0, rewind.stderr);
    assert.equal(fx.ws.read('sales.ipynb'), original);
  });

  test('a workspace without notebooks is not offered edit_notebook', async () => {
    fx.ws.write('README.md', '# x\n');
    fx.server.enqueue(reply('<attempt_completion>\n<result>Nothing to do.</result>\n</attempt_completion>'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Look around'] });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(JSON.stringify(fx.server.requestAt(0).body.messages), /edit_notebook/);
  });
});
