// Sub-agents in the panel backend: an editing sub-agent's call waits in the panel's approval bar,
// naming the sub-agent, and is approved or rejected there like the task's own.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { openPanelBackend } from '../../helpers/panel-backend.js';

const FIXER = '---\nname: fixer\ndescription: Writes what it is told.\ntools: Read, Write\n---\nYou write files.\n';
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const write = (path: string, text: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${text}\n</content>\n</write_to_file>` });

describe('sub-agents in the panel', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  test("an editing sub-agent's call waits in the approval bar naming it; approved there, it runs; rejected, it does not", async () => {
    fixture.ws.write('.claude/agents/fixer.md', FIXER);
    const panel = openPanelBackend(fixture, closers);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const router = conversationRouter({
      'Delegate the notes': [
        {
          text: `<use_subagents>\n<prompts>${JSON.stringify([
            { prompt: 'Job one: write one.txt', agent: 'fixer', paths: ['one.txt'] },
            { prompt: 'Job two: write two.txt', agent: 'fixer', paths: ['two.txt'] },
          ])}</prompts>\n</use_subagents>`,
        },
        done('Delegated.'),
      ],
      'Job one': [write('one.txt', 'ONE'), done('one.txt written.')],
      'Job two': [write('two.txt', 'TWO'), done('two.txt was refused.')],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'Delegate the notes' });

    // Both sub-agents run at once; their questions come one at a time, each naming who asks.
    const seen = new Map<string, string>();
    for (let asked = 0; asked < 2; asked++) {
      await panel.until(
        () => panel.page.state.panel?.task?.pendingApproval?.subagent !== undefined && !seen.has(panel.page.state.panel.task.pendingApproval.path ?? ''),
        'a sub-agent’s approval',
      );
      const pending = panel.page.state.panel!.task!.pendingApproval!;
      assert.equal(pending.tool, 'write_to_file');
      assert.equal(pending.subagent?.name, 'fixer');
      assert.equal(panel.page.state.panel?.task?.status, 'awaiting_approval');
      seen.set(pending.path ?? '', `${pending.subagent?.index}`);
      await panel.client.request({ type: pending.path === 'one.txt' ? 'approve' : 'reject', callId: pending.callId });
    }
    assert.deepEqual(Object.fromEntries(seen), { 'one.txt': '0', 'two.txt': '1' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(fixture.ws.read('one.txt'), 'ONE\n');
    assert.equal(existsSync(join(fixture.ws.root, 'two.txt')), false);
    // Each proposal opened in the diff editor and closed as decided (the two sub-agents in either order).
    assert.deepEqual([...panel.reviews].sort(), [
      `accept ${fixture.ws.root}/one.txt`,
      `present ${fixture.ws.root}/one.txt`,
      `present ${fixture.ws.root}/two.txt`,
      `reject ${fixture.ws.root}/two.txt`,
    ]);
    const card = panel.page.state.panel!.task!.messages.find((m) => m.kind === 'tool' && m.tool === 'use_subagents');
    assert.ok(card?.kind === 'tool');
    assert.deepEqual(
      card.details?.subagents?.map((c) => [c.agent, c.paths, c.status]),
      [
        ['fixer', ['one.txt'], 'completed'],
        ['fixer', ['two.txt'], 'completed'],
      ],
    );
    assert.deepEqual(panel.page.problems, []);

    // Each sub-agent's own chat opens in place of the task's, and Back closes it.
    const second = card.details!.subagents![1]!;
    await panel.client.request({ type: 'openSubagentChat', taskId: second.taskId });
    await panel.until(() => panel.page.state.panel?.subagentChat?.taskId === second.taskId, 'the sub-agent’s chat');
    const chat = panel.page.state.panel!.subagentChat!;
    assert.equal(chat.status, 'completed');
    assert.equal(chat.parentId, panel.page.state.panel!.task!.id);
    assert.deepEqual(
      chat.messages.map((m) => (m.kind === 'tool' ? `${m.tool} ${m.status}` : m.kind)),
      ['task', 'write_to_file rejected', 'attempt_completion done', 'completion'],
    );
    assert.match(chat.messages[0]!.kind === 'task' ? chat.messages[0]!.text : '', /Job two/);
    await panel.client.request({ type: 'closeSubagentChat' });
    await panel.until(() => panel.page.state.panel?.subagentChat === undefined, 'the task’s chat again');
    // Only the open task's sub-agents can be opened.
    await assert.rejects(panel.client.request({ type: 'openSubagentChat', taskId: '20260101T000000-nosuch' }), /has no sub-agent/);
  });

  test('the orchestrator is a mode of the picker; a task in it delegates and its card lists each sub-task with its result', async () => {
    const panel = openPanelBackend(fixture, closers);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    assert.ok(panel.page.state.panel!.modes.some((s) => s.slug === 'orchestrator' && s.name === 'Orchestrator'));
    await panel.client.request({ type: 'setModeSlug', modeSlug: 'orchestrator' });
    const router = conversationRouter({
      'Orchestrate the docs': [
        { text: `<use_subagents>\n<prompts>${JSON.stringify([{ prompt: 'Sub-task A: what is in the docs?', mode: 'ask' }])}</prompts>\n</use_subagents>` },
        done('The docs are empty.'),
      ],
      'Sub-task A': [done('Nothing yet.')],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'Orchestrate the docs' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(panel.page.state.panel!.task!.modeSlug, 'orchestrator');
    const card = panel.page.state.panel!.task!.messages.find((m) => m.kind === 'tool' && m.tool === 'use_subagents');
    assert.ok(card?.kind === 'tool');
    assert.deepEqual(
      card.details?.subagents?.map((c) => [c.mode, c.status, c.report]),
      [['ask', 'completed', 'Nothing yet.']],
    );
  });
});
