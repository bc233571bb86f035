import type { ExpandedMessage } from '../core/context/mentions.js';
import type { TaskOptions } from '../core/task/task.js';
import type { Style } from './style.js';

/** Expands a message's @-mentions and says on stderr what was attached and what was not. */
export async function expandForCli(options: TaskOptions, text: string, err: NodeJS.WritableStream, style: Style): Promise<ExpandedMessage | undefined> {
  if (!options.expandMentions) return undefined;
  const expanded = await options.expandMentions(text);
  if (expanded.attachments.length > 0) {
    const names = expanded.attachments.map((a) => `@${a.ref}${a.truncated ? ' (cut)' : ''}`).join(', ');
    err.write(`${style.dim(`attached: ${style.text(names)}`)}\n`);
  }
  for (const problem of expanded.problems) err.write(`${style.yellow(style.text(problem))}\n`);
  return expanded;
}
