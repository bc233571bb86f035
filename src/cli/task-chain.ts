import { Task, type TaskOptions, type TaskOutcome } from '../core/task/task.js';

/**
 * Runs a task; when the model hands over to a new task (new_task), starts that task with the
 * carried context and runs it too, in the same mode and skill.
 */
export async function runTaskChain(
  first: Task,
  options: TaskOptions,
  onNewTask: (task: Task) => void,
): Promise<{ task: Task; outcome: TaskOutcome }> {
  let task = first;
  for (;;) {
    const outcome = await task.run();
    if (outcome.status !== 'new_task') return { task, outcome };
    const next = Task.create(options, outcome.context, task.state);
    onNewTask(next);
    task = next;
  }
}
