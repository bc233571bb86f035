// Claude Code's session file as Smith's events: the real entry shapes, made by the builder.
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readClaudeCodeSession } from '../../../src/core/import/claude-code-session.js';
import { ImportError, type TimedEvent } from '../../../src/core/import/import-types.js';
import type { NewEvent } from '../../../src/core/log/events.js';
import { ClaudeCodeSessionBuilder } from '../../helpers/foreign-sessions.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('smith-import-');
});
afterEach(() => ws.dispose());

const ofType = <T extends NewEvent['type']>(events: readonly TimedEvent[], type: T) =>
  events.map((e) => e.event).filter((e): e is Extract<NewEvent, { type: T }> => e.type === type);

function session(cwd = '/home/ana/shop'): ClaudeCodeSessionBuilder {
  return new ClaudeCodeSessionBuilder(cwd);
}

describe('Claude Code sessions', () => {
  test('maps the task, replies, thinking and each built-in tool to Smith calls with their results', async () => {
    const s = session().summary('Fix the cart total');
    s.user('The cart total is wrong, fix it');
    s.assistant([
      { type: 'thinking', thinking: 'Look at cart.ts first.', signature: 'EqQBCkYIBxgCKkD' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_01A', name: 'Read', input: { file_path: '/home/ana/shop/src/cart.ts', offset: 10, limit: 20 } },
    ]);
    s.toolResult('toolu_01A', '    10→export const total = 0;');
    s.assistant([
      {
        type: 'tool_use',
        id: 'toolu_01B',
        name: 'Edit',
        input: { file_path: '/home/ana/shop/src/cart.ts', old_string: 'total = 0', new_string: 'total = sum()' },
      },
      { type: 'tool_use', id: 'toolu_01C', name: 'Bash', input: { command: 'npm test', description: 'Run tests' } },
    ]);
    // Claude Code logs each result of a reply's calls in an entry of its own.
    s.toolResult('toolu_01B', 'The file /home/ana/shop/src/cart.ts has been updated.');
    s.toolResult('toolu_01C', 'Error: 1 test failed', { isError: true });
    s.assistant([{ type: 'tool_use', id: 'toolu_01D', name: 'Grep', input: { pattern: 'sum\\(', path: '/home/ana/shop/src', glob: '*.ts' } }]);
    s.toolResult('toolu_01D', 'src/cart.ts');
    s.assistant([{ type: 'text', text: 'Fixed: the total now sums the items.' }]);
    const read = await readClaudeCodeSession(s.write(join(ws.root, 'a.jsonl')));

    assert.equal(read.source, 'claude-code');
    assert.equal(read.sessionId, s.sessionId);
    assert.equal(read.cwd, '/home/ana/shop');
    assert.equal(read.model, 'claude-sonnet-4-20250514');
    assert.equal(read.task.text, 'The cart total is wrong, fix it');
    const requested = ofType(read.events, 'tool_requested');
    assert.deepEqual(
      requested.map((r) => [r.tool, r.params, r.toolUseId]),
      [
        ['read_file', { path: 'src/cart.ts', start_line: '10', end_line: '29' }, 'toolu_01A'],
        ['replace_in_file', { path: 'src/cart.ts', diff: '------- SEARCH\ntotal = 0\n=======\ntotal = sum()\n+++++++ REPLACE' }, 'toolu_01B'],
        ['execute_command', { command: 'npm test', requires_approval: 'false' }, 'toolu_01C'],
        ['search_files', { path: 'src', regex: 'sum\\(', file_pattern: '*.ts' }, 'toolu_01D'],
      ],
    );
    const responses = ofType(read.events, 'model_response');
    assert.equal(responses.length, 4, 'a reply logged in pieces is one response');
    assert.equal(responses[0]!.reasoning, 'Look at cart.ts first.');
    assert.deepEqual(responses[0]!.signedReasoning, [{ text: 'Look at cart.ts first.', signature: 'EqQBCkYIBxgCKkD' }]);
    assert.deepEqual(
      responses[1]!.blocks.map((b) => (b.kind === 'tool' ? b.name : b.kind)),
      ['replace_in_file', 'execute_command'],
    );
    // Input counts the cached tokens too, as Smith's own usage does.
    assert.deepEqual(responses[0]!.usage, { inputTokens: 10204, outputTokens: 80, cacheReadTokens: 9000, cacheWriteTokens: 1200 });
    assert.equal(
      responses[0]!.text,
      'Let me look.\n\n<read_file>\n<path>src/cart.ts</path>\n<start_line>10</start_line>\n<end_line>29</end_line>\n</read_file>',
    );
    assert.deepEqual(
      ofType(read.events, 'tool_result').map((r) => [r.callId, r.output]),
      [
        ['toolu_01A', '    10→export const total = 0;'],
        ['toolu_01B', 'The file /home/ana/shop/src/cart.ts has been updated.'],
        ['toolu_01D', 'src/cart.ts'],
      ],
    );
    assert.deepEqual(
      ofType(read.events, 'tool_error').map((r) => [r.callId, r.error, r.mistake]),
      [['toolu_01C', 'Error: 1 test failed', false]],
    );
    // Results come after their calls, in the order of the log.
    const order = read.events.map((e) => e.event.type);
    assert.ok(order.indexOf('tool_requested') < order.indexOf('tool_result'));
    assert.equal(ofType(read.events, 'task_completed')[0]?.result, 'Fixed: the total now sums the items.');
    assert.ok(read.notCarried.some((line) => /costs of 4 replies/.test(line)));
  });

  test('a tool Smith does not have is kept as marked text with its result; sidechains, meta notes and local commands are listed', async () => {
    const s = session();
    s.user('Audit the repo');
    s.other('user', {
      isSidechain: true,
      type: 'user',
      message: { role: 'user', content: 'sub-agent prompt' },
      uuid: 'side-1',
      parentUuid: null,
      sessionId: s.sessionId,
    });
    s.user('Caveat: The messages below were generated by the user while running local commands.', { isMeta: true });
    s.user('<command-name>/model</command-name>\n<command-message>model</command-message>');
    s.assistant([
      { type: 'tool_use', id: 'toolu_T', name: 'Task', input: { description: 'Find TODOs', prompt: 'List every TODO', subagent_type: 'general-purpose' } },
    ]);
    s.toolResult('toolu_T', [{ type: 'text', text: 'Found 3 TODOs.' }]);
    s.assistant([{ type: 'tool_use', id: 'toolu_N', name: 'NotebookEdit', input: { notebook_path: 'a.ipynb' } }]);
    s.assistant([
      { type: 'thinking', thinking: 'unsigned thought' },
      { type: 'text', text: 'Done.' },
    ]);
    const read = await readClaudeCodeSession(s.write(join(ws.root, 'b.jsonl')));
    const texts = ofType(read.events, 'model_response').map((r) => r.text);
    assert.match(texts[0]!, /^\[Claude Code called its Task tool, which Smith does not have, with \{"description":"Find TODOs".*\nResult:\nFound 3 TODOs\.\]$/);
    assert.match(texts[1]!, /NotebookEdit.*; no result was recorded\]$/);
    assert.equal(ofType(read.events, 'tool_requested').length, 0);
    assert.equal(ofType(read.events, 'user_message').length, 0, 'meta notes and local commands are not the user speaking');
    const last = ofType(read.events, 'model_response').at(-1)!;
    assert.equal(last.reasoning, 'unsigned thought');
    assert.equal(last.signedReasoning, undefined, 'thinking without a signature is never sent back');
    const notes = read.notCarried.join('\n');
    assert.match(notes, /calls of Claude Code's Task tool \(Smith has no such tool; kept as text\)/);
    assert.match(notes, /calls of Claude Code's NotebookEdit tool/);
    assert.match(notes, /sub-agents \(sidechains\)/);
    assert.match(notes, /notes Claude Code added to the conversation for itself/);
    assert.match(notes, /local slash commands/);
    assert.match(notes, /1 thinking block without a signature: shown in the chat, never sent back/);
  });

  test('a denied call, an image, an MCP tool and TodoWrite', async () => {
    const s = session();
    s.user([
      { type: 'text', text: 'Make it look like this' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    s.assistant([{ type: 'tool_use', id: 'toolu_W', name: 'Write', input: { file_path: '/elsewhere/x.css', content: 'a{}' } }]);
    s.toolResult(
      'toolu_W',
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nuse src/ instead",
      { isError: true },
    );
    s.assistant([
      { type: 'tool_use', id: 'toolu_M', name: 'mcp__github__create_issue', input: { title: 'Bug' } },
      {
        type: 'tool_use',
        id: 'toolu_D',
        name: 'TodoWrite',
        input: {
          todos: [
            { content: 'Style page', status: 'in_progress', activeForm: 'Styling' },
            { content: 'Ship', status: 'pending' },
          ],
        },
      },
    ]);
    s.toolResult('toolu_M', 'Created issue #4');
    s.toolResult('toolu_D', 'Todos have been modified successfully.');
    const read = await readClaudeCodeSession(s.write(join(ws.root, 'c.jsonl')));
    assert.deepEqual(read.task.images, [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    const requested = ofType(read.events, 'tool_requested');
    assert.deepEqual(requested[0]!.params, { path: '/elsewhere/x.css', content: 'a{}' }, 'a path outside the workspace stays absolute');
    assert.deepEqual(requested[1]!.params, { server_name: 'github', tool_name: 'create_issue', arguments: '{"title":"Bug"}' });
    assert.deepEqual(requested[2]!.params, { todos: '- [-] Style page\n- [ ] Ship' });
    assert.deepEqual(
      ofType(read.events, 'approval_answered').map((a) => [a.callId, a.approved, a.feedback]),
      [
        ['toolu_W', false, 'use src/ instead'],
        ['toolu_M', true, undefined],
        ['toolu_D', true, undefined],
      ],
    );
    assert.equal(ofType(read.events, 'tool_error').length, 0, 'a denial is not a failure of the tool');
  });

  test('keeps the branch the conversation last stood on, and a compaction summary replaces what came before', async () => {
    const s = session();
    s.user('Version one of the question');
    s.assistant([{ type: 'text', text: 'Answer to version one' }]);
    // The user edited the first message: the new one starts a branch from the same (no) parent.
    s.branchFrom(null);
    s.user('Version two of the question');
    const answered = s.assistant([{ type: 'text', text: 'Answer to version two' }]);
    s.other('system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      parentUuid: null,
      logicalParentUuid: answered,
      uuid: 'boundary',
      sessionId: s.sessionId,
    });
    s.branchFrom('boundary');
    s.user('This session is being continued from a previous conversation. Summary: version two answered.', { isCompactSummary: true });
    s.user('Now add tests');
    s.assistant([{ type: 'text', text: 'Tests added.' }]);
    const read = await readClaudeCodeSession(s.write(join(ws.root, 'd.jsonl')));
    // The chain runs through the compaction boundary to its logical parent.
    assert.equal(read.task.text, 'Version two of the question');
    assert.deepEqual(
      ofType(read.events, 'model_response').map((e) => e.text),
      ['Answer to version two', 'Tests added.'],
    );
    assert.deepEqual(
      ofType(read.events, 'history_condensed').map((e) => e.summary),
      ['This session is being continued from a previous conversation. Summary: version two answered.'],
    );
    assert.deepEqual(
      ofType(read.events, 'user_message').map((e) => e.text),
      ['Now add tests'],
    );
    assert.ok(
      read.notCarried.some((line) => /2 messages of abandoned branches/.test(line)),
      read.notCarried.join('\n'),
    );
  });

  test('a line cut off at the end is left out and said; a damaged line before the end refuses the file', async () => {
    const s = session();
    s.user('Hello');
    s.assistant([{ type: 'text', text: 'Hi' }]);
    const torn = s.write(join(ws.root, 'torn.jsonl'));
    appendFileSync(torn, '{"parentUuid":"x","type":"assistant","message":{"role":"assist');
    const read = await readClaudeCodeSession(torn);
    assert.equal(ofType(read.events, 'model_response').length, 1);
    assert.ok(read.notCarried.includes('line 3, cut off (Claude Code was still writing it)'));

    const lines = s.lines();
    const damaged = join(ws.root, 'damaged.jsonl');
    writeFileSync(damaged, `${lines[0]}\n{"type":"user",\n${lines[1]}\n`);
    await assert.rejects(readClaudeCodeSession(damaged), (error: Error) => error instanceof ImportError && /line 2 is not JSON/.test(error.message));
  });

  test('refuses a newer format, a file that is not a session, and a session without a user message', async () => {
    const newer = new ClaudeCodeSessionBuilder('/p', 'id', '3.0.1');
    newer.user('hi');
    await assert.rejects(readClaudeCodeSession(newer.write(join(ws.root, 'n.jsonl'))), /Claude Code 3\.0\.1, whose session format this Smith does not know/);
    writeFileSync(join(ws.root, 'list.jsonl'), '[1,2,3]\n');
    await assert.rejects(readClaudeCodeSession(join(ws.root, 'list.jsonl')), /line 1 is not a Claude Code session entry/);
    writeFileSync(join(ws.root, 'empty.jsonl'), '\n\n');
    await assert.rejects(readClaudeCodeSession(join(ws.root, 'empty.jsonl')), /holds no Claude Code session entries/);
    const silent = session();
    silent.summary('nothing');
    silent.assistant([{ type: 'text', text: 'alone' }]);
    await assert.rejects(readClaudeCodeSession(silent.write(join(ws.root, 's.jsonl'))), /holds no message from the user/);
  });

  test('an image larger than Smith sends is left out and said; one only referred to is said too', async () => {
    const s = session();
    s.user([
      { type: 'text', text: 'Look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(7_100_000) } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
    ]);
    s.assistant([{ type: 'text', text: 'Seen.' }]);
    const read = await readClaudeCodeSession(s.write(join(ws.root, 'big.jsonl')));
    assert.equal(read.task.images, undefined);
    assert.ok(read.notCarried.includes('images larger than Smith sends (5 MB)'), read.notCarried.join('\n'));
    assert.ok(read.notCarried.includes('images the session refers to but does not hold (only their mention is kept)'));
  });

  test('--cwd makes paths relative to the folder given', async () => {
    const s = session('/old/place');
    s.user('read it');
    s.assistant([{ type: 'tool_use', id: 'toolu_R', name: 'Read', input: { file_path: '/new/place/a.ts' } }]);
    s.toolResult('toolu_R', 'x');
    const read = await readClaudeCodeSession(s.write(join(ws.root, 'e.jsonl')), { cwd: '/new/place' });
    assert.equal(read.cwd, '/new/place');
    assert.deepEqual(ofType(read.events, 'tool_requested')[0]!.params, { path: 'a.ts' });
  });
});
