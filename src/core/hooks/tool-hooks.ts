import type { Host } from '../ports.js';
import type { TaskLog } from '../log/task-log.js';
import type { ToolOutcome } from '../tool-kit/tool-spec.js';
import { logHookRuns } from './hook-log.js';
import { taskHookSession, type HookPermissionMode } from './hook-session.js';
import { runHooks, type HookSettings } from './hooks.js';

/** What a tool call's hooks need: the user's hooks, the task's log and host, the workspace. */
interface ToolHookEnvironment {
  readonly hooks?: HookSettings;
  readonly log: TaskLog;
  readonly host: Host;
  readonly cwd: string;
  /** The task's mode and approval policy in Claude Code's words, for `permission_mode`. */
  readonly permissionMode?: HookPermissionMode;
}

/** What the PreToolUse hooks decided about one call. */
interface PreToolUseDecision {
  /** Why a hook blocked the call; it does not run. */
  readonly blocked?: string;
  /** The call's parameters, as a hook may have changed them (`updatedInput`, merged over the model's). */
  readonly params: Readonly<Record<string, string>>;
  /** A hook decided the call runs unasked (`allow`) or must be asked (`ask`), with its reason. */
  readonly permission?: { readonly decision: 'allow' | 'ask'; readonly reason?: string };
  /** What the hooks added for the model, to go with the call's result. */
  readonly note: string;
}

/** Runs the PreToolUse hooks of a call and logs them. */
export async function preToolUse(
  tool: string,
  params: Readonly<Record<string, string>>,
  callId: string,
  env: ToolHookEnvironment,
): Promise<PreToolUseDecision> {
  if (!env.hooks?.PreToolUse) return { params, note: '' };
  const pre = await runHooks(env.hooks, 'PreToolUse', { tool_input: params }, taskHookSession(env.cwd, env.log, env.permissionMode), tool);
  const changed = pre.updatedInput ? { ...params, ...stringParams(pre.updatedInput) } : params;
  logHookRuns(env.log, 'PreToolUse', pre, { tool, callId, ...(pre.updatedInput ? { input: changed } : {}) });
  for (const error of pre.errors) env.host.notify('warning', error);
  if (pre.blocked !== undefined) return { blocked: pre.blocked, params, note: '' };
  const reason = pre.runs.findLast((run) => run.result === 'allowed' || run.result === 'ask')?.reason;
  return {
    params: changed,
    ...(pre.permission ? { permission: { decision: pre.permission, ...(reason ? { reason } : {}) } } : {}),
    // The model asked for one call and another ran: it is told, or it would misread the result.
    note:
      (pre.updatedInput ? `\n\n[A PreToolUse hook of the user changed this call's input before it ran, to: ${JSON.stringify(pre.updatedInput)}]` : '') +
      contextNote('PreToolUse', pre.context),
  };
}

/** What the PostToolUse hooks say about a call that ran: a block's reason or their added context goes to the model. */
export async function postToolUseNote(
  tool: string,
  params: Readonly<Record<string, string>>,
  callId: string,
  outcome: ToolOutcome,
  env: ToolHookEnvironment,
): Promise<string> {
  if (!env.hooks?.PostToolUse || (outcome.kind !== 'result' && outcome.kind !== 'error')) return '';
  const response = outcome.kind === 'result' ? { output: outcome.output } : { error: outcome.error };
  const post = await runHooks(
    env.hooks,
    'PostToolUse',
    { tool_input: params, tool_response: response },
    taskHookSession(env.cwd, env.log, env.permissionMode),
    tool,
  );
  logHookRuns(env.log, 'PostToolUse', post, { tool, callId });
  for (const error of post.errors) env.host.notify('warning', error);
  if (post.blocked !== undefined) return `\n\n[A PostToolUse hook of the user says: ${post.blocked}]`;
  return contextNote('PostToolUse', post.context);
}

function contextNote(event: string, context: readonly string[]): string {
  return context.length > 0 ? `\n\n[A ${event} hook of the user adds: ${context.join('\n\n')}]` : '';
}

/** Tool parameters are text: a hook's JSON values other than strings are written as JSON. */
function stringParams(input: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
}
