import type { Task, TaskOptions } from '../core/task/task.js';
import type { LineSource } from './line-source.js';
import { isSlashCommand, type CliSession, type SlashCommands } from './repl-commands.js';
import type { Style } from './style.js';
import { runTaskChain, type TaskChainResult } from '../core/task/task-chain.js';

/** The terminal pieces a run talks to. */
interface RunTerminal {
  readonly lines: LineSource | undefined;
  readonly commands: SlashCommands;
  readonly err: NodeJS.WritableStream;
  readonly style: Style;
}

/**
 * Runs a task chain with a person at the terminal. A line typed while the task works is a slash
 * command (run at once) or a message queued for the model ("queued: …"), delivered with the next
 * request; it never answers an approval shown later. Messages still queued when the task completes
 * are delivered by running the task on, as a follow-up. `onNewTask` sees every task that starts.
 */
export async function runInteractive(
  first: Task,
  options: TaskOptions,
  session: CliSession,
  terminal: RunTerminal,
  onNewTask: (task: Task) => void,
): Promise<TaskChainResult> {
  const { lines, commands, err, style } = terminal;
  session.task = first;
  session.running = true;
  if (lines?.terminal) {
    lines.setTypeAhead((line) => {
      const text = line.trim();
      if (text === '') return;
      if (isSlashCommand(text)) {
        void commands.run(text);
        return;
      }
      session.task?.queueUserMessage(text);
      err.write(`${style.dim(`queued: ${style.text(text)}`)}\n`);
    });
  }
  const follow = (next: Task) => {
    // A message queued for a task that handed over goes to the task that takes over.
    for (const text of session.task?.takeQueuedMessages() ?? []) next.queueUserMessage(text);
    session.task = next;
    onNewTask(next);
  };
  try {
    let result = await runTaskChain(first, options, follow);
    while (result.outcome.status === 'completed' && result.task.queuedMessages.length > 0 && !session.quit) {
      const more = await runTaskChain(result.task, options, follow);
      result = { ...more, tasks: [...result.tasks, ...more.tasks.slice(1)] };
    }
    return result;
  } finally {
    session.running = false;
    lines?.setTypeAhead(undefined);
  }
}
