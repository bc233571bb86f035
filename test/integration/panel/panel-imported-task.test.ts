// A task imported from another agent's session, as the panel shows it: in the history, and when
// opened, its conversation with a notice of what was not carried over.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { importSession } from '../../../src/core/import/import-session.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ClaudeCodeSessionBuilder } from '../../helpers/foreign-sessions.js';
import { openPanelBackend } from '../../helpers/panel-backend.js';

describe('an imported task in the panel', { timeout: 60_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  test('is in the history and opens with the notice of what was not carried over', async () => {
    const s = new ClaudeCodeSessionBuilder(fixture.ws.root);
    s.user('Explain the build');
    s.assistant([{ type: 'tool_use', id: 'toolu_X', name: 'ExitPlanMode', input: { plan: 'Read esbuild.mjs' } }]);
    s.toolResult('toolu_X', 'User has approved your plan.');
    s.assistant([{ type: 'text', text: 'It bundles with esbuild.' }]);
    const { taskId, notCarried } = await importSession({ path: s.write(join(fixture.storage, 's.jsonl')), storageDir: fixture.storage });

    const panel = openPanelBackend(fixture, closers);
    await panel.until(() => panel.page.state.panel?.history.some((item) => item.taskId === taskId) === true, 'the imported task is in the history');
    await panel.client.request({ type: 'openTask', taskId });
    await panel.until(() => panel.page.state.panel?.task?.id === taskId, 'the imported task opens');
    const messages = panel.page.state.panel!.task!.messages;
    assert.deepEqual(
      messages.map((m) => m.kind),
      ['task', 'notice', 'assistant', 'assistant', 'completion', 'checkpoint'],
    );
    const notice = messages.find((m) => m.kind === 'notice');
    assert.ok(notice && notice.kind === 'notice');
    assert.match(notice.text, /^Imported from Claude Code \(.*s\.jsonl\)\. Not carried over: \d+ things \(see details\)\.$/);
    assert.equal(notice.detail, notCarried.map((line) => `- ${line}`).join('\n'));
    assert.match(notice.detail ?? '', /calls of Claude Code's ExitPlanMode tool/);
    assert.deepEqual(panel.page.problems, []);
  });
});
