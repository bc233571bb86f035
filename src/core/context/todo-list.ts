import type { TaskEvent } from '../log/events.js';
import { formatTodoList, parseTodoList, type TodoItem, type TodoStatus } from '../../shared/todo-items.js';
import type { ToolName } from '../../shared/tool-catalogue.js';

export { formatTodoList, parseTodoList, type TodoItem, type TodoStatus };

/** The tool that keeps the list, named once for the tool, the log reader and the prompt. */
export const TODO_TOOL = 'update_todo_list' satisfies ToolName;

/** Tool calls after the last update before the model is reminded to bring the list up to date. */
export const TODO_STALE_AFTER_CALLS = 6;

/** The list as the log last left it, and how many tool calls were made since it was updated. */
export function currentTodoList(events: readonly TaskEvent[]): { items: TodoItem[]; callsSince: number } | undefined {
  const requested = new Map<string, string>();
  let current: { items: TodoItem[]; callsSince: number } | undefined;
  for (const event of events) {
    if (event.type === 'tool_requested') {
      if (event.tool === TODO_TOOL) requested.set(event.callId, event.params.todos ?? '');
      else if (current) current.callsSince++;
    } else if (event.type === 'tool_result' && requested.has(event.callId)) {
      const items = parseTodoList(requested.get(event.callId) ?? '');
      if (items) current = { items, callsSince: 0 };
    } else if (event.type === 'todo_list_edited') {
      current = { items: [...event.items], callsSince: current?.callsSince ?? 0 };
    }
  }
  return current;
}

/** The environment-details section for the list, with a reminder when it has gone stale. */
export function todoListSection(events: readonly TaskEvent[]): string {
  const list = currentTodoList(events);
  if (!list) return '';
  const open = list.items.some((item) => item.status !== 'completed');
  const stale = open && list.callsSince >= TODO_STALE_AFTER_CALLS;
  const reminder = stale
    ? `\n\nYou have made ${list.callsSince} tool calls since you last updated this list. If your progress changed it, update it with ${TODO_TOOL}.`
    : '';
  return `# Todo list\n${formatTodoList(list.items)}${reminder}`;
}
