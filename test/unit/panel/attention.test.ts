// Notifications when the panel is hidden: approvals, questions and the end of a task, each once,
// never while a Smith chat is visible or when the user turned them off.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskOutcome } from '../../../src/core/task/task.js';
import { AttentionNotices, type AttentionNotice } from '../../../src/panel/attention.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import type { PendingApproval, PendingQuestion } from '../../../src/shared/protocol.js';
import type { TaskWait } from '../../../src/panel/webview-interactions.js';

function setup() {
  const changed = new Emitter<string | undefined>();
  const ended = new Emitter<{ outcome: TaskOutcome; taskId?: string; title?: string }>();
  const visibility = new Emitter<void>();
  const state = { visible: false, enabled: true };
  const interactions = {
    pendingApproval: undefined as PendingApproval | undefined,
    pendingQuestion: undefined as PendingQuestion | undefined,
    /** Waits of the panel's tasks by id, beside the one wait without a task above. */
    tasks: new Map<string, { approval?: PendingApproval; question?: PendingQuestion }>(),
    waits(): TaskWait[] {
      const untitled =
        this.pendingApproval || this.pendingQuestion ? [{ taskId: undefined, approval: this.pendingApproval, question: this.pendingQuestion }] : [];
      return [...untitled, ...[...this.tasks].map(([taskId, wait]) => ({ taskId, ...wait }))];
    },
    onDidChange: changed.event,
  };
  const titles = new Map<string, string>();
  const shown: AttentionNotice[] = [];
  const notices = new AttentionNotices({
    interactions,
    taskTitle: (taskId) => titles.get(taskId),
    onTaskEnded: ended.event,
    panelVisible: () => state.visible,
    onPanelVisibilityChanged: visibility.event,
    enabled: () => state.enabled,
    notify: (notice) => shown.push(notice),
  });
  const wait = (approval?: PendingApproval, question?: PendingQuestion) => {
    interactions.pendingApproval = approval;
    interactions.pendingQuestion = question;
    changed.fire(undefined);
  };
  const setVisible = (visible: boolean) => {
    state.visible = visible;
    visibility.fire();
  };
  const waitIn = (taskId: string, wait: { approval?: PendingApproval; question?: PendingQuestion } | undefined) => {
    if (wait) interactions.tasks.set(taskId, wait);
    else interactions.tasks.delete(taskId);
    changed.fire(taskId);
  };
  return {
    notices,
    shown,
    state,
    wait,
    waitIn,
    titles,
    setVisible,
    end: (outcome: TaskOutcome, task?: { taskId: string; title: string }) => ended.fire({ outcome, ...task }),
  };
}

const approval: PendingApproval = { callId: 'c1', tool: 'execute_command', summary: 'Run npm test' };

describe('AttentionNotices', () => {
  test('hidden panel: an approval, a question and the end of the task are told, each wait once', () => {
    const { shown, wait, end } = setup();
    wait(approval);
    wait(approval); // the same wait, changed again (another listener fired)
    wait();
    wait(undefined, { question: 'Which branch?\nmain or dev', options: [] });
    wait();
    end({ status: 'completed', result: 'All tests pass.\nDetails below.' });
    end({ status: 'failed', error: 'Stopped after 3 consecutive mistakes.' });
    end({ status: 'aborted' });
    assert.deepEqual(shown, [
      { kind: 'approval', message: 'Smith needs your approval: Run npm test' },
      { kind: 'question', message: 'Smith asks: Which branch?' },
      { kind: 'finished', message: 'Smith finished the task: All tests pass.' },
      { kind: 'failed', message: 'Smith stopped: Stopped after 3 consecutive mistakes.' },
    ]);
  });

  test('nothing while a Smith chat is visible, or with the setting off', () => {
    const { shown, state, wait, end } = setup();
    state.visible = true;
    wait(approval);
    end({ status: 'completed', result: 'Done.' });
    state.visible = false;
    state.enabled = false;
    wait({ ...approval, callId: 'c2' });
    end({ status: 'completed', result: 'Done.' });
    assert.deepEqual(shown, []);
  });

  test('a wait that began while the chat was visible is told when the chat is hidden, once', () => {
    const { shown, wait, setVisible } = setup();
    setVisible(true);
    wait(approval);
    assert.deepEqual(shown, []);
    setVisible(false);
    setVisible(true);
    setVisible(false);
    assert.deepEqual(shown, [{ kind: 'approval', message: 'Smith needs your approval: Run npm test' }]);
    wait();
    setVisible(true);
    setVisible(false);
    assert.equal(shown.length, 1, 'nothing waits any more');
  });

  test('a second approval is told again, and a long first line is cut', () => {
    const { shown, wait } = setup();
    wait(approval);
    wait();
    wait({ ...approval, callId: 'c2', summary: 'x'.repeat(300) });
    assert.equal(shown.length, 2);
    assert.equal(shown[1]!.message.length, 'Smith needs your approval: '.length + 300);
    const { shown: shownQ, wait: waitQ } = setup();
    waitQ(undefined, { question: 'y'.repeat(300), options: [] });
    assert.equal(shownQ[0]!.message, `Smith asks: ${'y'.repeat(119)}…`);
    const { shown: shownC, wait: waitC } = setup();
    waitC({ callId: 'c9', tool: 'execute_command', summary: 'Run command', command: 'npm test\n# and more' });
    assert.equal(shownC[0]!.message, 'Smith needs your approval: Run command: npm test', 'the command, its first line');
  });

  test('several tasks: each wait is told once with its task, an answer in one leaves the other told, the end names its task', () => {
    const { shown, waitIn, titles, end } = setup();
    titles.set('task-a', 'Fix the login\nand its tests');
    titles.set('task-b', 'Write the docs');
    waitIn('task-a', { approval });
    waitIn('task-b', { approval: { ...approval, summary: 'Run npm run docs' } });
    // Task A's approval is answered: B still waits and is not told again.
    waitIn('task-a', undefined);
    waitIn('task-b', { approval: { ...approval, summary: 'Run npm run docs' } });
    waitIn('task-a', { question: { question: 'Which branch?', options: [] } });
    end({ status: 'completed', result: 'Docs written.' }, { taskId: 'task-b', title: 'Write the docs' });
    assert.deepEqual(shown, [
      { kind: 'approval', message: 'Smith needs your approval (Fix the login): Run npm test', taskId: 'task-a' },
      { kind: 'approval', message: 'Smith needs your approval (Write the docs): Run npm run docs', taskId: 'task-b' },
      { kind: 'question', message: 'Smith asks (Fix the login): Which branch?', taskId: 'task-a' },
      { kind: 'finished', message: 'Smith finished the task (Write the docs): Docs written.', taskId: 'task-b' },
    ]);
  });

  test('the same call id waiting in two tasks is told for each', () => {
    const { shown, waitIn } = setup();
    waitIn('task-a', { approval });
    waitIn('task-b', { approval });
    assert.deepEqual(
      shown.map((notice) => notice.taskId),
      ['task-a', 'task-b'],
    );
  });
});
