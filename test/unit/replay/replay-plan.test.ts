import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NOT_APPROVED_IN_ORIGINAL, ReplayApprovals, ReplayQuestions } from '../../../src/core/replay/replay-answers.js';
import { ReplayError, replayPlan } from '../../../src/core/replay/replay-plan.js';
import type { QuestionPort } from '../../../src/core/ports.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import type { ToolGroup } from '../../../src/shared/tool-catalogue.js';

function log(...events: NewEvent[]): TaskEvent[] {
  return events.map((event, seq) => ({ ...event, seq, ts: 1_000 + seq }) as TaskEvent);
}

const started: NewEvent = { type: 'task_started', taskId: 't1', task: 'Do it', cwd: '/ws', provider: 'openai', model: 'gpt', mode: 'act', modeSlug: 'code' };
const checkpoint = (id: string, root: string, afterSeq: number): NewEvent => ({
  type: 'checkpoint_created',
  checkpointId: id,
  root,
  afterSeq,
  changed: [],
  changedCount: 0,
  skipped: [],
});
const requested = (callId: string, tool: string, params: Record<string, string>): NewEvent => ({ type: 'tool_requested', callId, tool, params });
const GROUPS: Record<string, ToolGroup> = {
  read_file: 'read',
  write_to_file: 'edit',
  replace_in_file: 'edit',
  execute_command: 'command',
  use_mcp_tool: 'mcp',
};
const groupOf = (tool: string) => GROUPS[tool];
const ask = (approvals: ReplayApprovals, tool: string, params: Record<string, string>, reason?: string) =>
  approvals.ask({ callId: 'x', tool, params, summary: '', ...(reason ? { reason } : {}) });

describe('replayPlan', () => {
  test('takes the first checkpoint, the messages with their mode, the answers and the decisions', () => {
    const plan = replayPlan(
      log(
        started,
        checkpoint('0', 'root0', 0),
        requested('c1', 'execute_command', { command: 'rm -rf build', requires_approval: 'true' }),
        { type: 'approval_asked', callId: 'c1' },
        { type: 'approval_answered', callId: 'c1', approved: false, feedback: 'not that' },
        requested('c2', 'ask_followup_question', { question: 'Which?' }),
        {
          type: 'tool_result',
          callId: 'c2',
          tool: 'ask_followup_question',
          output: '<answer>\nthe left one\n</answer>',
          details: { question: { answered: true } },
        },
        requested('c3', 'write_to_file', { path: 'a.txt', content: 'x' }),
        { type: 'tool_auto_approved', callId: 'c3' },
        checkpoint('1', 'root1', 8),
        { type: 'mode_switched', mode: 'plan' },
        { type: 'user_message', text: 'now plan the rest', context: 'ctx' },
      ),
    );
    assert.equal(plan.startRoot, 'root0');
    assert.deepEqual(plan.messages, [
      { text: 'Do it', mode: 'act' },
      { text: 'now plan the rest', mode: 'plan', mentioned: { context: 'ctx' } },
    ]);
    assert.deepEqual(plan.answers, ['the left one']);
    assert.deepEqual(
      [...plan.decisions],
      [
        ['execute_command rm -rf build', [{ approved: false, feedback: 'not that' }]],
        ['write_to_file a.txt', [{ approved: true }]],
      ],
    );
    assert.deepEqual(plan.policyApproved, [{ tool: 'write_to_file', params: { path: 'a.txt', content: 'x' } }]);
  });

  test('a rewound message is not replayed, an edited first message is', () => {
    const plan = replayPlan(
      log(
        started,
        checkpoint('0', 'root0', 0),
        { type: 'user_message', text: 'undone' },
        { type: 'conversation_rewound', checkpointId: '0', files: false, toSeq: 1, task: 'Do it better' },
      ),
    );
    assert.deepEqual(plan.messages, [{ text: 'Do it better', mode: 'act' }]);
  });

  test('a log without checkpoints cannot be replayed', () => {
    assert.throws(
      () => replayPlan(log(started, { type: 'task_completed', result: 'done' })),
      (error: unknown) => error instanceof ReplayError && /t1 has no checkpoints/.test(error.message),
    );
  });
});

describe('ReplayApprovals', () => {
  const plan = (...events: NewEvent[]) => replayPlan(log(started, checkpoint('0', 'r', 0), ...events));

  test('a call the user rejected is rejected again with the feedback; one approved is approved', async () => {
    const approvals = new ReplayApprovals(
      plan(
        requested('c1', 'execute_command', { command: 'make deploy' }),
        { type: 'approval_answered', callId: 'c1', approved: false, feedback: 'never deploy' },
        requested('c2', 'execute_command', { command: 'npm test' }),
        { type: 'approval_answered', callId: 'c2', approved: true },
      ),
      groupOf,
    );
    assert.deepEqual(await ask(approvals, 'execute_command', { command: 'make deploy' }), { approved: false, feedback: 'never deploy' });
    assert.deepEqual(await ask(approvals, 'execute_command', { command: ' npm test ' }), { approved: true });
    assert.deepEqual(await ask(approvals, 'execute_command', { command: 'npm publish' }), { approved: false, feedback: NOT_APPROVED_IN_ORIGINAL });
    assert.deepEqual(
      await ask(approvals, 'write_to_file', { path: 'b.txt' }),
      { approved: false, feedback: NOT_APPROVED_IN_ORIGINAL },
      'edits were never auto-approved',
    );
  });

  test('decisions are used in order, the last one repeating', async () => {
    const approvals = new ReplayApprovals(
      plan(
        requested('c1', 'write_to_file', { path: 'a.txt' }),
        { type: 'approval_answered', callId: 'c1', approved: false, feedback: 'not yet' },
        requested('c2', 'write_to_file', { path: 'a.txt' }),
        { type: 'approval_answered', callId: 'c2', approved: true },
      ),
      groupOf,
    );
    const answers = [
      await ask(approvals, 'write_to_file', { path: 'a.txt' }),
      await ask(approvals, 'write_to_file', { path: 'a.txt' }),
      await ask(approvals, 'write_to_file', { path: 'a.txt' }),
    ];
    assert.deepEqual(
      answers.map((a) => a.approved),
      [false, true, true],
    );
  });

  test("what the original's policy let through is approved for other calls of its kind, never out of the ordinary ones", async () => {
    const approvals = new ReplayApprovals(
      plan(
        requested('c1', 'replace_in_file', { path: 'a.txt' }),
        { type: 'tool_auto_approved', callId: 'c1' },
        requested('c2', 'execute_command', { command: 'ls', requires_approval: 'false' }),
        { type: 'tool_auto_approved', callId: 'c2' },
      ),
      groupOf,
    );
    assert.equal((await ask(approvals, 'write_to_file', { path: 'new.txt' })).approved, true);
    assert.equal((await ask(approvals, 'write_to_file', { path: '/etc/x' }, 'The path is outside the workspace.')).approved, false);
    assert.equal((await ask(approvals, 'execute_command', { command: 'pwd', requires_approval: 'false' })).approved, true);
    assert.equal((await ask(approvals, 'execute_command', { command: 'rm x', requires_approval: 'true' })).approved, false);
    assert.equal((await ask(approvals, 'read_file', { path: 'never-read.txt' })).approved, true);
    assert.equal((await ask(approvals, 'use_mcp_tool', { server_name: 's', tool_name: 't' })).approved, false);
  });

  test('a rule-approved call is approved again only when it is the same call', async () => {
    const approvals = new ReplayApprovals(
      plan(requested('c1', 'execute_command', { command: 'git diff' }), { type: 'tool_auto_approved', callId: 'c1', rule: 'Bash(git diff:*)' }),
      groupOf,
    );
    assert.equal((await ask(approvals, 'execute_command', { command: 'git diff' })).approved, true);
    assert.equal((await ask(approvals, 'execute_command', { command: 'git status' })).approved, false);
  });
});

describe('ReplayQuestions', () => {
  test("gives the user's answers in order, then none; never continues past a limit", async () => {
    const questions: QuestionPort = new ReplayQuestions(['first', 'second']);
    const signal = new AbortController().signal;
    assert.equal(await questions.ask('Which?', [], signal), 'first');
    assert.equal(await questions.ask('Limit reached. Continue?', ['Continue', 'Stop'], signal), undefined);
    assert.equal(await questions.ask('And?', ['a', 'b'], signal), 'second');
    assert.equal(await questions.ask('More?', [], signal), undefined);
  });
});
