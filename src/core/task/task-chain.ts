import { costBudgetFor } from './cost-limit.js';
import type { TaskEvent } from '../log/events.js';
import { Task, type TaskOptions, type TaskOutcome } from './task.js';
import { carrySkill } from '../skills/active-skill.js';

/** How a chain of tasks ended: the last task, its outcome, and every task of the chain in order. */
export interface TaskChainResult {
  readonly task: Task;
  readonly outcome: TaskOutcome;
  readonly tasks: readonly Task[];
}

/**
 * Runs a task; when the model hands over to a new task (new_task), starts that task with the
 * carried context and runs it too, in the same Plan/Act state and mode. The iteration limit covers the
 * whole chain: every request made by an earlier task counts against `options.maxIterations`, and
 * every task of the chain (with its sub-agents) spends from one cost budget of `options.maxCost`.
 * The Agent Skill in force at the hand-over stays in force in the new task (its allowed-tools keep
 * limiting the calls), and a run of repeated calls goes on counting across it (repeated-calls.ts).
 * `onNewTask` sees each new task before it runs (hosts subscribe to its updates and show it).
 * Every host runs tasks through this (CLI, MCP serve, the VS Code panel).
 */
export async function runTaskChain(first: Task, options: TaskOptions, onNewTask: (task: Task) => void): Promise<TaskChainResult> {
  const tasks = [first];
  let task = first;
  let iterationsUsed = 0;
  const costs = costBudgetFor(options.maxCost, first.log.events);
  for (;;) {
    const start = task.log.events.length;
    const outcome = await task.run({ iterationsUsed, ...(costs ? { costs } : {}), handedOverFrom: chainEvents(tasks.slice(0, -1)) });
    iterationsUsed += task.log.events.slice(start).filter((event) => event.type === 'request_started').length;
    if (outcome.status !== 'new_task') return { task, outcome, tasks };
    const next = Task.create(options, outcome.context, task.state);
    // The skill in force when the model handed over keeps limiting its tools in the new task.
    carrySkill(task.log.events, next.log, task.id);
    tasks.push(next);
    onNewTask(next);
    task = next;
  }
}

/** The events of every task of a chain, one log after another (each begins with its task_started). */
export function chainEvents(tasks: readonly Task[]): TaskEvent[] {
  return tasks.flatMap((task) => task.log.events);
}
