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
});
