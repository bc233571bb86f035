import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currentTodoList, formatTodoList, parseTodoList, TODO_STALE_AFTER_CALLS, todoListSection } from '../../../src/core/context/todo-list.js';
import type { TaskEvent } from '../../../src/core/log/events.js';

let seq = 0;
const call = (tool: string, params: Record<string, string> = {}): TaskEvent[] => {
  const callId = `c${seq}`;
  return [
    { type: 'tool_requested', callId, tool, params, seq: seq++, ts: 0 },
    { type: 'tool_result', callId, tool, output: 'ok', seq: seq++, ts: 0 },
  ];
};

test('parseTodoList reads checklists in the usual spellings and ignores other lines', () => {
  assert.deepEqual(parseTodoList('Plan:\n- [x] Read\n* [-] Fix\n+ [ ] Test\n1. [X] Numbered\nnot an item'), [
    { text: 'Read', status: 'completed' },
    { text: 'Fix', status: 'in_progress' },
    { text: 'Test', status: 'pending' },
    { text: 'Numbered', status: 'completed' },
  ]);
  assert.equal(parseTodoList('just prose'), undefined);
  assert.equal(formatTodoList(parseTodoList('- [X] a\n- [-] b') ?? []), '- [x] a\n- [-] b');
});

test("the current list is the last update (or the user's edit), with the calls made since", () => {
  const events = [
    ...call('update_todo_list', { todos: '- [ ] one\n- [ ] two' }),
    ...call('read_file'),
    ...call('update_todo_list', { todos: '- [x] one\n- [-] two' }),
    ...call('read_file'),
    ...call('list_files'),
  ];
  assert.deepEqual(currentTodoList(events), {
    items: [
      { text: 'one', status: 'completed' },
      { text: 'two', status: 'in_progress' },
    ],
    callsSince: 2,
  });
  const edited: TaskEvent[] = [...events, { type: 'todo_list_edited', items: [{ text: 'three', status: 'pending' }], seq: seq++, ts: 0 }];
  assert.deepEqual(currentTodoList(edited)?.items, [{ text: 'three', status: 'pending' }]);
  assert.equal(currentTodoList(call('read_file')), undefined);
  assert.equal(todoListSection(call('read_file')), '');
});

test('the section reminds the model when the list has open items and has not changed for a while', () => {
  const listed = call('update_todo_list', { todos: '- [x] one\n- [ ] two' });
  const fresh = todoListSection(listed);
  assert.equal(fresh, '# Todo list\n- [x] one\n- [ ] two');
  const busy = [...listed, ...Array.from({ length: TODO_STALE_AFTER_CALLS }, () => call('read_file')).flat()];
  assert.match(
    todoListSection(busy),
    /You have made 6 tool calls since you last updated this list\. If your progress changed it, update it with update_todo_list\./,
  );
  const finished = [
    ...call('update_todo_list', { todos: '- [x] all done' }),
    ...Array.from({ length: TODO_STALE_AFTER_CALLS }, () => call('read_file')).flat(),
  ];
  assert.doesNotMatch(todoListSection(finished), /You have made/);
});
