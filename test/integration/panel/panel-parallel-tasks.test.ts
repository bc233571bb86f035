// Several tasks at once in one panel: the webview's request client talks to the TaskController
// through the in-memory transport, the model is the scripted server answering each task's own
// conversation, and the webview's reducer renders what the host sends.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { TaskLog } from '../../../src/core/log/task-log.js';
import { usageTotals } from '../../../src/core/log/usage-totals.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { gate } from '../../helpers/gate.js';
import { openPanelBackend } from '../../helpers/panel-backend.js';
import { eventually } from '../../helpers/pid-liveness.js';

const READ_A = { text: '<read_file>\n<path>a.txt</path>\n</read_file>' };
const WRITE_B = { text: '<write_to_file>\n<path>b.txt</path>\n<content>Bee\n</content>\n</write_to_file>' };
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('the panel runs several tasks at once', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  test('both progress; an approval in B while A works goes to B only; stopping A leaves B running; costs per task and in total', async () => {
    const panel = openPanelBackend(fixture, closers, { priced: true });
    const state = () => panel.page.state.panel!;
    const listed = (id: string) => state().tasks?.find((task) => task.id === id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('a.txt', 'alpha\n');
    // A reads a file, then its next answer stays open (A keeps working) until the test lets it go.
    const held = gate();
    closers.push(() => held.open());
    const router = conversationRouter({
      'TASK-A': [READ_A, { text: 'Still thinking about a.txt', hold: { afterEvents: 1, until: held.promise } }],
      'TASK-B': [WRITE_B, done('Wrote b.txt.')],
    });
    fixture.server.enqueue(...router.replies());

    await panel.client.request({ type: 'newTask', text: 'TASK-A: read a.txt' });
    await panel.until(() => state().task !== undefined, 'task A shown');
    const a = state().task!.id;
    // A's first step ran (its read is auto-approved) and its second request is open.
    assert.ok(await eventually(() => fixture.server.requests.length === 2), 'task A works on its second request');

    // B starts while A works: A is not stopped, and the list shows both.
    await panel.client.request({ type: 'newTask', text: 'TASK-B: create b.txt' });
    await panel.until(() => state().task !== undefined && state().task!.id !== a, 'task B shown');
    const b = state().task!.id;
    await panel.until(() => state().task?.pendingApproval !== undefined, "B's approval");
    await panel.until(() => listed(a)?.status === 'running' && listed(b)?.status === 'awaiting_approval', 'the list: A working, B waiting for approval');
    assert.deepEqual(
      state().tasks!.map((task) => task.title),
      ['TASK-A: read a.txt', 'TASK-B: create b.txt'],
    );
    const callId = state().task!.pendingApproval!.callId;
    assert.equal(state().task!.pendingApproval!.path, 'b.txt');
    // The answer names its task: the same call id sent for A reaches nothing and leaves B waiting.
    await assert.rejects(panel.client.request({ type: 'approve', callId, taskId: a }), /No tool call of that task is waiting/);
    assert.equal(listed(b)?.status, 'awaiting_approval');
    assert.ok(
      TaskLog.open(fixture.storage, a).events.some((e) => e.type === 'tool_result'),
      "A's read ran while B waited",
    );

    // Stopping A (from the list, while B is shown) leaves B waiting, then running.
    await panel.client.request({ type: 'cancelTask', taskId: a });
    await panel.until(() => listed(a)?.status === 'aborted', 'A stopped');
    assert.equal(state().task!.id, b, 'B is still shown');
    assert.equal(state().task!.pendingApproval?.callId, callId, 'B still waits for its approval');
    await panel.client.request({ type: 'approve', callId, taskId: b });
    await panel.until(() => listed(b)?.status === 'completed' && state().task?.status === 'completed', 'B completes');
    assert.equal(fixture.ws.read('b.txt'), 'Bee\n');
    assert.equal(TaskLog.open(fixture.storage, a).events.at(-1)?.type, 'task_aborted', 'A ended as stopped, nothing after');

    // Costs: each task's own, as its log counts it; the shown task's usage line agrees.
    const costA = usageTotals(TaskLog.open(fixture.storage, a).events).cost;
    const costB = usageTotals(TaskLog.open(fixture.storage, b).events).cost;
    assert.ok(costA !== undefined && costA > 0 && costB !== undefined && costB > 0, `${costA} ${costB}`);
    assert.notEqual(costA, costB, 'the tasks made different requests');
    assert.equal(listed(a)?.cost, costA);
    assert.equal(listed(b)?.cost, costB);
    assert.equal(state().task!.cost, costB);

    // Switching to A shows it as it is (stopped, its read in the chat) and stops nothing; B, finished, stays listed.
    await panel.client.request({ type: 'openTask', taskId: a });
    await panel.until(() => state().task?.id === a, 'A shown');
    assert.equal(state().task!.status, 'aborted');
    assert.ok(state().task!.messages.some((m) => m.kind === 'tool' && m.tool === 'read_file' && m.status === 'done'));
    assert.deepEqual(
      state().tasks!.map((task) => [task.id, task.status]),
      [
        [a, 'aborted'],
        [b, 'completed'],
      ],
    );
    // Back in B, its chat is whole: the completion logged while it was shown is there.
    await panel.client.request({ type: 'openTask', taskId: b });
    await panel.until(() => state().task?.id === b, 'B shown');
    assert.ok(state().task!.messages.some((m) => m.kind === 'completion' && m.result === 'Wrote b.txt.'));
    assert.deepEqual(panel.page.problems, []);
  });

  test('the total cost limit (smith.maxTotalCost): once the tasks together reach it, each running task stops before its next request and asks', async () => {
    const panel = openPanelBackend(fixture, closers, { priced: true, maxTotalCost: () => 0.01 });
    const state = () => panel.page.state.panel!;
    const listed = (id: string) => state().tasks?.find((task) => task.id === id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.ws.write('a.txt', 'alpha\n');
    // $0.006 a response ($1 per million input tokens): one is under the total, two are over it.
    const usage = { input: 6_000, output: 0 };
    const router = conversationRouter({
      'TASK-A': [
        { ...WRITE_B, usage },
        { ...done('A done.'), usage },
      ],
      'TASK-B': [
        { ...READ_A, usage },
        { ...done('B done.'), usage },
      ],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'TASK-A: create b.txt' });
    await panel.until(() => state().task?.pendingApproval !== undefined, "A's approval");
    const a = state().task!.id;
    const callA = state().task!.pendingApproval!.callId;
    await panel.client.request({ type: 'newTask', text: 'TASK-B: read a.txt' });
    await panel.until(() => state().task !== undefined && state().task!.id !== a, 'task B shown');
    const b = state().task!.id;
    // B's read cost the second $0.006: B stops before its next request and asks.
    await panel.until(() => state().task?.pendingQuestion !== undefined, "B's question");
    assert.match(state().task!.pendingQuestion!.question, /a limit: at \$0\.0120 spent by the tasks running at once, over their total cost limit of \$0\.01/);
    assert.equal(fixture.server.requests.length, 2, 'no request after the sum reached the limit');
    // A, approved, is stopped before its next request too, and asks.
    await panel.client.request({ type: 'approve', callId: callA, taskId: a });
    await panel.until(() => listed(a)?.status === 'awaiting_answer' && listed(b)?.status === 'awaiting_answer', 'both ask');
    assert.equal(fixture.ws.read('b.txt'), 'Bee\n');
    assert.equal(fixture.server.requests.length, 2);
    // A goes on (one more allowance for all); B is stopped.
    await panel.client.request({ type: 'answer', text: 'Continue', taskId: a });
    await panel.until(() => listed(a)?.status === 'completed', 'A completes');
    await panel.client.request({ type: 'answer', text: 'Stop', taskId: b });
    await panel.until(() => listed(b)?.status === 'failed', 'B stopped');
    const stopped = TaskLog.open(fixture.storage, b).events.find((e) => e.type === 'error');
    assert.match(JSON.stringify(stopped), /total cost limit of \$0\.01/);
    assert.equal(fixture.server.requests.length, 3, "only A's request after the limit");
  });

  test('a question in one task and an approval in another: each answer reaches the task it names', async () => {
    const panel = openPanelBackend(fixture, closers);
    const state = () => panel.page.state.panel!;
    const listed = (id: string) => state().tasks?.find((task) => task.id === id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const router = conversationRouter({
      'TASK-Q': [{ text: '<ask_followup_question>\n<question>Which colour?</question>\n</ask_followup_question>' }, done('Painted it.')],
      'TASK-W': [WRITE_B, done('Wrote b.txt.')],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'TASK-Q: paint it' });
    await panel.until(() => state().task?.pendingQuestion !== undefined, "Q's question");
    const q = state().task!.id;
    await panel.client.request({ type: 'newTask', text: 'TASK-W: create b.txt' });
    await panel.until(() => state().task?.id !== q && state().task?.pendingApproval !== undefined, "W's approval, W shown");
    const w = state().task!.id;
    await panel.until(() => listed(q)?.status === 'awaiting_answer', 'Q listed as waiting for an answer');
    // W is shown: a message to Q (named) answers Q's question, not W's approval.
    await panel.client.request({ type: 'sendMessage', text: 'Blue', taskId: q });
    await panel.until(() => listed(q)?.status === 'completed', 'Q completes');
    assert.equal(listed(w)?.status, 'awaiting_approval', 'W still waits');
    assert.equal(existsSync(join(fixture.ws.root, 'b.txt')), false);
    const answered = TaskLog.open(fixture.storage, q).events.find((e) => e.type === 'tool_result');
    assert.match(JSON.stringify(answered), /Blue/);
    // An approval without a task id is the shown task's.
    await panel.client.request({ type: 'approve', callId: state().task!.pendingApproval!.callId });
    await panel.until(() => listed(w)?.status === 'completed', 'W completes');
    assert.equal(fixture.ws.read('b.txt'), 'Bee\n');
  });

  test('closing a running task stops it and leaves the other; the last finished task is closed when left', async () => {
    const panel = openPanelBackend(fixture, closers);
    const state = () => panel.page.state.panel!;
    const listed = (id: string) => state().tasks?.find((task) => task.id === id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const heldOne = gate();
    const heldTwo = gate();
    closers.push(
      () => heldOne.open(),
      () => heldTwo.open(),
    );
    const router = conversationRouter({
      'TASK-1': [{ text: 'Working on one', hold: { afterEvents: 1, until: heldOne.promise } }],
      'TASK-2': [{ text: 'Working on two', hold: { afterEvents: 1, until: heldTwo.promise } }, done('Two done.')],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'TASK-1: first' });
    await panel.until(() => state().task !== undefined, 'task 1 shown');
    const one = state().task!.id;
    await panel.client.request({ type: 'newTask', text: 'TASK-2: second' });
    await panel.until(() => state().task !== undefined && state().task!.id !== one, 'task 2 shown');
    const two = state().task!.id;
    assert.ok(await eventually(() => fixture.server.requests.length === 2), 'both tasks have a request open');

    await panel.client.request({ type: 'closeTask', taskId: one });
    await panel.until(() => listed(one) === undefined, 'task 1 gone from the list');
    assert.equal(TaskLog.open(fixture.storage, one).events.at(-1)?.type, 'task_aborted', 'closing a running task stops it');
    assert.equal(state().task?.id, two);
    assert.equal(listed(two)?.status, 'running');
    await assert.rejects(panel.client.request({ type: 'cancelTask', taskId: one }), /no longer open/);

    heldTwo.open();
    await panel.until(() => state().task?.status === 'completed', 'task 2 completes');
    // The New Task command with a finished task shown: it is closed, and the list is empty.
    await panel.client.request({ type: 'sendMessage', text: '/newtask' });
    await panel.until(() => state().task === undefined && state().tasks === undefined, 'an empty chat, no tasks held');
  });

  test('a new_task hand-over while another task waits: the new task takes the place of the one that asked, which is neither held nor waiting', async () => {
    const panel = openPanelBackend(fixture, closers);
    const state = () => panel.page.state.panel!;
    const listed = (id: string) => state().tasks?.find((task) => task.id === id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const router = conversationRouter({
      'TASK-X': [WRITE_B, done('Wrote b.txt.')],
      'TASK-P': [{ text: 'Handing over.\n\n<new_task>\n<context>CHILD-C: write the tests</context>\n</new_task>' }],
      'CHILD-C': [done('Tests written.')],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'TASK-X: create b.txt' });
    await panel.until(() => state().task?.pendingApproval !== undefined, "X's approval");
    const x = state().task!.id;
    await panel.client.request({ type: 'newTask', text: 'TASK-P: hand over' });
    // The controller shows P as soon as it starts (before its first request).
    const p = panel.controller.openTaskId!;
    assert.notEqual(p, x);
    // new_task asks first unless the approval policy lets it through; the answer names P.
    await panel.until(() => panel.interactions.approvalOf(p) !== undefined || state().task?.status === 'completed', "P's approval or the hand-over");
    const asked = panel.interactions.approvalOf(p);
    if (asked) await panel.client.request({ type: 'approve', callId: asked.callId, taskId: p });
    await panel.until(() => state().task?.id !== p && state().task?.id !== x && state().task?.status === 'completed', 'the new task shown and completed');
    const child = state().task!.id;
    assert.notEqual(child, x);
    assert.equal(listed(p), undefined, 'the parent is still listed');
    assert.deepEqual(
      panel.interactions.waits().map((wait) => wait.taskId),
      [x],
      'only X waits',
    );
    assert.equal(listed(x)?.status, 'awaiting_approval');
    assert.ok(TaskLog.open(fixture.storage, p).events.some((e) => e.type === 'new_task_requested'));
    await assert.rejects(panel.client.request({ type: 'cancelTask', taskId: p }), /no longer open/);
  });

  test('a stored task opened while another waits is listed in the history as its log says (a reload left it interrupted)', async () => {
    const panel = openPanelBackend(fixture, closers);
    const state = () => panel.page.state.panel!;
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(WRITE_B);
    await panel.client.request({ type: 'newTask', text: 'TASK-W: create b.txt' });
    await panel.until(
      () => state().task?.pendingApproval !== undefined && state().history?.some((item) => item.taskId === state().task!.id) === true,
      'the approval, the task in the history',
    );
    const w = state().task!.id;
    // The log as a reload leaves it, under another id the history has not seen.
    const copy = `reloaded-${Date.now()}`;
    mkdirSync(join(fixture.storage, 'tasks', copy), { recursive: true });
    copyFileSync(join(fixture.storage, 'tasks', w, 'events.jsonl'), join(fixture.storage, 'tasks', copy, 'events.jsonl'));
    await panel.client.request({ type: 'openTask', taskId: copy });
    await panel.until(() => state().task?.id === copy, 'the copy shown');
    assert.equal(state().task!.status, 'interrupted');
    assert.equal(state().history?.find((item) => item.taskId === copy)?.status, 'interrupted');
    assert.equal(state().tasks?.find((task) => task.id === w)?.status, 'awaiting_approval', 'the waiting task runs on');
  });

  test('closing every task stops the running and the waiting ones, ends their waits and leaves an empty chat', async () => {
    const panel = openPanelBackend(fixture, closers);
    const state = () => panel.page.state.panel!;
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const held = gate();
    closers.push(() => held.open());
    const router = conversationRouter({
      'TASK-R': [{ text: 'Working', hold: { afterEvents: 1, until: held.promise } }],
      'TASK-W': [WRITE_B],
    });
    fixture.server.enqueue(...router.replies());
    await panel.client.request({ type: 'newTask', text: 'TASK-R: run' });
    await panel.until(() => state().task !== undefined, 'R shown');
    const r = state().task!.id;
    await panel.client.request({ type: 'newTask', text: 'TASK-W: create b.txt' });
    await panel.until(() => state().task?.id !== r && state().task?.pendingApproval !== undefined, "W's approval");
    const w = state().task!.id;
    assert.ok(await eventually(() => fixture.server.requests.length === 2), 'both tasks asked the model');

    await panel.controller.closeAllTasks();
    await panel.until(() => state().task === undefined && state().tasks === undefined, 'an empty chat, no tasks held');
    assert.deepEqual(panel.interactions.waits(), []);
    assert.equal(TaskLog.open(fixture.storage, r).events.at(-1)?.type, 'task_aborted');
    assert.equal(TaskLog.open(fixture.storage, w).events.at(-1)?.type, 'task_aborted');
    assert.equal(existsSync(join(fixture.ws.root, 'b.txt')), false);
  });
});
