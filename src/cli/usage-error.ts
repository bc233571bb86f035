import { InvalidTaskIdError, taskIdProblem } from '../shared/task-id.js';

/** A mistake in how the CLI was called (exit code 2). */
export class UsageError extends Error {}

/** A task id given on the command line, or a UsageError saying what is wrong with it (see shared/task-id.ts). */
export function taskIdArgument(value: string, where: string): string {
  const problem = taskIdProblem(value);
  if (problem !== undefined) throw new UsageError(`${where}: ${new InvalidTaskIdError(value, problem).message}`);
  return value;
}

/** What `parse` returns; node's message about a bad flag becomes a UsageError, with the command's usage after it when given. */
export function usageErrorsOf<R>(parse: () => R, usage?: string): R {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(usage === undefined ? (error as Error).message : `${(error as Error).message}\n${usage}`);
  }
}
