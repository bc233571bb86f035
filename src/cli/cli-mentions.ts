import type { ExpandedMessage } from '../core/context/mentions.js';
import type { TaskOptions } from '../core/task/task.js';
import type { Style } from './style.js';
import { runHooks } from '../core/hooks/hooks.js';

/** A UserPromptSubmit hook refused the message; it is not sent. */
export class PromptBlockedError extends Error {}

/**
 * Prepares a message the user typed: the UserPromptSubmit hooks first (they may refuse it or add
 * context), then its @-mentions; says on stderr what was attached and what was not.
 */
export async function expandForCli(options: TaskOptions, text: string, err: NodeJS.WritableStream, style: Style): Promise<ExpandedMessage | undefined> {
  const hooks = options.hooks?.UserPromptSubmit ? await runHooks(options.hooks, 'UserPromptSubmit', { prompt: text }, options.cwd) : undefined;
  for (const error of hooks?.errors ?? []) err.write(`${style.yellow(style.text(error))}\n`);
  if (hooks?.blocked !== undefined) throw new PromptBlockedError(`A UserPromptSubmit hook refused the message: ${hooks.blocked}`);
  const hookContext = hooks && hooks.context.length > 0 ? `<hook_context>\n${hooks.context.join('\n\n')}\n</hook_context>` : '';
  if (!options.expandMentions) return hookContext ? { text, context: hookContext, attachments: [], problems: [] } : undefined;
  const mentioned = await options.expandMentions(text);
  const expanded = hookContext ? { ...mentioned, context: [mentioned.context, hookContext].filter(Boolean).join('\n\n') } : mentioned;
  if (expanded.attachments.length > 0) {
    const names = expanded.attachments.map((a) => `@${a.ref}${a.truncated ? ' (cut)' : ''}`).join(', ');
    err.write(`${style.dim(`attached: ${style.text(names)}`)}\n`);
  }
  for (const problem of expanded.problems) err.write(`${style.yellow(style.text(problem))}\n`);
  return expanded;
}
