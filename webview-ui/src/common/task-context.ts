import { createContext, useContext } from 'react';

/**
 * The id of the task the chat shows: every request about a task names it, so a click lands on the
 * task it was made in, even when the panel has several tasks and another one is shown by the time
 * the host reads it.
 */
export const ShownTaskContext = createContext<string | undefined>(undefined);

/** `{ taskId }` of the shown task, to spread into a request (empty outside a task's chat). */
export function useTaskRef(): { readonly taskId?: string } {
  const taskId = useContext(ShownTaskContext);
  return taskId === undefined ? {} : { taskId };
}
