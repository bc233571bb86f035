import { runHooks } from '../hooks/hooks.js';
import type { TaskOptions } from '../task/task.js';
import type { ExpandedMessage } from './mentions.js';

/** A UserPromptSubmit hook refused the message; it is not sent. */
export class PromptBlockedError extends Error {}

/** A message as it will be sent, and the hooks' complaints to show the user. */
export interface PreparedMessage {
  readonly expanded: ExpandedMessage | undefined;
  readonly hookErrors: readonly string[];
}

/**
 * Prepares a message the user typed (in the CLI or the panel): the UserPromptSubmit hooks first
 * (they may refuse it, throwing PromptBlockedError, or add context), then its @-mentions.
 */
export async function prepareMessage(options: TaskOptions, text: string): Promise<PreparedMessage> {
  const hooks = options.hooks?.UserPromptSubmit ? await runHooks(options.hooks, 'UserPromptSubmit', { prompt: text }, options.cwd) : undefined;
  if (hooks?.blocked !== undefined) throw new PromptBlockedError(`A UserPromptSubmit hook refused the message: ${hooks.blocked}`);
  const hookErrors = hooks?.errors ?? [];
  const hookContext = hooks && hooks.context.length > 0 ? `<hook_context>\n${hooks.context.join('\n\n')}\n</hook_context>` : '';
  if (!options.expandMentions) return { expanded: hookContext ? { text, context: hookContext, attachments: [], problems: [] } : undefined, hookErrors };
  const mentioned = await options.expandMentions(text);
  return { expanded: hookContext ? { ...mentioned, context: [mentioned.context, hookContext].filter(Boolean).join('\n\n') } : mentioned, hookErrors };
}
