import type { HookRun } from '../../shared/hook-runs.js';
import { runHooks, type HookSettings } from '../hooks/hooks.js';
import type { ExpandedMessage } from './mentions.js';

/** What preparing a message needs of a task's options. */
export interface MessageInputs {
  readonly cwd: string;
  readonly hooks?: HookSettings;
  expandMentions?(text: string): Promise<ExpandedMessage>;
}

/** A UserPromptSubmit hook refused the message; it is not sent. */
export class PromptBlockedError extends Error {}

/** A message's expansion, with the UserPromptSubmit hooks that ran on it (logged with the message). */
export type PreparedExpansion = ExpandedMessage & { readonly hookRuns?: readonly HookRun[] };

/** A message as it will be sent (undefined: as typed, nothing ran on it) and the hooks' complaints to show the user. */
export interface PreparedMessage {
  readonly expanded: PreparedExpansion | undefined;
  readonly hookErrors: readonly string[];
}

/**
 * Prepares a message the user typed (in the CLI or the panel): the UserPromptSubmit hooks first
 * (they may refuse it, throwing PromptBlockedError, or add context), then its @-mentions.
 */
export async function prepareMessage(options: MessageInputs, text: string): Promise<PreparedMessage> {
  const hooks = options.hooks?.UserPromptSubmit ? await runHooks(options.hooks, 'UserPromptSubmit', { prompt: text }, options.cwd) : undefined;
  if (hooks?.blocked !== undefined) throw new PromptBlockedError(`A UserPromptSubmit hook refused the message: ${hooks.blocked}`);
  const mentioned = options.expandMentions ? await options.expandMentions(text) : undefined;
  if (!hooks || hooks.runs.length === 0) return { expanded: mentioned, hookErrors: [] };
  const hookContext = hooks.context.length > 0 ? `<hook_context>\n${hooks.context.join('\n\n')}\n</hook_context>` : '';
  const base = mentioned ?? { text, context: '', attachments: [], problems: [] };
  return { expanded: { ...base, context: [base.context, hookContext].filter(Boolean).join('\n\n'), hookRuns: hooks.runs }, hookErrors: hooks.errors };
}
