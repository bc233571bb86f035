import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { HumanReporter, resultFacts } from '../../../src/cli/human-reporter.js';
import { createStyle } from '../../../src/cli/style.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { runModelTurn } from '../../../src/core/task/model-turn.js';

function reporterOutput(events: readonly NewEvent[], showTodos = true): string {
  const err = new PassThrough();
  let text = '';
  err.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const reporter = new HumanReporter(err, createStyle(false), 'normal', showTodos);
  for (const [seq, event] of events.entries()) reporter.handle({ type: 'event', event: { ...event, seq, ts: 0 } as TaskEvent });
  return text;
}

describe('the CLI reports tool calls from their fields', () => {
  test("each call is announced with what it is about, as the panel's card says it", () => {
    const text = reporterOutput([
      { type: 'tool_requested', callId: 'a', tool: 'search_files', params: { path: 'src', regex: 'TODO' } },
      { type: 'tool_requested', callId: 'b', tool: 'use_mcp_tool', params: { server_name: 'fs', tool_name: 'read' } },
      { type: 'tool_requested', callId: 'c', tool: 'execute_command', params: { command: 'npm test' } },
    ]);
    assert.equal(text, '\n▸ search_files /TODO/ in src\n\n▸ use_mcp_tool fs › read\n\n▸ execute_command npm test\n');
  });

  test('a result prints its facts: lines changed, how a command ended, what a read found; a result without facts prints nothing', () => {
    const text = reporterOutput([
      {
        type: 'tool_result',
        callId: 'a',
        tool: 'replace_in_file',
        output: 'saved',
        details: { edit: { path: 'a.ts', added: 3, removed: 1, created: false, sha256Before: 'x', sha256After: 'y' } },
      },
      {
        type: 'tool_result',
        callId: 'b',
        tool: 'execute_command',
        output: 'Exit code: 2',
        details: { command: { command: 'npm test', end: { kind: 'exited', exitCode: 2 }, output: 'FAIL', truncated: false } },
      },
      {
        type: 'tool_result',
        callId: 'c',
        tool: 'read_file',
        output: '1 | x',
        details: { read: { path: 'a', firstLine: 1, lastLine: 40, totalLines: 90, truncated: true } },
      },
      { type: 'tool_result', callId: 'd', tool: 'read_file', output: 'written before facts were logged' },
    ]);
    assert.equal(text, '  +3 −1\n  exit code 2\n  lines 1–40 of 90\n');
  });

  test('facts of a new file and of a cut output say so', () => {
    assert.equal(resultFacts({ edit: { path: 'n.ts', added: 2, removed: 0, created: true, sha256After: 'z' } }), 'created, +2 −0');
    assert.equal(
      resultFacts({ command: { command: 'seq 1 1000000', end: { kind: 'exited', exitCode: 0 }, output: '1', truncated: true } }),
      'exit code 0 (output cut in the middle)',
    );
    assert.equal(resultFacts(undefined), '');
  });
});

describe('the CLI shows the todo list when the model updates it', () => {
  test('a compact list after the update succeeds: a count, then one line per item with its box', () => {
    const todos = '- [x] Read the queue\n- [-] Fix the race\n- [ ] Add a test';
    const text = reporterOutput([
      { type: 'tool_requested', callId: 't', tool: 'update_todo_list', params: { todos } },
      { type: 'tool_result', callId: 't', tool: 'update_todo_list', output: 'Todo list updated.' },
    ]);
    assert.ok(text.endsWith('  Todo (1/3 done)\n  [x] Read the queue\n  [-] Fix the race\n  [ ] Add a test\n'), text);
  });

  test('a refused update shows no list', () => {
    const text = reporterOutput([
      { type: 'tool_requested', callId: 't', tool: 'update_todo_list', params: { todos: '- [ ] x' } },
      { type: 'tool_error', callId: 't', tool: 'update_todo_list', error: 'bad list', mistake: true },
    ]);
    assert.doesNotMatch(text, /Todo \(/);
  });
});

describe('beside JSON output', () => {
  test('the todo list is left out: it is for a person reading the run', () => {
    const events: NewEvent[] = [
      { type: 'tool_requested', callId: 't', tool: 'update_todo_list', params: { todos: '- [ ] Add a test' } },
      { type: 'tool_result', callId: 't', tool: 'update_todo_list', output: 'Todo list updated.' },
    ];
    assert.match(reporterOutput(events), /Todo \(0\/1 done\)/);
    assert.doesNotMatch(reporterOutput(events, false), /Todo|Add a test/);
  });
});

describe('the CLI prints the streamed answer from block deltas', () => {
  const message = 'First I look at it: \x1b[31mred\x1b[0m stays plain.\n\n<read_file>\n<path>src/a.ts</path>\n</read_file>\n\nThen the second paragraph.';
  const grammar = { tools: new Map([['read_file', ['path']]]) };

  async function printed(chunkSize: number): Promise<string> {
    const err = new PassThrough();
    let text = '';
    err.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const reporter = new HumanReporter(err, createStyle(false), 'normal');
    const chunks = Array.from({ length: Math.ceil(message.length / chunkSize) }, (_, i) => message.slice(i * chunkSize, (i + 1) * chunkSize));
    const provider = {
      id: 'openai-compatible' as const,
      modelId: 'scripted',
      async *createMessage() {
        for (const chunk of chunks) yield { type: 'text' as const, text: chunk };
      },
    };
    reporter.handle({ type: 'event', event: { type: 'request_started', seq: 0, ts: 0 } as unknown as TaskEvent });
    const turn = await runModelTurn(provider, { systemPrompt: '', messages: [] }, grammar, (delta) => reporter.handle({ type: 'delta', delta }));
    reporter.handle({ type: 'event', event: { type: 'model_response', seq: 1, ts: 0, blocks: turn.blocks } as unknown as TaskEvent });
    return text;
  }

  test('each text block is printed once, whole, whatever the chunking; escape sequences split across chunks never print', async () => {
    const expected = 'First I look at it: red stays plain.';
    for (const size of [1, 2, 3, 5, 16, 1000]) assert.equal(await printed(size), expected, `chunks of ${size}`);
  });
});
