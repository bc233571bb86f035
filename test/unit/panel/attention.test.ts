// Notifications when the panel is hidden: approvals, questions and the end of a task, each once,
// never while a Smith chat is visible or when the user turned them off.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskOutcome } from '../../../src/core/task/task.js';
import { AttentionNotices, type AttentionNotice } from '../../../src/panel/attention.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import type { PendingApproval, PendingQuestion } from '../../../src/shared/protocol.js';

function setup() {
  const changed = new Emitter<void>();
  const ended = new Emitter<TaskOutcome>();
  const visibility = new Emitter<void>();
  const state = { visible: false, enabled: true };
  const interactions = {
    pendingApproval: undefined as PendingApproval | undefined,
    pendingQuestion: undefined as PendingQuestion | undefined,
    onDidChange: changed.event,
  };
  const shown: AttentionNotice[] = [];
  const notices = new AttentionNotices({
    interactions,
    onTaskEnded: ended.event,
    panelVisible: () => state.visible,
    onPanelVisibilityChanged: visibility.event,
    enabled: () => state.enabled,
    notify: (notice) => shown.push(notice),
  });
  const wait = (approval?: PendingApproval, question?: PendingQuestion) => {
    interactions.pendingApproval = approval;
    interactions.pendingQuestion = question;
    changed.fire();
  };
  const setVisible = (visible: boolean) => {
    state.visible = visible;
    visibility.fire();
  };
  return { notices, shown, state, wait, setVisible, end: (outcome: TaskOutcome) => ended.fire(outcome) };
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
});
