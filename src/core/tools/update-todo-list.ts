import { formatTodoList, parseTodoList, TODO_TOOL } from '../context/todo-list.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';

/** update_todo_list: the model keeps a checklist of a long task current; the user sees it pinned in the chat. */
export const updateTodoListTool: ToolHandler = {
  spec: builtInSpec({
    name: TODO_TOOL,
    description:
      'Replace your todo list for this task with the full, updated Markdown checklist. Use it on tasks of several steps: write the list when you start, then update it as you go (mark items done, mark the one you work on as in progress, add what you discover). Each update replaces the whole list. The current list is shown to you in the environment details.',
    params: [{ name: 'todos', required: true, description: 'The whole list, one item per line: "- [ ] to do", "- [-] in progress", "- [x] done".' }],
    example: `<${TODO_TOOL}>\n<todos>\n- [x] Read the parser\n- [-] Fix the off-by-one in the tokenizer\n- [ ] Add a test\n</todos>\n</${TODO_TOOL}>`,
  }),
  async execute(params) {
    const items = parseTodoList(params.todos ?? '');
    if (!items) return mistake('The todo list has no items. Write one item per line, like "- [ ] Add a test" (or "- [x]" when done, "- [-]" in progress).');
    const done = items.filter((item) => item.status === 'completed').length;
    return { kind: 'result', output: `Todo list updated (${done} of ${items.length} done):\n${formatTodoList(items)}` };
  },
};
