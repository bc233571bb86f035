import type { HookRun } from '../../shared/hook-runs.js';
import type { HookSession } from '../hooks/hook-session.js';
import { runHooks, type HookSettings } from '../hooks/hooks.js';
import type { ExpandedMessage } from '../context/mentions.js';

/** What preparing a message needs of a task's options. */
interface MessageInputs {
  readonly cwd: string;
  readonly hooks?: HookSettings;
  expandMentions?(text: string): Promise<ExpandedMessage>;
}

/** A UserPromptSubmit hook refused the message; it is not sent. */
export class PromptBlockedError extends Error {}

/** The SessionStart hooks that ran before a task's first message: logged with it, their context for the model. */
export interface SessionStartRuns {
  readonly runs: readonly HookRun[];
  readonly context: string;
}

/** A message's expansion, with the UserPromptSubmit hooks that ran on it and the SessionStart hooks before them (logged with the message). */
export type PreparedExpansion = ExpandedMessage & { readonly hookRuns?: readonly HookRun[]; readonly sessionStart?: SessionStartRuns };

/**
 * The task a message goes to, for the hooks' common fields. `startSource`: the task's SessionStart
 * hooks have not run yet, so they run first (`startup` for a new task, `resume` for a reopened one).
 */
export type MessageSession = HookSession & { readonly startSource?: 'startup' | 'resume' };

/** A message as it will be sent (undefined: as typed, nothing ran on it) and the hooks' complaints to show the user. */
interface PreparedMessage {
  readonly expanded: PreparedExpansion | undefined;
  readonly hookErrors: readonly string[];
}

/**
 * Prepares a message the user typed (in the CLI or the panel): a new session's SessionStart hooks
 * first (as in Claude Code, before any UserPromptSubmit), then the UserPromptSubmit hooks (they may
 * refuse it, throwing PromptBlockedError, or add context), then its @-mentions.
 */
export async function prepareMessage(options: MessageInputs, text: string, session: MessageSession = { cwd: options.cwd }): Promise<PreparedMessage> {
  const started =
    session.startSource && options.hooks?.SessionStart ? await runHooks(options.hooks, 'SessionStart', { source: session.startSource }, session) : undefined;
  const sessionStart = started && started.runs.length > 0 ? { runs: started.runs, context: started.context.join('\n\n') } : undefined;
  const hooks = options.hooks?.UserPromptSubmit ? await runHooks(options.hooks, 'UserPromptSubmit', { prompt: text }, session) : undefined;
  if (hooks?.blocked !== undefined) throw new PromptBlockedError(`A UserPromptSubmit hook refused the message: ${hooks.blocked}`);
  const mentioned = options.expandMentions ? await options.expandMentions(text) : undefined;
  const startErrors = started?.errors ?? [];
  if ((!hooks || hooks.runs.length === 0) && !sessionStart) return { expanded: mentioned, hookErrors: startErrors };
  const hookContext = hooks && hooks.context.length > 0 ? `<hook_context>\n${hooks.context.join('\n\n')}\n</hook_context>` : '';
  const base = mentioned ?? { text, context: '', attachments: [], problems: [] };
  return {
    expanded: {
      ...base,
      context: [base.context, hookContext].filter(Boolean).join('\n\n'),
      ...(hooks && hooks.runs.length > 0 ? { hookRuns: hooks.runs } : {}),
      ...(sessionStart ? { sessionStart } : {}),
    },
    hookErrors: [...startErrors, ...(hooks?.errors ?? [])],
  };
}
