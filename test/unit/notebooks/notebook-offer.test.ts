// edit_notebook's spec is in the prompt only where notebooks are: the workspace holds one (a
// bounded walk that honours the ignore files), or the task has named one.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { TaskEvent } from '../../../src/core/log/events.js';
import { estimateTextTokens } from '../../../src/core/context/token-estimate.js';
import { WorkspaceNotebooks } from '../../../src/core/notebooks/workspace-notebooks.js';
import type { ApiProvider } from '../../../src/core/providers/types.js';
import { workspaceTools } from '../../../src/core/session/task-environment.js';
import { setupTurn } from '../../../src/core/task/turn-setup.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { WorkspaceRoots } from '../../../src/core/workspace/workspace-roots.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const NO_PROVIDER: ApiProvider = {
  id: 'anthropic',
  modelId: 'claude-sonnet-4-5',
  createMessage: () => {
    throw new Error('no request is sent');
  },
};

const STARTED: TaskEvent = {
  type: 'task_started',
  seq: 0,
  ts: 0,
  taskId: 't',
  task: 'x',
  cwd: '/w',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  mode: 'act',
  modeSlug: 'code',
};

describe('offering edit_notebook', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = createTempWorkspace()));
  afterEach(() => ws.dispose());

  function prompt(events: TaskEvent[], hasNotebooks?: boolean): string {
    const tools = new ToolRegistry(workspaceTools());
    return setupTurn(
      { cwd: ws.root, tools, provider: NO_PROVIDER, ...(hasNotebooks !== undefined ? { workspaceHasNotebooks: () => hasNotebooks } : {}) },
      events,
    ).systemPrompt;
  }

  test('only with notebooks in the workspace, or once a call named one', () => {
    assert.doesNotMatch(prompt([STARTED]), /## edit_notebook/);
    assert.doesNotMatch(prompt([STARTED], false), /## edit_notebook/);
    assert.match(prompt([STARTED], true), /## edit_notebook\n/);
    const read: TaskEvent = { type: 'tool_requested', seq: 1, ts: 0, callId: 'c', tool: 'read_file', params: { path: ' out/Report.IPYNB ' } };
    assert.match(prompt([STARTED, read], false), /## edit_notebook\n/);
  });

  test('with edit_notebook offered, the code mode prompt stays under 4,000 tokens', () => {
    const tokens = estimateTextTokens(prompt([STARTED], true));
    assert.ok(tokens < 4_000, `${tokens} tokens`);
  });

  test('the workspace walk finds a nested notebook, but not one the ignore files exclude', async () => {
    const roots = WorkspaceRoots.single(ws.root);
    ws.write('README.md', '# x\n');
    let look = new WorkspaceNotebooks(roots, NOTHING_IGNORED);
    await look.scanned;
    assert.equal(look.found, false);
    ws.write('.gitignore', 'build/\n');
    ws.write('build/out.ipynb', '{}');
    look = new WorkspaceNotebooks(roots, NOTHING_IGNORED);
    await look.scanned;
    assert.equal(look.found, false, 'ignored');
    ws.write('analysis/deep/er/nb.ipynb', '{}');
    look = new WorkspaceNotebooks(roots, NOTHING_IGNORED);
    assert.equal(look.found, false, 'not before the walk is over');
    await look.scanned;
    assert.equal(look.found, true);
  });
});
