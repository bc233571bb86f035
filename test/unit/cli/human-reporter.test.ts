import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { HumanReporter, resultFacts } from '../../../src/cli/human-reporter.js';
import { createStyle } from '../../../src/cli/style.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';

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
