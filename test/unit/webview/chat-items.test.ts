import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskView } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { buildChatItems } from '../../../webview-ui/src/chat/chat-items.js';
import { formatCost, formatTokens } from '../../../webview-ui/src/common/format.js';
import { toolSubject } from '../../../src/shared/tool-subject.js';
import { splitPath } from '../../../webview-ui/src/chat/tool-display.js';

const ts = 1;
const question = (id: string): UiMessage => ({
  kind: 'tool',
  id,
  callId: `c-${id}`,
  tool: 'ask_followup_question',
  params: { question: '?' },
  status: 'done',
  ts,
});
function task(messages: UiMessage[], overrides: Partial<TaskView> = {}): TaskView {
  return {
    id: 't',
    messages,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    mode: 'act',
    modeSlug: 's',
    status: 'idle',
    ...overrides,
  };
}

describe('buildChatItems', () => {
  test('the pending question attaches to the last question card, or gets its own row', () => {
    const pendingQuestion = { question: 'Which?', options: ['a', 'b'] };
    const items = buildChatItems(task([question('q1'), question('q2')], { pendingQuestion, status: 'awaiting_answer' }), undefined, {});
    assert.deepEqual(
      items.map((i) => (i.type === 'message' ? i.pendingQuestion : undefined)),
      [undefined, pendingQuestion],
    );
    const alone = buildChatItems(task([], { pendingQuestion }), undefined, {});
    assert.deepEqual(
      alone.map((i) => i.type),
      ['question'],
    );
  });

  test('only the last error of a failed task is retryable; a failure without an error row gets one', () => {
    const err = (id: string): UiMessage => ({ kind: 'error', id, text: id, ts });
    const failed = buildChatItems(task([err('e1'), err('e2')], { status: 'failed' }), undefined, {});
    assert.deepEqual(
      failed.map((i) => i.type === 'message' && i.retryable),
      [false, true],
    );
    const idle = buildChatItems(task([err('e1')]), undefined, {});
    assert.deepEqual(
      idle.map((i) => i.type === 'message' && i.retryable),
      [false],
    );
    const bare = buildChatItems(task([], { status: 'failed', error: 'boom' }), undefined, {});
    assert.deepEqual(bare, [{ type: 'failure', key: 'failure', text: 'boom' }]);
  });

  test('streaming text becomes the last row; empty streams and other tasks are skipped', () => {
    assert.equal(buildChatItems(task([]), { taskId: 't', text: 'hi', reasoning: '', since: 0 }, {}).at(-1)?.type, 'streaming');
    assert.equal(buildChatItems(task([]), { taskId: 't', text: '', reasoning: '', since: 0 }, {}).length, 0);
    assert.equal(buildChatItems(task([]), { taskId: 'x', text: 'hi', reasoning: '', since: 0 }, {}).length, 0);
  });

  test('live output and the approval diff reach their tool card', () => {
    const cmd: UiMessage = { kind: 'tool', id: 'x', callId: 'c1', tool: 'execute_command', params: { command: 'ls' }, status: 'running', ts };
    const approval = { callId: 'c1', tool: 'execute_command', summary: 's', diff: '@@\n+a' };
    const [item] = buildChatItems(task([cmd], { pendingApproval: approval }), undefined, { c1: 'out' });
    assert.ok(item?.type === 'message');
    assert.equal(item.live, 'out');
    assert.equal(item.approval?.diff, '@@\n+a');
  });

  test("a sub-agent's approval never lands on the task's card with the same call id (its call id is its own task's)", () => {
    const cmd: UiMessage = { kind: 'tool', id: 'x', callId: 'c1', tool: 'execute_command', params: { command: 'ls' }, status: 'done', ts };
    const approval = { callId: 'c1', tool: 'write_to_file', summary: 's', subagent: { index: 0, taskId: 'child' } };
    const [item] = buildChatItems(task([cmd], { pendingApproval: approval }), undefined, {});
    assert.ok(item?.type === 'message');
    assert.equal(item.approval, undefined);
  });
});

describe('display helpers', () => {
  test('tool subject: command, search, path, MCP', () => {
    assert.deepEqual(toolSubject('execute_command', { command: 'npm test' }), { kind: 'command', text: 'npm test' });
    assert.deepEqual(toolSubject('search_files', { path: 'src', regex: 'TODO' }), { kind: 'text', text: '/TODO/ in src' });
    assert.deepEqual(toolSubject('read_file', { path: 'a.ts' }), { kind: 'path', text: 'a.ts' });
    assert.deepEqual(toolSubject('use_mcp_tool', { server_name: 'fs', tool_name: 'read' }), { kind: 'text', text: 'fs › read' });
    assert.deepEqual(toolSubject('use_skill', { skill_name: 'release-notes' }), { kind: 'text', text: 'release-notes' });
    assert.equal(toolSubject('attempt_completion', { result: 'done' }), undefined);
  });

  test('paths split into folders and the file name (with its separator), which stays whole', () => {
    assert.deepEqual(splitPath('src/components/form.tsx'), { dir: 'src/components', name: '/form.tsx' });
    assert.deepEqual(splitPath('README.md'), { dir: '', name: 'README.md' });
    assert.deepEqual(splitPath('/etc/hosts'), { dir: '/etc', name: '/hosts' });
    assert.deepEqual(splitPath('/hosts'), { dir: '', name: '/hosts' });
    assert.deepEqual(splitPath('src/utils/'), { dir: 'src', name: '/utils/' });
    assert.deepEqual(splitPath('C:\\work\\app\\main.ts'), { dir: 'C:\\work\\app', name: '\\main.ts' });
  });

  test('numbers: tokens and cost', () => {
    assert.deepEqual([950, 1234, 12_345, 2_500_000].map(formatTokens), ['950', '1.2k', '12k', '2.5M']);
    assert.equal(formatCost(0.0123), '$0.0123');
    assert.equal(formatCost(1.5), '$1.5000');
  });
});
