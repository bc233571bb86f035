// The todo list the model keeps (update_todo_list) and the user edits in the panel: its items, and
// the Markdown checklist both sides read and write. The schema is the one definition.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';

/** Where one item stands. */
const todoStatusSchema = z.enum(['pending', 'in_progress', 'completed']);
export type TodoStatus = z.infer<typeof todoStatusSchema>;

/** One line of the list. */
export const todoItemSchema = z.object({ text: z.string().check(z.minLength(1), z.maxLength(2000)), status: todoStatusSchema });
export type TodoItem = DeepReadonly<z.infer<typeof todoItemSchema>>;

const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX-])\]\s+(.+?)\s*$/;
const MARK: Record<string, TodoStatus> = { ' ': 'pending', x: 'completed', X: 'completed', '-': 'in_progress' };
const BOX: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[-]', completed: '[x]' };

/**
 * Reads a Markdown checklist: `- [ ] to do`, `- [-] in progress`, `- [x] done` (also `*`, `+` and
 * numbered items). Other lines are ignored; undefined when there is no item at all.
 */
export function parseTodoList(markdown: string): TodoItem[] | undefined {
  const items = markdown.split(/\r?\n/).flatMap((line) => {
    const match = ITEM.exec(line);
    return match ? [{ text: match[2] ?? '', status: MARK[match[1] ?? ' '] ?? 'pending' }] : [];
  });
  return items.length > 0 ? items : undefined;
}

/** The list as a Markdown checklist. */
export function formatTodoList(items: readonly TodoItem[]): string {
  return items.map((item) => `- ${BOX[item.status]} ${item.text}`).join('\n');
}
