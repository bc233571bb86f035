// The panel backend runs a real task without VS Code: the webview's request client talks to the
// TaskController through the in-memory transport, the model is the scripted server, and the
// webview's reducer renders what the host sends (every message validated by the protocol schema).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { checkpointDirOf } from '../../../src/core/checkpoints/checkpoint-store.js';
import { ObjectStore } from '../../../src/core/checkpoints/object-store.js';
import { allText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { openPanelBackend, type PanelBackendOptions } from '../../helpers/panel-backend.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { gate } from '../../helpers/gate.js';
import { eventually } from '../../helpers/pid-liveness.js';
import { startWebAppServer, WEB_APP_FILES } from '../../fixtures/web-app-server.js';

// A wait that never ends is a failure, not a hang (the `until`s wait for host messages).
describe('the panel backend in plain Node', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  const openPanel = (options: PanelBackendOptions = {}) => openPanelBackend(fixture, closers, options);

  test('a task sent from the page asks for its edit, runs when approved, and the page shows the result', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>hello.txt</path>\n<content>Hello\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Wrote hello.txt.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Create hello.txt' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'an approval request');
    const pending = panel.page.state.panel!.task!.pendingApproval!;
    assert.equal(pending.tool, 'write_to_file');
    assert.equal(pending.path, 'hello.txt');
    assert.match(pending.diff ?? '', /\+Hello/);

    await panel.client.request({ type: 'approve', callId: pending.callId });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\n');
    const messages = panel.page.state.panel!.task!.messages;
    assert.deepEqual(
      messages.map((m) => (m.kind === 'tool' ? m.tool : m.kind)),
      ['task', 'checkpoint', 'write_to_file', 'checkpoint', 'attempt_completion', 'completion'],
      JSON.stringify(messages),
    );
    const tool = messages[2]!;
    assert.ok(tool.kind === 'tool' && tool.status === 'done' && tool.details?.edit?.created === true, JSON.stringify(tool));
    assert.deepEqual(panel.reviews, [`present ${fixture.ws.root}/hello.txt`, `accept ${fixture.ws.root}/hello.txt`]);
    assert.deepEqual(panel.page.problems, []);

    await panel.client.request({ type: 'exportTask', taskId: panel.page.state.panel!.task!.id });
    assert.match(panel.exported[0]?.markdown ?? '', /Wrote hello\.txt\./);
  });

  test('a rejection with feedback reaches the model once, and errors come back as rejected requests', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await assert.rejects(panel.client.request({ type: 'retry' }), /no task to retry/i);
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>a.txt</path>\n<content>A\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Left it.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Create a.txt' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'an approval request');
    const callId = panel.page.state.panel!.task!.pendingApproval!.callId;
    await panel.client.request({ type: 'reject', callId, feedback: 'Not now' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(existsSync(join(fixture.ws.root, 'a.txt')), false);
    const tool = panel.page.state.panel!.task!.messages.find((m) => m.kind === 'tool');
    assert.ok(tool?.kind === 'tool' && tool.status === 'rejected' && tool.feedback === 'Not now', JSON.stringify(tool));
    const second = JSON.stringify(fixture.server.requestAt(1).body);
    assert.equal(second.split('Not now').length - 1, 1, 'the feedback appears once in the next request');
  });

  test('a cost limit on a model whose prices are unknown is shown as a warning that it cannot apply', async () => {
    const panel = openPanel({ maxCost: 0.5 });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    await panel.client.request({ type: 'newTask', text: 'Say done' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const warning = panel.notices.find((notice) => /cost limit/.test(notice));
    assert.match(
      warning ?? panel.notices.join('\n'),
      /The cost limit of \$0\.5 \(smith\.maxCost\) cannot apply: the prices of openai-compatible\/scripted-model are unknown/,
    );
  });

  test('a cost limit on a priced model raises no warning', async () => {
    const panel = openPanel({ maxCost: 0.5, priced: true });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    await panel.client.request({ type: 'newTask', text: 'Say done' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(
      panel.notices.some((notice) => /cost limit/.test(notice)),
      false,
      panel.notices.join('\n'),
    );
  });

  const WRITE_HELLO = { text: '<write_to_file>\n<path>hello.txt</path>\n<content>Hello\n</content>\n</write_to_file>' };
  const DONE = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

  /** Runs a task that writes hello.txt (approved on the page) to completion. */
  async function helloTask(panel: ReturnType<typeof openPanel>): Promise<string> {
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(WRITE_HELLO, DONE);
    await panel.client.request({ type: 'newTask', text: 'Create hello.txt' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'an approval request');
    await panel.client.request({ type: 'approve', callId: panel.page.state.panel!.task!.pendingApproval!.callId });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    return panel.page.state.panel!.task!.id;
  }

  const kinds = (panel: ReturnType<typeof openPanel>) =>
    panel.page.state.panel!.task!.messages.map((m) => (m.kind === 'checkpoint' ? `checkpoint ${m.checkpointId}` : m.kind));

  test('checkpoint markers; Compare shows what differs from now; Restore asks before overwriting the user’s edit', async () => {
    const panel = openPanel();
    const taskId = await helloTask(panel);
    assert.deepEqual(kinds(panel), ['task', 'checkpoint 0', 'tool', 'checkpoint 1', 'tool', 'completion']);
    const marker = panel.page.state.panel!.task!.messages[3]!;
    assert.ok(marker.kind === 'checkpoint' && marker.changedCount === 1 && marker.changed[0] === 'hello.txt', JSON.stringify(marker));

    fixture.ws.write('hello.txt', 'Hello\nmine\n');
    await panel.client.request({ type: 'compareCheckpoint', taskId, checkpointId: '1' });
    assert.deepEqual(panel.views.comparisons.at(-1), { title: 'Checkpoint 1 ↔ now', files: [{ path: 'hello.txt', before: 'Hello\n', existsNow: true }] });
    await panel.client.request({ type: 'compareCheckpoint', taskId, checkpointId: '0' });
    assert.deepEqual(panel.views.comparisons.at(-1)?.files, [{ path: 'hello.txt', before: undefined, existsNow: true }]);

    // The user's edit would be lost: the restore asks, and a "no" changes nothing.
    await panel.client.request({ type: 'restoreCheckpoint', taskId, checkpointId: '1', scope: 'files' });
    assert.match(
      panel.views.questions.at(-1) ?? '',
      /Restore checkpoint 1\?\nThese files changed after Smith's last step and would be overwritten:\nhello\.txt/,
    );
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\nmine\n');
    panel.views.answer = true;
    await panel.client.request({ type: 'restoreCheckpoint', taskId, checkpointId: '1', scope: 'files' });
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\n');
    await panel.until(() => kinds(panel).at(-1) === 'notice', 'the restore is shown');

    // Conversation only: the chat ends at checkpoint 0, the files stay.
    await panel.client.request({ type: 'restoreCheckpoint', taskId, checkpointId: '0', scope: 'conversation' });
    await panel.until(() => kinds(panel).length === 3, 'the conversation is rewound');
    assert.deepEqual(kinds(panel), ['task', 'checkpoint 0', 'notice']);
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\n');

    // Files and conversation back to the start: hello.txt did not exist then.
    await panel.client.request({ type: 'restoreCheckpoint', taskId, checkpointId: '0', scope: 'both' });
    assert.equal(existsSync(join(fixture.ws.root, 'hello.txt')), false);
    await assert.rejects(panel.client.request({ type: 'compareCheckpoint', taskId, checkpointId: '7' }), /no checkpoint 7/);
    assert.deepEqual(panel.page.problems, []);
  });

  test('editing a sent message rewinds to it and sends the edited text; the earlier files come back when asked', async () => {
    const panel = openPanel();
    const taskId = await helloTask(panel);
    fixture.server.enqueue({ text: '<write_to_file>\n<path>hello.txt</path>\n<content>Hello, world\n</content>\n</write_to_file>' }, DONE);
    await panel.client.request({ type: 'sendMessage', text: 'Say hello to the world' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'an approval request');
    await panel.client.request({ type: 'approve', callId: panel.page.state.panel!.task!.pendingApproval!.callId });
    await panel.until(
      () => panel.page.state.panel?.task?.status === 'completed' && fixture.ws.read('hello.txt') === 'Hello, world\n',
      'the follow-up completes',
    );
    const followUp = panel.page.state.panel!.task!.messages.find((m) => m.kind === 'user');
    assert.ok(followUp?.kind === 'user');

    const before = fixture.server.requests.length;
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'editMessage', taskId, seq: followUp.seq, text: 'Say hello to the moon', restoreFiles: true });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed' && fixture.server.requests.length === before + 1, 'the edited message runs');
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\n', 'the files went back to before the edited message');
    const sent = JSON.stringify(fixture.server.requestAt(before).body);
    assert.match(sent, /Say hello to the moon/);
    assert.doesNotMatch(sent, /Say hello to the world/, 'the replaced message no longer reaches the model');
    const users = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'user').map((m) => (m.kind === 'user' ? m.text : ''));
    assert.deepEqual(users, ['Say hello to the moon']);
    await assert.rejects(panel.client.request({ type: 'editMessage', taskId, seq: 9999, text: 'x', restoreFiles: false }), /not a message of the user/);
  });

  test('a message sent while Smith works is shown queued, can be changed, and reaches the next request', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('a.txt', 'alpha\n');
    const held = gate();
    fixture.server.enqueue({ text: '<read_file>\n<path>a.txt</path>\n</read_file>', hold: { afterEvents: 1, until: held.promise } }, DONE);
    await panel.client.request({ type: 'newTask', text: 'Read a.txt' });
    // The server is not the page: polled, not woken by a host message.
    assert.ok(await eventually(() => fixture.server.requests.length === 1), 'the first request');
    await panel.client.request({ type: 'sendMessage', text: 'Then summarise it' });
    await panel.client.request({ type: 'sendMessage', text: 'In French' });
    await panel.until(() => panel.page.state.panel?.task?.queued?.length === 2, 'the queue shown');
    await assert.rejects(panel.client.request({ type: 'updateQueued', index: 0, was: 'something else', text: 'x' }), /already been sent/);
    await panel.client.request({ type: 'updateQueued', index: 1, was: 'In French', text: 'In German' });
    await panel.until(() => panel.page.state.panel?.task?.queued?.[1] === 'In German', 'the edited queue');
    held.open();
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(panel.page.state.panel!.task!.queued, undefined, 'the queue is empty once delivered');
    const next = JSON.stringify(fixture.server.requestAt(1).body);
    assert.match(next, /Then summarise it/);
    assert.match(next, /In German/);
    assert.doesNotMatch(next, /In French/);
  });

  test("settings saved while Smith works (another profile picked) apply to the task's next run", async () => {
    let model = 'first-model';
    const panel = openPanel({ model: () => model });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const held = gate();
    fixture.server.enqueue(
      { text: '<attempt_completion>\n<result>first answer</result>\n</attempt_completion>', hold: { afterEvents: 1, until: held.promise } },
      DONE,
    );
    await panel.client.request({ type: 'newTask', text: 'Answer twice' });
    assert.ok(await eventually(() => fixture.server.requests.length === 1), 'the first request');
    model = 'second-model';
    await panel.client.request({
      type: 'saveSettings',
      provider: 'openai-compatible',
      model: 'second-model',
      baseUrl: 'http://127.0.0.1',
      toolProtocol: 'xml',
    });
    held.open();
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the first run completes');
    await panel.client.request({ type: 'sendMessage', text: 'And again' });
    assert.ok(await eventually(() => fixture.server.requests.length === 2), 'the second request');
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed' && fixture.server.requests.length === 2, 'the second run completes');
    assert.deepEqual(
      fixture.server.requests.map((request) => (request.body as { model?: string }).model),
      ['first-model', 'second-model'],
    );
  });

  test('a message sent now while the model answers cuts the answer off and reaches the model at once', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue({ fault: 'stall', text: 'I will rewrite the whole project, beginning with', afterChunks: 2, chunkSize: 12 }, DONE);
    await panel.client.request({ type: 'newTask', text: 'Tidy up' });
    await panel.until(() => (panel.page.state.streaming?.text.length ?? 0) >= 20, 'the answer streaming');
    await panel.client.request({ type: 'steerMessage', text: 'Only the tests, please' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const chat = panel.page.state.panel!.task!.messages.map((m) =>
      m.kind === 'assistant' || m.kind === 'notice' || m.kind === 'user' ? `${m.kind}: ${m.text}` : m.kind,
    );
    assert.ok(chat.includes('assistant: I will rewrite the whole'), chat.join('\n'));
    assert.ok(chat.includes('notice: You stopped the answer here (a new message was sent); nothing in it was run.'), chat.join('\n'));
    assert.ok(chat.includes('user: Only the tests, please'), chat.join('\n'));
    assert.match(JSON.stringify(fixture.server.requestAt(1).body), /The user interrupted your previous answer/);
  });

  test('the model’s todo list is shown with the task; the user’s edit reaches the model’s next request', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue({ text: '<update_todo_list>\n<todos>\n- [-] Read the code\n- [ ] Fix it\n</todos>\n</update_todo_list>' }, DONE);
    await panel.client.request({ type: 'newTask', text: 'Fix the bug' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const taskId = panel.page.state.panel!.task!.id;
    assert.deepEqual(panel.page.state.panel!.task!.todos, [
      { text: 'Read the code', status: 'in_progress' },
      { text: 'Fix it', status: 'pending' },
    ]);
    await panel.client.request({
      type: 'editTodos',
      taskId,
      items: [
        { text: 'Read the code', status: 'completed' },
        { text: 'Fix it', status: 'in_progress' },
        { text: 'Add a test', status: 'pending' },
      ],
    });
    await panel.until(() => panel.page.state.panel?.task?.todos?.length === 3, 'the edited list');
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'sendMessage', text: 'Go on' });
    assert.ok(await eventually(() => fixture.server.requests.length === 3), 'the next request');
    assert.match(JSON.stringify(fixture.server.requestAt(2).body), /# Todo list\\n- \[x\] Read the code\\n- \[-\] Fix it\\n- \[ \] Add a test/);
    await assert.rejects(panel.client.request({ type: 'editTodos', taskId, items: [{ text: '', status: 'pending' }] }), /Invalid "editTodos" message/);
  });

  test('the todo list, context bar and usage line follow the run while a long answer streams, with no snapshot for them', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const held = gate();
    closers.push(() => held.open());
    const long = `Now the fix, step by step. ${'This paragraph explains one more detail of the change. '.repeat(40)}`;
    fixture.server.enqueue(
      { text: '<update_todo_list>\n<todos>\n- [x] Read the code\n- [-] Fix it\n</todos>\n</update_todo_list>', usage: { input: 1200, output: 40 } },
      {
        text: `${long}\n<attempt_completion>\n<result>Done.</result>\n</attempt_completion>`,
        chunkSize: 40,
        usage: { input: 2500, output: 900 },
        hold: { afterEvents: 6, until: held.promise },
      },
    );
    await panel.client.request({ type: 'newTask', text: 'Fix the bug' });
    await panel.until(() => (panel.page.state.streaming?.text.length ?? 0) >= 40, 'the long answer streaming');
    // Mid-stream: the first response's list and usage, and the second request's context.
    const task = () => panel.page.state.panel!.task!;
    await panel.until(() => task().todos?.length === 2, 'the todo list while the answer streams');
    assert.deepEqual(task().todos, [
      { text: 'Read the code', status: 'completed' },
      { text: 'Fix it', status: 'in_progress' },
    ]);
    assert.equal(task().status, 'running');
    assert.equal(task().usage.inputTokens, 1200);
    assert.equal(task().usage.outputTokens, 40);
    const context = task().context;
    assert.ok(context !== undefined && context.results > 0, `the second request's context: ${JSON.stringify(context)}`);
    held.open();
    await panel.until(() => task().status === 'completed', 'the task completes');
    assert.equal(task().usage.inputTokens, 3700);
  });

  test('the context bar’s figures come from each request; Condense summarises the history on request', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('big.txt', `${'lorem ipsum dolor sit amet '.repeat(400)}\n`);
    fixture.server.enqueue({ text: '<read_file>\n<path>big.txt</path>\n</read_file>' }, DONE);
    await panel.client.request({ type: 'newTask', text: 'Read big.txt' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const context = panel.page.state.panel!.task!.context!;
    assert.ok(context.system > 500, JSON.stringify(context));
    assert.ok(context.results > 1000 && context.results < context.conversation, JSON.stringify(context));
    assert.equal(context.tokens, context.system + context.tools + context.conversation);
    const taskId = panel.page.state.panel!.task!.id;
    fixture.server.enqueue({ text: 'The user asked to read big.txt; it was read and the task completed.' });
    await panel.client.request({ type: 'condense', taskId });
    await panel.until(() => panel.page.state.panel!.task!.messages.some((m) => m.kind === 'notice' && /condensed/.test(m.text)), 'the condensed notice');
    assert.equal(fixture.server.requests.length, 3, 'one summary request');
  });

  test('an auto-approve toggle changed while the task waits applies to its next tool call', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>one.txt</path>\n<content>1\n</content>\n</write_to_file>' },
      { text: '<write_to_file>\n<path>two.txt</path>\n<content>2\n</content>\n</write_to_file>' },
      DONE,
    );
    await panel.client.request({ type: 'newTask', text: 'Write two files' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'the first approval');
    await panel.client.request({ type: 'setAutoApprove', change: { editFiles: true } });
    await panel.until(() => panel.page.state.panel?.autoApprove.editFiles === true, 'the toggle shown');
    await panel.client.request({ type: 'approve', callId: panel.page.state.panel!.task!.pendingApproval!.callId });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(fixture.ws.read('two.txt'), '2\n');
    const tools = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'tool' && m.tool === 'write_to_file');
    assert.deepEqual(
      tools.map((m) => (m.kind === 'tool' ? m.approvedBy : undefined)),
      ['user', 'auto'],
      'the second write ran unasked',
    );
  });

  test('the Settings view lists the server’s models, or the catalogue’s with why the server’s failed', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'listModels', provider: 'openai-compatible', baseUrl: fixture.server.openAiBaseUrl });
    await panel.until(() => panel.page.state.panel?.models !== undefined, 'the models');
    assert.deepEqual(panel.page.state.panel!.models, {
      provider: 'openai-compatible',
      baseUrl: fixture.server.openAiBaseUrl,
      source: 'server',
      models: [{ id: 'scripted-model' }],
    });
    await panel.client.request({ type: 'listModels', provider: 'anthropic', baseUrl: '' });
    await panel.until(() => panel.page.state.panel?.models?.provider === 'anthropic', 'the catalogue');
    const claude = panel.page.state.panel!.models!.models.find((m) => m.id.startsWith('claude-sonnet-4'));
    assert.ok(claude?.contextWindow !== undefined && claude.inputPrice !== undefined && claude.supportsImages === true, JSON.stringify(claude));
    await panel.client.request({ type: 'listModels', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' });
    await panel.until(() => panel.page.state.panel?.models?.baseUrl === 'http://127.0.0.1:9/v1', 'the failed listing');
    assert.equal(panel.page.state.panel!.models!.models.length, 0);
    assert.match(panel.page.state.panel!.models!.error ?? '', /127\.0\.0\.1:9/);
  });

  test('several edits in one native response are reviewed as one list and approved together', async () => {
    const panel = openPanel({ native: true });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const write = (path: string) => ({ name: 'write_to_file', arguments: { path, content: `${path}\n` } });
    fixture.server.enqueue(
      { toolCalls: [write('a.txt'), write('b.txt'), write('c.txt')] },
      { toolCalls: [{ name: 'attempt_completion', arguments: { result: 'Wrote three files.' } }] },
    );
    await panel.client.request({ type: 'newTask', text: 'Write three files' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'the first approval');
    const first = panel.page.state.panel!.task!.pendingApproval!;
    assert.equal(first.batch?.index, 1);
    assert.deepEqual(
      first.batch?.calls.map((c) => c.params.path),
      ['a.txt', 'b.txt', 'c.txt'],
    );
    await panel.client.request({ type: 'approve', callId: first.callId, all: true });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.deepEqual(
      ['a.txt', 'b.txt', 'c.txt'].map((f) => fixture.ws.read(f)),
      ['a.txt\n', 'b.txt\n', 'c.txt\n'],
    );
    const writes = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'tool' && m.tool === 'write_to_file');
    assert.deepEqual(
      writes.map((m) => (m.kind === 'tool' ? [m.status, m.approvedBy] : [])),
      [
        ['done', 'user'],
        ['done', 'user'],
        ['done', 'user'],
      ],
    );
  });

  test('file by file: the second call of a batch asks again, and a rejection stops the rest', async () => {
    const panel = openPanel({ native: true });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const write = (path: string) => ({ name: 'write_to_file', arguments: { path, content: `${path}\n` } });
    fixture.server.enqueue(
      { toolCalls: [write('a.txt'), write('b.txt'), write('c.txt')] },
      { toolCalls: [{ name: 'attempt_completion', arguments: { result: 'Wrote one.' } }] },
    );
    await panel.client.request({ type: 'newTask', text: 'Write three files' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval?.batch?.index === 1, 'the first approval');
    await panel.client.request({ type: 'approve', callId: panel.page.state.panel!.task!.pendingApproval!.callId });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval?.batch?.index === 2, 'the second approval');
    await panel.client.request({ type: 'reject', callId: panel.page.state.panel!.task!.pendingApproval!.callId, feedback: 'only a.txt' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(fixture.ws.read('a.txt'), 'a.txt\n');
    assert.equal(existsSync(join(fixture.ws.root, 'b.txt')) || existsSync(join(fixture.ws.root, 'c.txt')), false);
  });

  test('@-mentions in the panel’s messages attach what they name; images go to a model that takes them', async () => {
    const panel = openPanel({ vision: true });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('notes.md', '# Release notes\n');
    fixture.server.enqueue(DONE, DONE);
    await panel.client.request({ type: 'newTask', text: 'Summarise @notes.md' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.match(JSON.stringify(fixture.server.requestAt(0).body), /# Release notes/);
    const task = panel.page.state.panel!.task!.messages[0]!;
    assert.ok(task.kind === 'task' && task.attached?.[0]?.ref === 'notes.md', JSON.stringify(task));

    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f00f0005010201d1b4d54d0000000049454e44ae426082',
      'hex',
    );
    await panel.client.request({ type: 'sendMessage', text: 'And this screenshot', images: [{ name: 'shot.png', data: png.toString('base64') }] });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed' && fixture.server.requests.length === 2, 'the follow-up completes');
    assert.match(JSON.stringify(fixture.server.requestAt(1).body), /image_url|data:image\/png;base64/);
    await assert.rejects(
      panel.client.request({ type: 'sendMessage', text: 'Not an image', images: [{ name: 'a.txt', data: Buffer.from('hello').toString('base64') }] }),
      /a\.txt is not a PNG, JPEG, GIF or WebP image/,
    );
  });

  test('completions for an @-mention: the special mentions and the workspace’s files, ignored ones left out', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('src/app.ts', 'x');
    fixture.ws.write('src/apply.ts', 'x');
    fixture.ws.write('dist/app.js', 'x');
    fixture.ws.write('.gitignore', 'dist/\n');
    await panel.client.request({ type: 'suggestMentions', query: 'app' });
    await panel.until(() => panel.page.state.panel?.mentionSuggestions?.query === 'app', 'the completions');
    assert.deepEqual(
      panel.page.state.panel!.mentionSuggestions!.items.map((i) => i.value),
      ['src/app.ts', 'src/apply.ts'],
    );
    await panel.client.request({ type: 'suggestMentions', query: 'pro' });
    await panel.until(() => panel.page.state.panel?.mentionSuggestions?.query === 'pro', 'the special completions');
    assert.equal(panel.page.state.panel!.mentionSuggestions!.items[0]?.value, 'problems');
  });

  test('a message that starts with /name sends the user’s command; completions list the commands', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('.smith/commands/review.md', '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS for bugs.\n');
    await panel.client.request({ type: 'suggestCommands', query: 're' });
    await panel.until(() => panel.page.state.panel?.commandSuggestions?.query === 're', 'the command completions');
    assert.deepEqual(panel.page.state.panel!.commandSuggestions!.items, [{ value: 'review', label: 'review <file>', detail: 'Review a file' }]);
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'newTask', text: '/review src/app.ts' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.match(JSON.stringify(fixture.server.requestAt(0).body), /Review src\/app\.ts for bugs\./);
    await assert.rejects(
      panel.client.request({ type: 'sendMessage', text: '/nosuch thing' }),
      /Unknown command \/nosuch\. Your commands: \/review\. Start the message with \/\/ to send it as text\./,
    );
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'sendMessage', text: '//etc/hosts is the file' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed' && fixture.server.requests.length === 2, 'the literal message');
    assert.match(JSON.stringify(fixture.server.requestAt(1).body), /<user_message>\\n\/etc\/hosts is the file/);
  });

  test('a command file linked out of the workspace is not a command; the refusal names it and why', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const outside = createTempWorkspace('smith-outside-');
    try {
      const secret = outside.write('id_rsa', 'Send SMITH-SECRET-linked to me.\n');
      fixture.ws.write('.smith/commands/review.md', 'Review it.\n');
      symlinkSync(secret, join(fixture.ws.root, '.smith/commands/leak.md'));
      await panel.client.request({ type: 'suggestCommands', query: '' });
      await panel.until(() => panel.page.state.panel?.commandSuggestions?.query === '', 'the command completions');
      assert.deepEqual(
        panel.page.state.panel!.commandSuggestions!.items.filter((i) => ['review', 'leak'].includes(i.value)).map((i) => i.value),
        ['review'],
      );
      await assert.rejects(
        panel.client.request({ type: 'newTask', text: '/leak' }),
        /Unknown command \/leak\. Your commands: \/review\. Not loaded: \.smith\/commands\/leak\.md: links outside the workspace; not read\./,
      );
      assert.equal(fixture.server.requests.length, 0);
    } finally {
      outside.dispose();
    }
  });

  test('a command file the Read rules withhold is not sent', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('.smith/commands/vault.md', 'Open the vault with SMITH-SECRET-panel.\n');
    fixture.ws.write('.smith/settings.json', JSON.stringify({ permissions: { deny: ['Read(.smith/commands/vault.md)'] } }));
    await assert.rejects(
      panel.client.request({ type: 'newTask', text: '/vault' }),
      /\/vault was not sent: its file \.smith\/commands\/vault\.md is withheld \(denied by Read\(\.smith\/commands\/vault\.md\)\)\./,
    );
    assert.equal(fixture.server.requests.length, 0);
  });

  test('the panel’s own commands: /plan, /act, /mode, /newtask, listed first among the completions', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'suggestCommands', query: '' });
    await panel.until(() => panel.page.state.panel?.commandSuggestions?.query === '', 'the completions');
    assert.deepEqual(
      panel.page.state.panel!.commandSuggestions!.items.slice(0, 6).map((i) => i.value),
      ['newtask', 'condense', 'skills', 'plan', 'act', 'mode'],
    );
    await panel.client.request({ type: 'newTask', text: '/plan' });
    await panel.until(() => panel.page.state.panel?.mode === 'plan', 'Plan mode');
    await panel.client.request({ type: 'newTask', text: '/act' });
    await panel.until(() => panel.page.state.panel?.mode === 'act', 'Act mode');
    // The older spelling of Plan/Act still works while no mode has that name.
    await panel.client.request({ type: 'newTask', text: '/mode plan' });
    await panel.until(() => panel.page.state.panel?.mode === 'plan', 'Plan mode');
    await assert.rejects(
      panel.client.request({ type: 'newTask', text: '/mode turbo' }),
      /Unknown mode "turbo"\. Usage: \/mode <slug> \(code, architect, ask, orchestrator\); \/plan or \/act for Plan\/Act/,
    );
    await assert.rejects(panel.client.request({ type: 'newTask', text: '/skill nosuch' }), /nosuch/);
    await panel.client.request({ type: 'newTask', text: '/mode architect' });
    await panel.until(() => panel.page.state.panel?.modeSlug === 'architect', 'the architect mode');
    assert.equal(panel.page.state.panel?.mode, 'plan', 'a mode leaves Plan/Act alone');
    await panel.client.request({ type: 'newTask', text: '/mode act' });
    await panel.until(() => panel.page.state.panel?.mode === 'act', 'Act mode');
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'newTask', text: '/newtask Say hi' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the new task completes');
    const task = panel.page.state.panel!.task!.messages[0]!;
    assert.ok(task.kind === 'task' && task.text === 'Say hi', JSON.stringify(task));
  });

  test('the Settings view lists the rules files with toggles; a rule turned off no longer reaches the model', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('.cursorrules', 'Always answer in haiku.\n');
    fixture.ws.write('CLAUDE.md', 'Use tabs.\n');
    await panel.client.request({ type: 'showView', view: 'settings' });
    await panel.until(() => panel.page.state.panel?.rules !== undefined, 'the rules');
    const labels = panel.page.state.panel!.rules!.map((r) => [r.label, r.active, r.disabled]);
    assert.deepEqual(labels.sort(), [
      ['.cursorrules', true, false],
      ['CLAUDE.md', true, false],
    ]);
    await panel.client.request({ type: 'setRuleEnabled', label: '.cursorrules', enabled: false });
    await panel.until(() => panel.page.state.panel?.rules?.find((r) => r.label === '.cursorrules')?.disabled === true, 'the rule turned off');
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'newTask', text: 'Say hi' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const sent = JSON.stringify(fixture.server.requestAt(0).body);
    assert.match(sent, /Use tabs\./);
    assert.doesNotMatch(sent, /haiku/);
  });

  test('the Settings view lists the skills with where each comes from; /skills shows it; a skill turned off is not offered', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('.claude/skills/haiku-style/SKILL.md', '---\nname: haiku-style\ndescription: Answer in haiku.\n---\nThree lines.\n');
    fixture.ws.write('.smith/skills/Bad/SKILL.md', '---\nname: Bad\ndescription: x\n---\n');
    mkdirSync(join(fixture.storage, 'skills', 'tabs'), { recursive: true });
    writeFileSync(join(fixture.storage, 'skills', 'tabs', 'SKILL.md'), '---\nname: tabs\ndescription: Indent with tabs.\n---\nUse tabs.\n');
    await panel.client.request({ type: 'sendMessage', text: '/skills' });
    await panel.until(
      () => panel.page.state.panel?.view === 'settings' && panel.page.state.panel.agentSkills !== undefined,
      'the Settings view with the skills',
    );
    const listed = panel.page.state.panel!.agentSkills!.skills.map((s) => [s.name, s.location, s.offered, s.disabled]);
    assert.deepEqual(listed, [
      ['Bad', '.smith/skills', false, false],
      ['haiku-style', '.claude/skills', true, false],
      ['tabs', 'Smith: skills', true, false],
    ]);
    assert.match(panel.page.state.panel!.agentSkills!.skills[0]!.note!, /name "Bad"/);
    await panel.client.request({ type: 'setSkillEnabled', name: 'haiku-style', enabled: false });
    await panel.until(() => panel.page.state.panel?.agentSkills?.skills.find((s) => s.name === 'haiku-style')?.disabled === true, 'the skill turned off');
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'newTask', text: 'Say hi' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const system = JSON.stringify(fixture.server.requestAt(0).body);
    assert.match(system, /- tabs: Indent with tabs\./);
    assert.doesNotMatch(system, /- haiku-style:|Answer in haiku/);
  });

  test('Always allow approves the call and writes its rule; the same command later runs unasked', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const run = { text: '<execute_command>\n<command>echo checked</command>\n<requires_approval>true</requires_approval>\n</execute_command>' };
    fixture.server.enqueue(run, run, DONE);
    await panel.client.request({ type: 'newTask', text: 'Check twice' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'the approval');
    const pending = panel.page.state.panel!.task!.pendingApproval!;
    assert.deepEqual(pending.allowRules, ['Bash(echo checked)']);
    await panel.client.request({ type: 'approve', callId: pending.callId, alwaysAllow: 'user' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.deepEqual(JSON.parse(readFileSync(join(fixture.storage, 'settings.json'), 'utf8')), { permissions: { allow: ['Bash(echo checked)'] } });
    const runs = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'tool' && m.tool === 'execute_command');
    assert.deepEqual(
      runs.map((m) => (m.kind === 'tool' ? [m.approvedBy, m.rule] : [])),
      [
        ['user', undefined],
        ['auto', 'Bash(echo checked)'],
      ],
    );
    assert.ok(
      panel.notices.some((n) => /Allowed from now on: Bash\(echo checked\)/.test(n)),
      panel.notices.join('\n'),
    );
  });

  test('hooks run in the panel: SessionStart adds context, Notification hears of the approval, UserPromptSubmit can refuse', async () => {
    const hook = (command: string) => [{ hooks: [{ command, timeoutSeconds: 30, source: 'test' }] }];
    const panel = openPanel({
      hooks: {
        SessionStart: hook('echo "The build is red since Monday."'),
        Notification: hook('cat >> "$SMITH_PROJECT_DIR/notified.jsonl"'),
        UserPromptSubmit: hook('if grep -q Friday; then echo "no deploys on Fridays" >&2; exit 2; fi'),
      },
    });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await assert.rejects(
      panel.client.request({ type: 'newTask', text: 'Deploy on Friday' }),
      /A UserPromptSubmit hook refused the message: no deploys on Fridays/,
    );
    assert.equal(fixture.server.requests.length, 0, 'a refused message reaches no model');

    fixture.server.enqueue({ text: '<execute_command>\n<command>echo hi</command>\n<requires_approval>true</requires_approval>\n</execute_command>' }, DONE);
    await panel.client.request({ type: 'newTask', text: 'Say hi' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'the approval');
    const notified = JSON.parse(fixture.ws.read('notified.jsonl').trim()) as Record<string, unknown>;
    assert.equal(notified.hook_event_name, 'Notification');
    assert.match(String(notified.message), /Smith needs your approval/);
    await panel.client.request({ type: 'approve', callId: panel.page.state.panel!.task!.pendingApproval!.callId });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.match(allText(fixture.server.requestAt(0)), /<hook_context>\nThe build is red since Monday\.\n<\/hook_context>/);
    assert.ok(
      panel.page.state.panel!.task!.messages.some(
        (m) => m.kind === 'notice' && /SessionStart hook "echo .The build is red since Monday\..*" ran \(added context\)/.test(m.text),
      ),
    );
  });

  test('in the panel SessionStart runs once, before the first UserPromptSubmit, and both know the task', async () => {
    const record = (name: string) => [
      { hooks: [{ command: `{ printf '${name} '; cat; echo; } >> "$SMITH_PROJECT_DIR/hooks.log"`, timeoutSeconds: 30, source: 'test' }] },
    ];
    const panel = openPanel({ hooks: { SessionStart: record('SessionStart'), UserPromptSubmit: record('UserPromptSubmit') } });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(DONE, DONE);
    await panel.client.request({ type: 'newTask', text: 'First' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const taskId = panel.page.state.panel!.task!.id;
    await panel.client.request({ type: 'sendMessage', text: 'Second' });
    await panel.until(() => fixture.server.requests.length === 2 && panel.page.state.panel?.task?.status === 'completed', 'the follow-up completes');
    const lines = fixture.ws
      .read('hooks.log')
      .trim()
      .split('\n')
      .map((line) => {
        const [name, ...json] = line.split(' ');
        return { name, input: JSON.parse(json.join(' ')) as Record<string, unknown> };
      });
    assert.deepEqual(
      lines.map((l) => [l.name, l.input.prompt]),
      [
        ['SessionStart', undefined],
        ['UserPromptSubmit', 'First'],
        ['UserPromptSubmit', 'Second'],
      ],
    );
    for (const line of lines)
      assert.deepEqual(
        [line.input.session_id, line.input.transcript_path, line.input.permission_mode],
        [taskId, join(fixture.storage, 'tasks', taskId, 'events.jsonl'), 'default'],
      );
  });

  test("sub-agents in the panel: their progress streams into the call's card, then each one's report is listed", async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('notes.md', 'Ship on Friday.\n');
    const router = conversationRouter({
      'When do we ship': [
        { text: '<use_subagents>\n<prompts>["Question one: read notes.md", "Question two: list the files"]</prompts>\n</use_subagents>' },
        DONE,
      ],
      'Question one': [
        { text: '<read_file>\n<path>notes.md</path>\n</read_file>' },
        { text: '<attempt_completion>\n<result>Friday.</result>\n</attempt_completion>' },
      ],
      'Question two': [{ text: '<attempt_completion>\n<result>Only notes.md.</result>\n</attempt_completion>' }],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'When do we ship?' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const card = panel.page.state.panel!.task!.messages.find((m) => m.kind === 'tool' && m.tool === 'use_subagents');
    assert.ok(card?.kind === 'tool');
    assert.deepEqual(
      card.details?.subagents?.map((c) => [c.status, c.report]),
      [
        ['completed', 'Friday.'],
        ['completed', 'Only notes.md.'],
      ],
    );
    assert.equal(card.approvedBy, 'auto', 'starting read-only sub-agents is approved like a read');
    assert.ok(
      panel.progress.some((line) => /\[1\] read_file notes\.md/.test(line)),
      panel.progress.join(''),
    );
  });

  test('a model that does not take images refuses them, saying how to allow it', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    await assert.rejects(
      panel.client.request({ type: 'newTask', text: 'Look', images: [{ name: 'shot.png', data: png }] }),
      /does not take images as far as Smith knows\. If it does, turn on smith\.modelSupportsImages/,
    );
    assert.equal(panel.page.state.panel?.task, undefined, 'no task was started');
  });

  test('the history shows each task’s checkpoint storage, and deleting a task frees it', async () => {
    const panel = openPanel();
    const taskId = await helloTask(panel);
    await panel.client.request({ type: 'showView', view: 'history' });
    await panel.until(() => panel.page.state.panel?.history.some((h) => h.taskId === taskId) === true, 'the history');
    const item = panel.page.state.panel!.history.find((h) => h.taskId === taskId);
    assert.ok(item?.checkpointBytes !== undefined && item.checkpointBytes > 0, JSON.stringify(item));
    // Counted as another process would, from what is on disk (loose objects and packs alike).
    const objects = () => new ObjectStore(join(checkpointDirOf(fixture.storage, fixture.ws.root), 'objects')).count();
    const stored = objects();
    assert.ok(stored > 0, 'the task stored checkpoint objects');
    await panel.client.request({ type: 'deleteTask', taskId });
    // What the store's last scan refers to stays (the next checkpoint starts from it); the rest is freed.
    assert.ok(objects() < stored, `${objects()} of ${stored} objects left`);
  });

  test('browser_action in real Chromium: the launch is approved in the panel, the model fixes the console error, and the newest card shows the page', async () => {
    for (const [name, text] of Object.entries(WEB_APP_FILES)) fixture.ws.write(name, text);
    const app = await startWebAppServer(fixture.ws.root);
    closers.push(() => void app.close());
    const panel = openPanel({ vision: true });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const browse = (params: string) => ({ text: `<browser_action>\n${params}\n</browser_action>` });
    fixture.server.enqueue(
      browse(`<action>launch</action>\n<url>${app.url}</url>`),
      browse('<action>click</action>\n<element>Increment</element>'),
      { text: '<replace_in_file>\n<path>app.js</path>\n<diff>\n------- SEARCH\nwindow.setupFooter();\n=======\n+++++++ REPLACE\n</diff>\n</replace_in_file>' },
      browse(`<action>launch</action>\n<url>${app.url}</url>`),
      { text: '<attempt_completion>\n<result>Fixed.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Check the app and fix what is broken' });
    let answered = '';
    for (const expected of [`Open ${app.url} in the browser`, 'Edit app.js (+0 -1)', `Open ${app.url} in the browser`]) {
      await panel.until(() => {
        const pending = panel.page.state.panel?.task?.pendingApproval;
        return pending !== undefined && pending.callId !== answered;
      }, `the approval: ${expected}`);
      const pending = panel.page.state.panel!.task!.pendingApproval!;
      assert.equal(pending.summary.replace('−', '-'), expected);
      answered = pending.callId;
      await panel.client.request({ type: 'approve', callId: pending.callId });
    }
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const cards = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'tool' && m.tool === 'browser_action');
    assert.deepEqual(
      cards.map((m) => (m.kind === 'tool' ? [m.status, m.details?.browser?.action, m.screenshot !== undefined] : [])),
      [
        ['done', 'launch', false],
        ['done', 'click', false],
        ['done', 'launch', true],
      ],
    );
    const [first, , last] = cards;
    assert.ok(
      first?.kind === 'tool' &&
        first.details?.browser?.console.some(
          (line) => line.level === 'error' && line.text === 'uncaught TypeError: window.setupFooter is not a function (app.js:11)',
        ),
      JSON.stringify(first),
    );
    assert.ok(
      last?.kind === 'tool' && JSON.stringify(last.details?.browser?.console) === JSON.stringify([{ level: 'log', text: 'log: app started (app.js:10)' }]),
      JSON.stringify(last?.kind === 'tool' ? last.details : last),
    );
    assert.match(last?.kind === 'tool' ? (last.screenshot ?? '') : '', /^data:image\/jpeg;base64,\/9j\//);
    // Each screenshot reached the model as an image.
    assert.match(JSON.stringify(fixture.server.requestAt(1).body), /data:image\/jpeg;base64,/);
    // Any card's screenshot opens in an editor tab, also one the chat no longer shows.
    const taskId = panel.page.state.panel!.task!.id;
    await panel.client.request({ type: 'openScreenshot', taskId, callId: first!.kind === 'tool' ? first.callId : '' });
    assert.equal(panel.views.opened.length, 1);
    assert.deepEqual([...readFileSync(panel.views.opened[0]!).subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG file');
    await assert.rejects(panel.client.request({ type: 'openScreenshot', taskId, callId: 'call-0' }), /This call has no screenshot to open/);
    // A tampered stored log whose call id and media type are paths: the screenshot still lands in Smith's own folder.
    const outside = join(fixture.ws.root, 'escaped');
    const tampered = readFileSync(join(fixture.storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; callId?: string; images?: Array<{ mimeType: string }> })
      .map((event) =>
        event.type === 'tool_result' && event.images?.length
          ? { ...event, callId: `../../../..${outside}`, images: event.images.map((image) => ({ ...image, mimeType: `image/../../..${outside}` })) }
          : event,
      );
    const tamperedId = `${taskId}-tampered`;
    mkdirSync(join(fixture.storage, 'tasks', tamperedId), { recursive: true });
    writeFileSync(join(fixture.storage, 'tasks', tamperedId, 'events.jsonl'), `${tampered.map((event) => JSON.stringify(event)).join('\n')}\n`);
    await panel.client.request({ type: 'openTask', taskId: tamperedId });
    await panel.until(() => panel.page.state.panel?.task?.id === tamperedId, 'the tampered task opens');
    await panel.client.request({ type: 'openScreenshot', taskId: tamperedId, callId: `../../../..${outside}` });
    const opened = panel.views.opened.at(-1)!;
    assert.match(basename(dirname(opened)), /^smith-screenshots-/);
    assert.equal(dirname(dirname(opened)), tmpdir());
    assert.equal(
      readdirSync(fixture.ws.root).some((name) => name.startsWith('escaped')),
      false,
    );
    assert.deepEqual(panel.page.problems, []);
  });

  test('web_fetch asks once for the host in the panel, and the card says what came back', async () => {
    const app = await startWebAppServer(fixture.ws.root);
    closers.push(() => void app.close());
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(
      { text: `<web_fetch>\n<url>${app.url}article</url>\n</web_fetch>` },
      { text: `<web_fetch>\n<url>${app.url}article?again</url>\n</web_fetch>` },
      { text: '<attempt_completion>\n<result>Read the notes.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Read the release notes' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'the approval');
    const pending = panel.page.state.panel!.task!.pendingApproval!;
    assert.equal(pending.summary, `Fetch ${app.url}article`);
    await panel.client.request({ type: 'approve', callId: pending.callId });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const cards = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'tool' && m.tool === 'web_fetch');
    assert.deepEqual(
      cards.map((m) => (m.kind === 'tool' ? [m.status, m.approvedBy, m.details?.fetch?.truncated] : [])),
      [
        ['done', 'user', false],
        ['done', undefined, false],
      ],
      'the second page of the same host was not asked for',
    );
    assert.match(cards[0]?.kind === 'tool' ? (cards[0].output ?? '') : '', /^# Release notes \| Example\n\nSource: /);
    assert.deepEqual(panel.page.problems, []);
  });
});
