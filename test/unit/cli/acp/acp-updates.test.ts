// The mapping of a task's updates to ACP session updates: text and thinking from the streamed
// blocks, tool calls with kind, title, locations and status, an edit's diff, a command's output,
// the todo list as the plan, and a log replayed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskEvent } from '../../../../src/core/log/events.js';
import type { TaskUpdate } from '../../../../src/core/task/task-types.js';
import { AcpUpdateMapper, MAX_SHOWN_OUTPUT } from '../../../../src/cli/acp/acp-updates.js';

const event = (fields: Record<string, unknown>): TaskUpdate => ({ type: 'event', event: { seq: 1, at: 0, ...fields } as unknown as TaskEvent });
const files = new Map<string, string>();
const mapper = (replay = false) => new AcpUpdateMapper('/ws', replay, (path) => files.get(path), { mode: 'act', modeSlug: 'code' });

describe('AcpUpdateMapper', () => {
  test('text and thinking come from the streamed blocks; tool parameters and raw text do not', () => {
    const m = mapper();
    assert.deepEqual(m.update({ type: 'delta', delta: { kind: 'text', text: '<read_file>' } }), []);
    m.update({ type: 'delta', delta: { kind: 'block_opened', index: 0, block: { kind: 'text', text: '', partial: true } } });
    m.update({ type: 'delta', delta: { kind: 'block_opened', index: 1, block: { kind: 'thinking', text: '', partial: true } } as never });
    m.update({ type: 'delta', delta: { kind: 'block_opened', index: 2, block: { kind: 'tool_use', name: 'read_file', params: {}, partial: true } } as never });
    assert.deepEqual(m.update({ type: 'delta', delta: { kind: 'block_appended', index: 0, text: 'Hello' } }), [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } },
    ]);
    assert.deepEqual(m.update({ type: 'delta', delta: { kind: 'block_appended', index: 1, text: 'hmm' } }), [
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } },
    ]);
    assert.deepEqual(m.update({ type: 'delta', delta: { kind: 'block_appended', index: 2, param: 'path', text: 'a.ts' } }), []);
    assert.deepEqual(m.update({ type: 'delta', delta: { kind: 'reasoning', text: 'why' } }), [
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'why' } },
    ]);
  });

  test('an edit: a pending call with its location, then the diff of the file before and after', () => {
    const m = mapper();
    files.set('/ws/src/a.ts', 'old\n');
    const [call] = m.update(event({ type: 'tool_requested', callId: 'c1', tool: 'replace_in_file', params: { path: 'src/a.ts', diff: '…' } }));
    assert.deepEqual(call, {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Edit src/a.ts',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: '/ws/src/a.ts' }],
      rawInput: { path: 'src/a.ts', diff: '…' },
    });
    assert.deepEqual(m.update(event({ type: 'approval_answered', callId: 'c1', approved: true })), [
      { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' },
    ]);
    files.set('/ws/src/a.ts', 'new\n');
    const edit = { path: 'src/a.ts', added: 1, removed: 1, created: false, sha256After: 'x' };
    const [done] = m.update(event({ type: 'tool_result', callId: 'c1', tool: 'replace_in_file', output: 'ok', details: { edit } }));
    assert.equal(done?.sessionUpdate, 'tool_call_update');
    assert.deepEqual((done as { content: unknown }).content, [{ type: 'diff', path: '/ws/src/a.ts', oldText: 'old\n', newText: 'new\n' }]);
    assert.equal((done as { status: string }).status, 'completed');
  });

  test('a new file has no old text; a rejected call fails with the feedback', () => {
    const m = mapper();
    files.delete('/ws/new.md');
    m.update(event({ type: 'tool_requested', callId: 'c2', tool: 'write_to_file', params: { path: 'new.md', content: 'x' } }));
    files.set('/ws/new.md', 'x\n');
    const [done] = m.update(
      event({
        type: 'tool_result',
        callId: 'c2',
        tool: 'write_to_file',
        output: 'ok',
        details: { edit: { path: 'new.md', added: 1, removed: 0, created: true, sha256After: 'y' } },
      }),
    );
    assert.deepEqual((done as { content: unknown }).content, [{ type: 'diff', path: '/ws/new.md', oldText: null, newText: 'x\n' }]);
    m.update(event({ type: 'tool_requested', callId: 'c3', tool: 'execute_command', params: { command: 'rm -rf /' } }));
    assert.deepEqual(m.update(event({ type: 'approval_answered', callId: 'c3', approved: false, feedback: 'no way' })), [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c3',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'Rejected: no way' } }],
      },
    ]);
  });

  test("a command's output streams (its end kept when long) and its exit decides the status", () => {
    const m = mapper();
    const [call] = m.update(event({ type: 'tool_requested', callId: 'c4', tool: 'execute_command', params: { command: 'npm test' } }));
    assert.equal((call as { kind: string }).kind, 'execute');
    assert.equal((call as { title: string }).title, 'Run npm test');
    m.update({ type: 'progress', callId: 'c4', text: 'a'.repeat(MAX_SHOWN_OUTPUT) });
    const [growing] = m.update({ type: 'progress', callId: 'c4', text: 'END' });
    const shown = (growing as { content: { content: { text: string } }[] }).content[0]!.content.text;
    assert.ok(shown.endsWith('END'));
    assert.match(shown, /^\[… 3 characters before this\]/);
    const command = { command: 'npm test', end: { kind: 'exited', exitCode: 1 }, output: '1 failing', truncated: false };
    const [done] = m.update(event({ type: 'tool_result', callId: 'c4', tool: 'execute_command', output: 'x', details: { command } }));
    assert.equal((done as { status: string }).status, 'failed');
    assert.deepEqual((done as { content: unknown }).content, [{ type: 'content', content: { type: 'text', text: '1 failing' } }]);
  });

  test('kinds: searches, fetches, reads with their line', () => {
    const m = mapper();
    const kind = (tool: string, params: Record<string, string>) =>
      (m.update(event({ type: 'tool_requested', callId: tool, tool, params }))[0] as { kind: string }).kind;
    assert.equal(kind('search_files', { path: '.', regex: 'x' }), 'search');
    assert.equal(kind('web_fetch', { url: 'https://example.com' }), 'fetch');
    assert.equal(kind('use_mcp_tool', { server_name: 's', tool_name: 't' }), 'other');
    assert.equal(kind('read_file', { path: 'a.ts' }), 'read');
    const [read] = m.update(
      event({
        type: 'tool_result',
        callId: 'read_file',
        tool: 'read_file',
        output: 'text',
        details: { read: { path: 'a.ts', firstLine: 10, lastLine: 20, totalLines: 30, truncated: false } },
      }),
    );
    assert.deepEqual((read as { locations: unknown }).locations, [{ path: '/ws/a.ts', line: 10 }]);
  });

  test('the todo list is the plan; completion is the agent speaking, and so is a question when a log is replayed', () => {
    const m = mapper();
    assert.deepEqual(
      m.update(event({ type: 'tool_requested', callId: 't', tool: 'update_todo_list', params: { todos: '- [x] read\n- [-] edit\n- [ ] test' } })),
      [],
    );
    assert.deepEqual(m.update(event({ type: 'tool_result', callId: 't', tool: 'update_todo_list', output: 'ok' })), [
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'read', status: 'completed', priority: 'medium' },
          { content: 'edit', status: 'in_progress', priority: 'medium' },
          { content: 'test', status: 'pending', priority: 'medium' },
        ],
      },
    ]);
    assert.deepEqual(m.update(event({ type: 'tool_requested', callId: 'd', tool: 'attempt_completion', params: { result: 'Done.', command: 'npm start' } })), [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.\n\nSuggested command: `npm start`' } },
    ]);
    // Live, a question is shown when it is asked (the session's question port); replayed, from the call.
    const question = event({ type: 'tool_requested', callId: 'q', tool: 'ask_followup_question', params: { question: 'Which?', options: '["a","b"]' } });
    assert.deepEqual(m.update(question), []);
    assert.deepEqual(mapper(true).update(question), [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Which?\n\n- a\n- b' } }]);
  });

  test('a change of Plan/Act or mode is one mode update; the same state again is none', () => {
    const m = mapper();
    assert.deepEqual(m.update(event({ type: 'mode_switched', mode: 'plan' })), [{ sessionUpdate: 'current_mode_update', currentModeId: 'code:plan' }]);
    assert.deepEqual(m.update(event({ type: 'mode_slug_switched', modeSlug: 'ask' })), [{ sessionUpdate: 'current_mode_update', currentModeId: 'ask:plan' }]);
    assert.deepEqual(m.update(event({ type: 'mode_slug_switched', modeSlug: 'ask' })), []);
  });

  test("a replayed log gives the user's messages and the model's text from each response; live, those are not repeated", () => {
    const started = event({ type: 'task_started', taskId: 't', task: 'Fix it', cwd: '/ws', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    const response = event({
      type: 'model_response',
      text: '',
      reasoning: 'thinking',
      blocks: [{ kind: 'text', text: 'On it.', partial: false }],
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    const replay = mapper(true);
    assert.deepEqual(
      [...replay.update(started), ...replay.update(response)],
      [
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix it' } },
        { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'thinking' } },
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'On it.' } },
      ],
    );
    const live = mapper(false);
    assert.deepEqual([...live.update(started), ...live.update(response)], []);
    assert.deepEqual(live.update(event({ type: 'error', message: 'the provider said 401' })), [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '\n\nSmith stopped: the provider said 401' } },
    ]);
  });
});
