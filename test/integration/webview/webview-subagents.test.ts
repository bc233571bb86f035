// A use_subagents card (real bundle, Chromium): live progress while the sub-agents work, then one
// collapsible entry per sub-agent with its question, how it ended, its cost and its report.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const task: UiMessage = { kind: 'task', id: 'e0', seq: 0, text: 'Research', ts };
const params = { prompts: '["Where is the retry policy?", "Which tests cover auth?"]' };

describe('the sub-agents card', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('progress while running, then each sub-agent with its report', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(taskView([task, { kind: 'tool', id: 'e1', callId: 'call-sub', tool: 'use_subagents', params, status: 'running', ts }], { status: 'running' })),
    );
    const card = page.locator('[data-call-id="call-sub"]');
    await card.waitFor();
    assert.equal(await card.locator('.tool-name').textContent(), 'Sub-agents');
    assert.equal(await card.locator('.tool-subject').textContent(), '2 questions: Where is the retry policy? | Which tests cover auth?');
    await panel.send({ type: 'commandOutput', callId: 'call-sub', text: '[1] started: Where is the retry policy?\n[1] read_file src/http.ts\n' });
    await card.locator('.command-output pre', { hasText: 'read_file src/http.ts' }).waitFor();
    // The sub-agents started so far, each with Stop.
    const started = [
      { index: 0, taskId: 't-1', prompt: 'Where is the retry policy?' },
      { index: 1, taskId: 't-2', prompt: 'Which tests cover auth?' },
    ];
    await panel.send(
      snapshotOf(
        taskView([task, { kind: 'tool', id: 'e1', callId: 'call-sub', tool: 'use_subagents', params, status: 'running', subagents: started, ts }], {
          status: 'running',
        }),
      ),
    );
    await card.locator('.subagent-running').nth(1).waitFor();
    await card.locator('.subagent-running').nth(1).getByRole('button', { name: 'Stop' }).click();
    assert.equal((await panel.waitForPosted('stopSubagent')).taskId, 't-2');

    const subagents = [
      {
        taskId: 't-1',
        prompt: 'Where is the retry policy?',
        status: 'completed' as const,
        report: 'src/http.ts: 3 retries, exponential backoff.',
        requests: 2,
        inputTokens: 3_000,
        outputTokens: 90,
        cost: 0.0123,
      },
      {
        taskId: 't-2',
        prompt: 'Which tests cover auth?',
        status: 'failed' as const,
        error: 'The model request failed: 400',
        requests: 1,
        inputTokens: 1_000,
        outputTokens: 0,
      },
    ];
    await panel.send(
      snapshotOf(
        taskView([
          task,
          { kind: 'tool', id: 'e1', callId: 'call-sub', tool: 'use_subagents', params, status: 'done', output: 'Sub-agent 1 …', details: { subagents }, ts },
        ]),
      ),
    );
    const entries = card.locator('.subagent');
    await entries.nth(1).waitFor();
    assert.match((await entries.nth(0).locator('summary').textContent()) ?? '', /Where is the retry policy\?\s*reported · 2 requests, \$0\.01/);
    assert.match((await entries.nth(1).locator('summary').textContent()) ?? '', /Which tests cover auth\?\s*failed · 1 request$/);
    assert.equal(await entries.nth(0).locator('.subagent-report').isVisible(), false, 'collapsed until opened');
    await entries.nth(0).locator('summary').click();
    assert.equal(await entries.nth(0).locator('.subagent-report').textContent(), 'src/http.ts: 3 retries, exponential backoff.');
    await entries.nth(1).locator('summary').click();
    assert.equal(await entries.nth(1).locator('.tool-error').textContent(), 'The model request failed: 400');
    assert.equal(await card.locator('details.tool-output').count(), 0, 'the reports are not repeated as raw output');
  });

  test("an agent's entry names it and its paths; Open chat shows the sub-agent's own chat in place of the task's, Back returns", async () => {
    const { page } = panel;
    const agentParams = { prompts: '[{"prompt": "Fix the login", "agent": "fixer", "paths": ["src/auth/**"]}]' };
    const started = [{ index: 0, taskId: 't-9', prompt: 'Fix the login', name: 'fixer', paths: ['src/auth/**'] }];
    const facts = {
      taskId: 't-9',
      prompt: 'Fix the login',
      agent: 'fixer',
      paths: ['src/auth/**'],
      status: 'completed' as const,
      report: 'Fixed.',
      requests: 2,
      inputTokens: 10,
      outputTokens: 5,
    };
    const card = {
      kind: 'tool' as const,
      id: 'e1',
      callId: 'call-4',
      tool: 'use_subagents',
      params: agentParams,
      status: 'done' as const,
      subagents: started,
      details: { subagents: [facts] },
      ts,
    };
    await panel.send(snapshotOf(taskView([task, card])));
    const entry = page.locator('[data-call-id="call-4"] .subagent');
    await entry.waitFor();
    assert.equal(await entry.locator('.subagent-who').textContent(), 'fixer');
    await entry.locator('summary').click();
    assert.equal(await entry.getByText('May edit: src/auth/**').count(), 1);
    await entry.getByRole('button', { name: 'Open the chat of sub-agent 1' }).click();
    assert.equal((await panel.waitForPosted('openSubagentChat')).taskId, 't-9');

    // The host answers with the sub-agent's messages: shown in place of the task's, read-only.
    const childMessages: UiMessage[] = [
      { kind: 'task', id: 'c0', seq: 0, text: 'Fix the login', ts },
      { kind: 'tool', id: 'c1', callId: 'call-4', tool: 'write_to_file', params: { path: 'src/auth/login.ts', content: 'x' }, status: 'done', ts },
    ];
    await panel.send(snapshotOf(taskView([task, card]), { subagentChat: { parentId: 'task-1', taskId: 't-9', status: 'completed', messages: childMessages } }));
    const chat = page.getByRole('region', { name: 'Chat of Sub-agent 1 · fixer: Fix the login' });
    await chat.waitFor();
    await chat.locator('[data-call-id="call-4"] .tool-subject', { hasText: 'src/auth/login.ts' }).waitFor();
    assert.equal(await page.locator('[data-call-id="call-4"] .subagent').count(), 0, "the task's card is not shown meanwhile");
    await chat.getByRole('button', { name: 'Back to the task' }).click();
    await panel.waitForPosted('closeSubagentChat');
  });
});
