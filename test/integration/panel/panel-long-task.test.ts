// A long task opened from the history: the host reads the end of its log and posts the newest
// page of its chat; the webview's reducer asks for older pages as the user scrolls up. Real task
// runs against the scripted model server, the real checkpoint store, the in-memory transport.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, test } from 'node:test';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { readLogTolerantly } from '../../../src/core/log/log-lines.js';
import { storedLine } from '../../../src/core/log/stored-events.js';
import { taskEventsFile } from '../../../src/core/log/task-log.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import { CHAT_PAGE } from '../../../src/panel/chat-window.js';
import { uiMessageSchema, type UiMessage } from '../../../src/shared/ui-messages.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { openPanelBackend } from '../../helpers/panel-backend.js';

const WRITE_HELLO = { text: '<write_to_file>\n<path>hello.txt</path>\n<content>Hello\n</content>\n</write_to_file>' };
const DONE = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };
/** Steps appended to make the task long: about 5 events and 3 messages each. */
const STEPS = 1_500;

describe('a long task in the panel', { timeout: 180_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  /** A panel (a new window) on the fixture's storage that writes files unasked; `task()` is the task its webview shows. */
  function openPanel() {
    const panel = openPanelBackend(fixture, closers, { autoApprove: { editFiles: true, safeCommands: true } });
    panel.views.answer = true;
    return { ...panel, task: () => panel.page.state.panel!.task! };
  }

  /** Runs a task that writes hello.txt (checkpoints 0 and 1), then makes its log long: the id. */
  async function longTask(): Promise<string> {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(WRITE_HELLO, DONE);
    await panel.client.request({ type: 'newTask', text: 'Create hello.txt' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const taskId = panel.task().id;
    await panel.client.request({ type: 'newTask', text: '/newtask' });
    appendSteps(taskId, STEPS);
    return taskId;
  }

  /** Appends `count` steps the way the engine logs them (a follow-up, a request, a reply, a read). */
  function appendSteps(taskId: string, count: number): void {
    const file = taskEventsFile(fixture.storage, taskId);
    let seq = readLogTolerantly(readFileSync(file)).events.length;
    const lines: string[] = [];
    const add = (event: NewEvent) => lines.push(`${storedLine({ ...event, seq: seq++, ts: 10_000 + seq } as TaskEvent)}\n`);
    for (let i = 0; i < count; i++) {
      if (i % 50 === 0) add({ type: 'user_message', text: `Next: part ${i}` });
      add({ type: 'request_started', environmentDetails: `${i}` });
      const callId = `call-${seq + 1}`;
      add({
        type: 'model_response',
        text: '',
        reasoning: '',
        blocks: [{ kind: 'text', text: `Reading part ${i}.`, partial: false }],
        usage: { inputTokens: 100, outputTokens: 10 },
      });
      add({ type: 'tool_requested', callId: `call-${seq}`, tool: 'read_file', params: { path: `part-${i}.ts` } });
      add({ type: 'tool_auto_approved', callId: `call-${seq - 1}` });
      add({ type: 'tool_result', callId: `call-${seq - 2}`, tool: 'read_file', output: `1 | part ${i}` });
      void callId;
    }
    add({ type: 'task_completed', result: 'All parts read.' });
    appendFileSync(file, lines.join(''));
  }

  /** The whole chat of a stored task, as the projection of its whole log gives it (and the protocol carries it: facts it does not know are dropped). */
  function wholeChat(taskId: string): UiMessage[] {
    return uiProjection(readLogTolerantly(readFileSync(taskEventsFile(fixture.storage, taskId))).events).map((m) => uiMessageSchema.parse(m));
  }

  /** Scrolls the webview to the top: asks for the page before its first message until there is none; the pages' sizes. */
  async function scrollToTop(panel: ReturnType<typeof openPanel>): Promise<number[]> {
    const sizes: number[] = [];
    while ((panel.task().messagesFrom ?? 0) > 0) {
      const before = panel.task().messages[0]!.id;
      const posted = panel.page.posted.length;
      await panel.client.request({ type: 'olderMessages', taskId: panel.task().id, before });
      const answer = panel.page.posted.slice(posted).find((m) => m.type === 'olderMessages');
      assert.ok(answer?.type === 'olderMessages', 'the page comes before the reply');
      sizes.push(answer.messages.length);
      assert.equal(panel.task().messages.at(answer.messages.length)?.id, before, 'the page was put before the message asked about');
    }
    return sizes;
  }

  test('opening it posts only the newest page; scrolling up brings every older message, in order, once', async () => {
    const taskId = await longTask();
    const whole = wholeChat(taskId);
    assert.ok(whole.length > 3_000, `a long chat (${whole.length} messages)`);

    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'openTask', taskId });
    await panel.until(() => panel.page.state.panel?.task?.id === taskId, 'the task opens');
    // Nothing the host posted carries more than a page of messages.
    for (const message of panel.page.posted) {
      const count = message.type === 'snapshot' ? (message.state.task?.messages.length ?? 0) : 'messages' in message ? message.messages.length : 0;
      assert.ok(count <= CHAT_PAGE, `${message.type} carried ${count} messages`);
    }
    assert.equal(panel.task().messages.length, CHAT_PAGE);
    assert.equal(panel.task().messagesFrom, whole.length - CHAT_PAGE);
    assert.deepEqual(panel.task().messages, whole.slice(-CHAT_PAGE));
    assert.equal(panel.task().status, 'completed');
    assert.equal(panel.task().usage.inputTokens > STEPS * 100, true, 'the usage line counts the whole log');

    const sizes = await scrollToTop(panel);
    assert.ok(sizes.length >= Math.floor((whole.length - CHAT_PAGE) / CHAT_PAGE), `${sizes.length} pages`);
    assert.ok(
      sizes.every((size) => size > 0 && size <= CHAT_PAGE),
      JSON.stringify(sizes),
    );
    assert.equal(panel.task().messagesFrom, undefined);
    assert.deepEqual(
      panel.task().messages.map((m) => m.id),
      whole.map((m) => m.id),
    );
    assert.deepEqual(panel.task().messages, whole);

    // Asking again before the first message gets an empty page; a key the chat lacks is refused.
    await assert.rejects(panel.client.request({ type: 'olderMessages', taskId, before: 'no-such-message' }), /no longer in the chat/);

    // Export writes the whole task, however little of it the webview holds.
    await panel.client.request({ type: 'exportTask', taskId });
    assert.match(panel.exported.at(-1)?.markdown ?? '', /Create hello\.txt[\s\S]*Reading part 0\.[\s\S]*Reading part 1499\./);
  });

  test('a checkpoint far above the newest page restores by its id; the chat then ends there', async () => {
    const taskId = await longTask();
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'openTask', taskId });
    await panel.until(() => panel.page.state.panel?.task?.id === taskId, 'the task opens');
    assert.ok(!panel.task().messages.some((m) => m.kind === 'checkpoint'), 'checkpoint 1 is not among the newest messages');

    fixture.ws.write('hello.txt', 'changed since\n');
    await panel.client.request({ type: 'restoreCheckpoint', taskId, checkpointId: '1', scope: 'both' });
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\n');
    await panel.until(() => panel.task().messages.at(-1)?.kind === 'notice', 'the restore is shown');
    const whole = wholeChat(taskId);
    assert.deepEqual(panel.task().messages, whole.slice(panel.task().messagesFrom ?? 0));
    assert.ok(
      whole.some((m) => m.kind === 'checkpoint' && m.checkpointId === '1'),
      'the chat ends at checkpoint 1',
    );
    assert.ok(!whole.some((m) => m.kind === 'assistant' && /Reading part/.test(m.text)), 'the steps after it are rewound');
    assert.ok(panel.task().messages.length <= CHAT_PAGE);
  });

  test('a long task resumed from the history: the new messages follow the newest page, and the older pages still come in order', async () => {
    const taskId = await longTask();
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'openTask', taskId });
    await panel.until(() => panel.page.state.panel?.task?.id === taskId, 'the task opens');
    // Two pages read before it goes live: they must stay exact once the whole log is folded.
    await panel.client.request({ type: 'olderMessages', taskId, before: panel.task().messages[0]!.id });
    const heldBefore = panel.task().messages.length;
    assert.ok(heldBefore > CHAT_PAGE);

    fixture.server.enqueue({ text: '<attempt_completion>\n<result>The footer too.</result>\n</attempt_completion>' });
    await panel.client.request({ type: 'sendMessage', text: 'and the footer' });
    await panel.until(() => panel.task().status === 'completed' && panel.task().messages.at(-1)?.kind === 'completion', 'the resumed run completes');
    const whole = wholeChat(taskId);
    assert.equal(whole.at(-1)?.kind, 'completion');
    const from = panel.task().messagesFrom ?? 0;
    assert.ok(panel.task().messages.length >= heldBefore, 'the pages read before were kept');
    assert.deepEqual(panel.task().messages, whole.slice(from));
    for (const message of panel.page.posted) {
      if (message.type === 'taskMessages') assert.ok(message.messages.length <= CHAT_PAGE, `taskMessages carried ${message.messages.length}`);
    }
    await scrollToTop(panel);
    assert.deepEqual(panel.task().messages, whole);
  });

  test('a log with a damaged line and a torn last line opens with a notice and every readable message', async () => {
    const taskId = await longTask();
    const file = taskEventsFile(fixture.storage, taskId);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[40] = lines[40]!.slice(0, 25);
    writeFileSync(file, `${lines.join('\n')}{"v":3,"type":"user_message","te`);
    const readable = wholeChat(taskId);

    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined && panel.page.state.panel.historyLoading !== true, 'the history is read');
    assert.ok(
      panel.page.state.panel!.history.some((item) => item.taskId === taskId),
      'the history lists it',
    );
    await panel.client.request({ type: 'openTask', taskId });
    await panel.until(() => panel.page.state.panel?.task?.id === taskId, 'the task opens');
    const problems = panel.task().problems ?? [];
    assert.equal(problems.length, 2, JSON.stringify(problems));
    assert.match(problems[0]!, /^Line 41 of the log could not be read and is left out/);
    assert.match(problems[1]!, /last line was cut off/);
    await scrollToTop(panel);
    assert.deepEqual(panel.task().messages, readable);
    // Viewing changed nothing on disk.
    assert.ok(readFileSync(file, 'utf8').endsWith('{"v":3,"type":"user_message","te'));
  });
});
