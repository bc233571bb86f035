// Its own module so the task's events can name a todo item without importing the list's reader
// (which reads the events): no import cycle.

/** Where one item of the todo list stands. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One line of the todo list. */
export interface TodoItem {
  readonly text: string;
  readonly status: TodoStatus;
}
