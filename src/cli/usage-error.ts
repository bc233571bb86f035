import { InvalidTaskIdError, taskIdProblem } from '../shared/task-id.js';

/** A mistake in how the CLI was called (exit code 2). */
export class UsageError extends Error {}

/** A task id given on the command line, or a UsageError saying what is wrong with it (see shared/task-id.ts). */
export function taskIdArgument(value: string, where: string): string {
  const problem = taskIdProblem(value);
  if (problem !== undefined) throw new UsageError(`${where}: ${new InvalidTaskIdError(value, problem).message}`);
  return value;
}
