// The one rule for a task id. A task id becomes a folder name under the storage folder
// (`<storage>/tasks/<taskId>/`), so an id that could name another place (`..`, a separator, an
// absolute path, NUL) is refused wherever one arrives: the CLI, the REPL, replay, the panel's
// messages and the task store itself.
/** Longer ids than this are refused (generated ids are about 22 characters). */
export const MAX_TASK_ID_LENGTH = 128;

const TASK_ID_CHARACTERS = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Why `value` is not a usable task id, or undefined when it is one. */
export function taskIdProblem(value: string): string | undefined {
  if (value.length === 0) return 'a task id cannot be empty';
  if (value.length > MAX_TASK_ID_LENGTH) return `a task id has at most ${MAX_TASK_ID_LENGTH} characters`;
  if (value.includes('..')) return 'a task id cannot contain ".."';
  if (/[/\\]/.test(value)) return 'a task id cannot contain "/" or "\\"';
  if (!TASK_ID_CHARACTERS.test(value)) return 'a task id has only letters, digits, ".", "_" and "-", and does not start with "."';
  return undefined;
}

/** A task id that failed the rule. */
export class InvalidTaskIdError extends Error {
  constructor(
    readonly taskId: string,
    problem: string,
  ) {
    super(`invalid task id ${JSON.stringify(taskId.length > 80 ? `${taskId.slice(0, 80)}…` : taskId)}: ${problem}`);
    this.name = 'InvalidTaskIdError';
  }
}

/** Returns the id, or throws InvalidTaskIdError saying what is wrong with it. */
export function checkTaskId(value: string): string {
  const problem = taskIdProblem(value);
  if (problem !== undefined) throw new InvalidTaskIdError(value, problem);
  return value;
}
