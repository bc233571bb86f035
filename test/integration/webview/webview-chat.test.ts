import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const taskMessage: UiMessage = { kind: 'task', id: 't', seq: 0, text: 'Rename the config loader', ts };

describe('chat panel in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('a snapshot renders the task, its messages, usage and cost', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(
        taskView(
          [
            taskMessage,
            { kind: 'assistant', id: 'a1', text: 'Looking at **the loader** first.', reasoning: 'The loader lives in src/config.', ts },
            { kind: 'notice', id: 'n1', text: 'Checkpoint saved.', ts },
            { kind: 'completion', id: 'c1', result: 'Renamed `loadConfig` to `readConfig`.', command: 'npm test', ts },
          ],
          {
            usage: { inputTokens: 12_345, outputTokens: 678, cacheReadTokens: 9000, cacheWriteTokens: 100 },
            cost: 0.0123,
            status: 'completed',
            mode: 'plan',
            modeSlug: 'reviewer',
          },
        ),
      ),
    );
    await page.getByText('Rename the config loader').waitFor();
    assert.equal(await page.locator('.markdown strong').first().textContent(), 'the loader');
    assert.ok(await page.getByText('Checkpoint saved.').isVisible());
    assert.ok(await page.getByText('Task completed').isVisible());
    assert.ok(await page.locator('.suggested-command code').getByText('npm test').isVisible());
    assert.ok(await page.getByText('$0.0123').isVisible());
    assert.match((await page.locator('.usage-input').textContent()) ?? '', /12k/);
    assert.match((await page.locator('.usage-output').textContent()) ?? '', /678/);
    assert.match((await page.locator('.usage-cache').textContent()) ?? '', /9k/);
    // Reasoning is folded away by default.
    const reasoning = page.locator('details.reasoning');
    assert.equal(await reasoning.getAttribute('open'), null);
    assert.equal(await reasoning.locator('summary').textContent(), 'Reasoning');
    assert.equal(await page.getByRole('button', { name: 'Plan' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.getByRole('combobox', { name: 'Mode' }).inputValue(), 'reviewer');
    // Navigation is in VS Code's title bar (package.json menus), not repeated in the panel.
    for (const name of ['New task', 'History', 'Settings', 'MCP servers']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
  });

  test("tool cards show the tool, its path or command, and the diff stats and exit code of their results' facts", async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(
        taskView([
          taskMessage,
          {
            kind: 'tool',
            id: 'e1',
            callId: 'call-edit',
            tool: 'replace_in_file',
            params: {
              path: 'src/config.ts',
              diff: '------- SEARCH\nexport function loadConfig() {\n  return read();\n=======\nexport function readConfig() {\n  return read();\n+++++++ REPLACE',
            },
            status: 'done',
            details: { edit: { path: 'src/config.ts', added: 1, removed: 1, created: false, sha256Before: 'a1', sha256After: 'b2' } },
            ts,
          },
          {
            kind: 'tool',
            id: 'w1',
            callId: 'call-write',
            tool: 'write_to_file',
            params: { path: 'src/new.ts', content: 'a\nb\nc\n' },
            status: 'done',
            details: { edit: { path: 'src/new.ts', added: 3, removed: 0, created: true, sha256After: 'c3' } },
            ts,
          },
          {
            kind: 'tool',
            id: 'x1',
            callId: 'call-cmd',
            tool: 'execute_command',
            params: { command: 'npm test' },
            status: 'done',
            output: 'Exit code: 3\nOutput:\nall 3 passed',
            details: { command: { command: 'npm test', end: { kind: 'exited', exitCode: 3 }, output: 'all 3 passed', truncated: false } },
            ts,
          },
          // Logged before results had facts: the text is shown, without stats.
          {
            kind: 'tool',
            id: 'o1',
            callId: 'call-old',
            tool: 'replace_in_file',
            params: { path: 'src/old.ts', diff: '------- SEARCH\na\n=======\nb\n+++++++ REPLACE' },
            status: 'done',
            output: 'The file src/old.ts was saved successfully.',
            ts,
          },
        ]),
      ),
    );
    const edit = page.locator('[data-call-id="call-edit"]');
    await edit.waitFor();
    // A human title: the verb (the tool's name on hover), then what it is about.
    assert.equal(await edit.locator('.tool-name').textContent(), 'Edit');
    assert.equal(await edit.locator('.tool-name').getAttribute('title'), 'replace_in_file');
    assert.equal(await edit.locator('.tool-subject').textContent(), 'src/config.ts');
    assert.equal(await edit.locator('.diff-stats').textContent(), '+1 −1');
    assert.equal(await page.locator('[data-call-id="call-write"] .diff-stats').textContent(), '+3 −0');
    const command = page.locator('[data-call-id="call-cmd"]');
    assert.equal(await command.locator('.tool-subject').textContent(), 'npm test');
    assert.equal(await command.locator('.command-output pre').textContent(), 'all 3 passed');
    assert.equal(await command.getByLabel('Exit code 3').textContent(), '3');
    const old = page.locator('[data-call-id="call-old"]');
    assert.equal(await old.locator('.diff-stats').count(), 0);
    assert.equal(await old.locator('.tool-output pre').textContent(), 'The file src/old.ts was saved successfully.');
  });

  test('each card says in words who approved it, or that it was rejected (with the feedback) or failed', async () => {
    const { page } = panel;
    const tool = (callId: string, extra: Partial<Extract<UiMessage, { kind: 'tool' }>>): UiMessage => ({
      kind: 'tool',
      id: callId,
      callId,
      tool: 'write_to_file',
      params: { path: `${callId}.txt`, content: 'x' },
      status: 'done',
      ts,
      ...extra,
    });
    await panel.send(
      snapshotOf(
        taskView([
          taskMessage,
          tool('mine', { approvedBy: 'user', details: { edit: { path: 'mine.txt', added: 1, removed: 0, created: true, sha256After: 'a' } } }),
          tool('auto', { approvedBy: 'auto' }),
          tool('rule', { approvedBy: 'auto', rule: 'Edit(src/**)' }),
          tool('said', { approvedBy: 'user', feedback: 'keep it short' }),
          tool('no', { status: 'rejected', feedback: 'not this file' }),
          tool('bare', { status: 'rejected' }),
          tool('broke', { status: 'failed', approvedBy: 'user', error: 'EACCES: permission denied' }),
          { kind: 'tool', id: 'r', callId: 'read', tool: 'read_file', params: { path: 'a.ts' }, status: 'done', ts },
        ]),
      ),
    );
    const line = (callId: string) => page.locator(`[data-call-id="${callId}"] .tool-decision`);
    await line('mine').waitFor();
    assert.equal(await page.locator('[data-call-id="mine"] .tool-name').textContent(), 'Create');
    assert.equal(await page.locator('[data-call-id="auto"] .tool-name').textContent(), 'Write');
    assert.equal((await line('mine').textContent())?.trim(), 'Approved by you.');
    assert.equal((await line('auto').textContent())?.trim(), 'Auto-approved by your settings.');
    assert.equal((await line('rule').textContent())?.trim(), 'Allowed by your rule Edit(src/**).');
    assert.equal((await line('said').textContent())?.trim(), 'Approved by you: keep it short');
    assert.equal((await line('no').textContent())?.trim(), 'Rejected: not this file');
    assert.equal((await line('bare').textContent())?.trim(), 'Rejected by you');
    assert.equal((await line('broke').textContent())?.trim(), 'Failed after you approved it.');
    assert.equal(await line('read').count(), 0, 'a read that needed no decision says nothing');
  });

  test('Approve posts approve with the callId and the typed feedback; the diff, folded, is shown coloured', async () => {
    const { page } = panel;
    const diff =
      '--- a/src/config.ts\n+++ b/src/config.ts\n@@ -1,2 +1,2 @@\n-export function loadConfig() {\n+export function readConfig() {\n   return read();';
    await panel.send(
      snapshotOf(
        taskView(
          [
            taskMessage,
            { kind: 'tool', id: 'e1', callId: 'call-7', tool: 'replace_in_file', params: { path: 'src/config.ts' }, status: 'awaiting_approval', ts },
          ],
          {
            status: 'awaiting_approval',
            pendingApproval: {
              callId: 'call-7',
              tool: 'replace_in_file',
              summary: 'Edit src/config.ts',
              path: 'src/config.ts',
              diff,
              stats: { added: 1, removed: 1 },
              reason: 'Edits need approval',
            },
          },
        ),
      ),
    );
    const bar = page.getByRole('region', { name: 'Approval needed' });
    await bar.waitFor();
    assert.ok(await bar.getByText('Edit src/config.ts').isVisible());
    assert.ok(await bar.getByText('Edits need approval').isVisible());
    // The diff editor shows the proposal: the sidebar's copy starts folded.
    assert.equal(await bar.locator('.diff-add').isVisible(), false);
    await bar.getByText('Show the diff here').click();
    assert.equal(await bar.locator('.diff-add').count(), 1);
    assert.equal(await bar.locator('.diff-del').count(), 1);
    assert.ok(await bar.locator('.diff-add').isVisible());
    assert.equal(await page.locator('[data-call-id="call-7"] .diff-stats').textContent(), '+1 −1');
    await page.getByRole('textbox', { name: 'Feedback' }).fill('Keep the old name as an alias');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = await panel.waitForPosted('approve');
    assert.equal(approve.callId, 'call-7');
    assert.equal(approve.feedback, 'Keep the old name as an alias');
    assert.ok(approve.id.length > 0);
  });

  test('calls of one response are reviewed as one list; Approve all approves the rest too', async () => {
    const { page } = panel;
    const calls = ['a.ts', 'b.ts', 'c.ts'].map((path) => ({ tool: 'write_to_file', params: { path, content: 'x' } }));
    await panel.send(
      snapshotOf(
        taskView(
          [
            taskMessage,
            { kind: 'tool', id: 'e1', callId: 'call-2', tool: 'write_to_file', params: { path: 'b.ts', content: 'x' }, status: 'awaiting_approval', ts },
          ],
          {
            status: 'awaiting_approval',
            pendingApproval: { callId: 'call-2', tool: 'write_to_file', summary: 'Write b.ts', path: 'b.ts', batch: { id: 'r5', index: 2, calls } },
          },
        ),
      ),
    );
    const bar = page.getByRole('region', { name: 'Approval needed' });
    const list = bar.getByRole('list', { name: 'Call 2 of 3 in this response' });
    await list.waitFor();
    assert.deepEqual(
      (await list.getByRole('listitem').allTextContents()).map((t) => t.trim()),
      ['Write a.ts', 'Write b.ts', 'Write c.ts'],
    );
    assert.equal(
      await list
        .locator('[aria-current="step"]')
        .textContent()
        .then((t) => t?.trim()),
      'Write b.ts',
    );
    await bar.getByRole('button', { name: 'Approve all (2)' }).click();
    const approve = await panel.waitForPosted('approve');
    assert.deepEqual([approve.callId, approve.all], ['call-2', true]);
  });

  test('Always allow shows the rule and approves, writing it for the user or the workspace', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(
        taskView(
          [
            taskMessage,
            { kind: 'tool', id: 'e1', callId: 'call-9', tool: 'execute_command', params: { command: 'npm test' }, status: 'awaiting_approval', ts },
          ],
          {
            status: 'awaiting_approval',
            pendingApproval: { callId: 'call-9', tool: 'execute_command', summary: 'Run command', command: 'npm test', allowRules: ['Bash(npm test)'] },
          },
        ),
      ),
    );
    const bar = page.getByRole('region', { name: 'Approval needed' });
    await bar.getByRole('button', { name: 'Always allow…' }).click();
    const group = bar.getByRole('group', { name: 'Always allow' });
    assert.match((await group.textContent()) ?? '', /Approve and allow from now on: Bash\(npm test\)/);
    await group.getByRole('button', { name: 'In this workspace' }).click();
    const approve = await panel.waitForPosted('approve');
    assert.deepEqual([approve.callId, approve.alwaysAllow], ['call-9', 'workspace']);
  });

  test('Reject posts reject with the callId and feedback; Ctrl+Enter in Feedback approves', async () => {
    const { page } = panel;
    const pending = (callId: string) =>
      snapshotOf(
        taskView([taskMessage], {
          status: 'awaiting_approval',
          pendingApproval: { callId, tool: 'execute_command', summary: 'Run a command', command: 'rm -rf build' },
        }),
      );
    await panel.send(pending('call-r'));
    assert.ok(await page.locator('.approval-command').getByText('rm -rf build').isVisible());
    await page.getByRole('textbox', { name: 'Feedback' }).fill('Not the build folder');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = await panel.waitForPosted('reject');
    assert.deepEqual({ callId: reject.callId, feedback: reject.feedback }, { callId: 'call-r', feedback: 'Not the build folder' });

    await panel.send(pending('call-k'));
    const feedback = page.getByRole('textbox', { name: 'Feedback' });
    assert.equal(await feedback.inputValue(), '', 'feedback does not carry over to the next call');
    await feedback.fill('fine');
    await feedback.press('Control+Enter');
    const approve = await panel.waitForPosted('approve');
    assert.deepEqual({ callId: approve.callId, feedback: approve.feedback }, { callId: 'call-k', feedback: 'fine' });
  });

  test('typing a task and pressing Enter posts newTask; Shift+Enter adds a line', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(undefined));
    const input = page.getByRole('textbox', { name: 'Task' });
    await input.fill('Fix the flaky test');
    await input.press('Shift+Enter');
    await input.pressSequentially('in CI');
    assert.equal(await input.inputValue(), 'Fix the flaky test\nin CI');
    assert.equal((await panel.posted()).filter((m) => m.type === 'newTask').length, 0);
    await input.press('Enter');
    const posted = await panel.waitForPosted('newTask');
    assert.equal(posted.text, 'Fix the flaky test\nin CI');
    assert.equal(await input.inputValue(), '');
  });

  test('the Send button continues an idle task with sendMessage, and answers a pending question', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' })));
    await page.getByRole('textbox', { name: 'Task' }).fill('Now update the docs');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    assert.equal((await panel.waitForPosted('sendMessage')).text, 'Now update the docs');

    await panel.send(snapshotOf(taskView([taskMessage], { status: 'awaiting_answer', pendingQuestion: { question: 'Which file?', options: [] } })));
    await page.getByRole('textbox', { name: 'Task' }).fill('src/config.ts');
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    assert.equal((await panel.waitForPosted('answer')).text, 'src/config.ts');
  });

  test('an option button of the pending question posts answer', async () => {
    const { page } = panel;
    const question: UiMessage = {
      kind: 'tool',
      id: 'q1',
      callId: 'call-q',
      tool: 'ask_followup_question',
      params: { question: 'Which **name**?', options: '["readConfig","getConfig"]' },
      status: 'running',
      ts,
    };
    await panel.send(
      snapshotOf(
        taskView([taskMessage, question], {
          status: 'awaiting_answer',
          pendingQuestion: { question: 'Which **name**?', options: ['readConfig', 'getConfig'] },
        }),
      ),
    );
    await page.getByRole('button', { name: 'getConfig' }).click();
    assert.equal((await panel.waitForPosted('answer')).text, 'getConfig');
    assert.ok(await page.getByRole('button', { name: 'readConfig' }).isDisabled(), 'one answer per question');
  });

  test('an answered question shows the options its result logged, never a reading of the parameter', async () => {
    const { page } = panel;
    const answered: UiMessage = {
      kind: 'tool',
      id: 'q2',
      callId: 'call-q2',
      tool: 'ask_followup_question',
      // The parameter as the model wrote it is not read: only the logged options are shown.
      params: { question: 'Which port?', options: '<option>8080</option><option>3000</option>' },
      status: 'done',
      output: '<answer>\n3000\n</answer>',
      details: { question: { answered: true, options: ['3000', '8080'] } },
      ts,
    };
    const refused: UiMessage = {
      kind: 'tool',
      id: 'q3',
      callId: 'call-q3',
      tool: 'ask_followup_question',
      params: { question: 'Which host?', options: '["a"' },
      status: 'failed',
      error: 'options must be a JSON array of strings',
      ts,
    };
    await panel.send(snapshotOf(taskView([taskMessage, answered, refused], { status: 'completed' })));
    const cards = page.locator('.question-card');
    await cards.nth(1).waitFor();
    assert.deepEqual(await cards.nth(0).locator('.option-button').allTextContents(), ['3000', '8080']);
    assert.ok(await cards.nth(0).getByRole('button', { name: '3000' }).isDisabled(), 'an answered question takes no answer');
    assert.equal(await cards.nth(1).locator('.option-button').count(), 0);
  });

  test('a pending question without a card still gets one with its options', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'awaiting_answer', pendingQuestion: { question: 'Proceed?', options: ['Yes', 'No'] } })));
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    assert.equal((await panel.waitForPosted('answer')).text, 'Yes');
  });

  test('model Markdown is sanitised: no script, no event handlers, no javascript: links; code is highlighted', async () => {
    const { page } = panel;
    const text = [
      'Look: <img src=x onerror="window.__pwned=1">',
      '',
      '<script>window.__pwned = 2</script>',
      '',
      '<a href="javascript:alert(1)" onclick="window.__pwned=3">raw link</a> and [md link](javascript:window.__pwned=4) and [docs](https://example.com/docs)',
      '',
      '![tracker](https://example.com/pixel.png)',
      '',
      '```ts',
      'const answer: number = 42;',
      '```',
    ].join('\n');
    await panel.send(snapshotOf(taskView([taskMessage, { kind: 'assistant', id: 'a1', text, reasoning: '', ts }])));
    const markdown = page.locator('.msg-assistant .markdown');
    await markdown.waitFor();
    assert.equal(await page.locator('.markdown script').count(), 0);
    assert.equal(await page.locator('[onerror], [onclick]').count(), 0);
    assert.equal(await page.locator('.markdown img').count(), 0);
    assert.equal(await page.locator('a[href^="javascript"]').count(), 0);
    // Raw HTML is shown as the text the model wrote.
    assert.match((await markdown.textContent()) ?? '', /<img src=x onerror="window.__pwned=1">/);
    assert.equal(await markdown.getByRole('link', { name: 'docs' }).getAttribute('href'), 'https://example.com/docs');
    assert.ok((await markdown.locator('code.language-ts .hljs-keyword').count()) >= 1);
    assert.equal(await page.evaluate('window.__pwned'), undefined);
  });

  test('streaming text appears while the task runs and gives way to the logged message', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'running' })));
    await panel.send({ type: 'streaming', taskId: 'task-1', text: 'I will start', reasoning: '' });
    await panel.send({ type: 'streaming', taskId: 'task-1', text: 'I will start with the **loader**.', reasoning: 'Thinking about it' });
    await page.locator('.msg-assistant.streaming').getByText('loader').waitFor();
    assert.ok(await page.getByText('Working…').isVisible());
    await panel.send({
      type: 'taskMessages',
      taskId: 'task-1',
      start: 1,
      messages: [{ kind: 'assistant', id: 'a1', text: 'I will start with the **loader**.', reasoning: 'Thinking about it', ts }],
    });
    await page.locator('.msg-assistant.streaming').waitFor({ state: 'detached' });
    assert.equal(await page.locator('.msg-assistant').count(), 1);
    // Streaming for another task is ignored.
    await panel.send({ type: 'streaming', taskId: 'other', text: 'not mine', reasoning: '' });
    assert.equal(await page.getByText('not mine').count(), 0);
  });

  test('a running command shows live output; Cancel posts cancelTask', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(
        taskView(
          [taskMessage, { kind: 'tool', id: 'x1', callId: 'call-run', tool: 'execute_command', params: { command: 'npm run build' }, status: 'running', ts }],
          { status: 'running' },
        ),
      ),
    );
    await panel.send({ type: 'commandOutput', callId: 'call-run', text: 'compiling…\n' });
    await panel.send({ type: 'commandOutput', callId: 'call-run', text: 'done in 2s\n' });
    const output = page.locator('[data-call-id="call-run"] .command-output pre');
    await output.getByText('done in 2s').waitFor();
    assert.equal(await output.textContent(), 'compiling…\ndone in 2s\n');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await panel.waitForPosted('cancelTask');
  });

  test('Proceed while running posts proceedCommand with the callId, only on a running command', async () => {
    const { page } = panel;
    const read: UiMessage = { kind: 'tool', id: 'r1', callId: 'call-read', tool: 'read_file', params: { path: 'a.ts' }, status: 'running', ts };
    const command = (status: 'running' | 'done'): UiMessage => ({
      kind: 'tool',
      id: 'x1',
      callId: 'call-srv',
      tool: 'execute_command',
      params: { command: 'npm run dev' },
      status,
      ts,
    });
    await panel.send(snapshotOf(taskView([taskMessage, read, command('running')], { status: 'running' })));
    const button = page.getByRole('button', { name: 'Proceed while running' });
    await button.waitFor();
    assert.equal(await button.count(), 1, 'only the running command has the button');
    assert.equal(await page.locator('[data-call-id="call-srv"]').getByRole('button', { name: 'Proceed while running' }).count(), 1);
    await button.click();
    const posted = await panel.waitForPosted('proceedCommand');
    assert.equal(posted.callId, 'call-srv');
    await panel.send(snapshotOf(taskView([taskMessage, read, command('done')], { status: 'running' })));
    await button.waitFor({ state: 'detached' });
  });

  test('an error offers Retry only when the task failed, and Retry posts retry', async () => {
    const { page } = panel;
    const messages: UiMessage[] = [taskMessage, { kind: 'error', id: 'e1', text: '429 Too Many Requests', ts }];
    await panel.send(snapshotOf(taskView(messages, { status: 'idle' })));
    await page.getByText('429 Too Many Requests').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Retry' }).count(), 0);
    await panel.send(snapshotOf(taskView(messages, { status: 'failed', error: '429 Too Many Requests' })));
    await page.getByRole('button', { name: 'Retry' }).click();
    await panel.waitForPosted('retry');
  });

  test('taskMessages replaces the tail of the open task only', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage, { kind: 'notice', id: 'n1', text: 'first notice', ts }])));
    await page.getByText('first notice').waitFor();
    await panel.send({ type: 'taskMessages', taskId: 'task-1', start: 1, messages: [{ kind: 'notice', id: 'n2', text: 'second notice', ts }] });
    await page.getByText('second notice').waitFor();
    assert.equal(await page.getByText('first notice').count(), 0);
    await panel.send({ type: 'taskMessages', taskId: 'another-task', start: 0, messages: [] });
    assert.ok(await page.getByText('Rename the config loader').isVisible());
  });

  test('Plan/Act and the mode post setMode and setModeSlug; the host switches views', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage])));
    await page.getByRole('button', { name: 'Plan' }).click();
    assert.equal((await panel.waitForPosted('setMode')).mode, 'plan');
    await page.getByRole('combobox', { name: 'Mode' }).selectOption('reviewer');
    assert.equal((await panel.waitForPosted('setModeSlug')).modeSlug, 'reviewer');
    // The title bar's Task History command: the host changes the view, the panel follows.
    await panel.send(snapshotOf(taskView([taskMessage]), { view: 'history' }));
    await page.getByRole('heading', { name: 'History' }).waitFor();
  });

  test('New Task (the host closes the task) shows the welcome and the next Enter starts a new one', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' })));
    await page.locator('.msg-task').getByText('Rename the config loader').waitFor();
    await panel.send(snapshotOf(undefined));
    await page.getByText('What should Smith do?').waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill('Another job');
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    assert.equal((await panel.waitForPosted('newTask')).text, 'Another job');
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 't2', seq: 0, text: 'Another job', ts }], { id: 'task-2', status: 'running' })));
    await page.locator('.msg-task').getByText('Another job').waitFor();
  });

  test('only UI state is persisted: the draft, never task data', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage, { kind: 'notice', id: 'n1', text: 'secret-ish task detail', ts }], { status: 'completed' })));
    await page.getByRole('textbox', { name: 'Task' }).fill('half-written draft');
    const state = JSON.stringify(await panel.uiState());
    assert.match(state, /half-written draft/);
    assert.doesNotMatch(state, /secret-ish task detail|Rename the config loader/);
  });

  test('after a reload the draft and the view the user left come back', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' })));
    await page.getByRole('textbox', { name: 'Task' }).fill('unsent words');
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' }), { view: 'settings' }));
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.reload();
    await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
    // The host now says "chat" (say a change was missed while the page reloaded); the view the user left wins and the host is told.
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' })));
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.waitForFunction('window.__posted.some((m) => m.type === "showView" && m.view === "settings")');
    await page.getByRole('button', { name: 'Back to chat' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Task' }).inputValue(), 'unsent words');
  });

  test('a failed request is reported and the draft is given back', async () => {
    const { page } = panel;
    await page.evaluate('window.__host.replies = "manual"');
    await panel.send(snapshotOf(undefined));
    await page.getByRole('textbox', { name: 'Task' }).fill('Start something');
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    const request = await panel.waitForPosted('newTask');
    await page.evaluate(
      (id) => (window as unknown as { __host: { reply(id: string, error: string): void } }).__host.reply(id, 'No API key configured'),
      request.id,
    );
    await page.getByRole('alert').getByText('No API key configured').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Task' }).inputValue(), 'Start something');
  });
});
