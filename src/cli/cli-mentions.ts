import { prepareMessage, type MessageSession, type PreparedExpansion } from '../core/task/prepare-message.js';
import type { TaskOptions } from '../core/task/task.js';
import type { Style } from './style.js';

export { PromptBlockedError } from '../core/task/prepare-message.js';

/**
 * Prepares a message the user typed (hooks, then @-mentions; see prepareMessage) and says on
 * stderr what was attached, what was not, and what the hooks complained of.
 */
export async function expandForCli(
  options: TaskOptions,
  text: string,
  err: NodeJS.WritableStream,
  style: Style,
  session?: MessageSession,
): Promise<PreparedExpansion | undefined> {
  const { expanded, hookErrors } = await prepareMessage(options, text, session);
  for (const error of hookErrors) err.write(`${style.yellow(style.text(error))}\n`);
  if (!expanded) return undefined;
  if (expanded.attachments.length > 0) {
    const names = expanded.attachments.map((a) => `@${a.ref}${a.truncated ? ' (cut)' : ''}`).join(', ');
    err.write(`${style.dim(`attached: ${style.text(names)}`)}\n`);
  }
  for (const problem of expanded.problems) err.write(`${style.yellow(style.text(problem))}\n`);
  return expanded;
}
