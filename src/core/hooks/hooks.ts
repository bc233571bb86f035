import type { HookRun } from '../../shared/hook-runs.js';
import { toolEntry } from '../../shared/tool-catalogue.js';
import { runHookProcess } from './hook-process.js';
import { parseHookReply } from './hook-reply.js';
import { commonHookFields, type HookSession } from './hook-session.js';

/** When a hook runs (Claude Code's names, so existing hook settings work). */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'Notification', 'SessionStart'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run when its settings give no usable timeout (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** A hook's timeout in seconds: a positive number as given; absent, zero, negative or not a finite number, the default. */
export function hookTimeoutSeconds(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_HOOK_TIMEOUT_SECONDS;
}

/** One command to run. */
interface HookCommand {
  readonly command: string;
  /** Absent (a hook built in code rather than read from a settings file): DEFAULT_HOOK_TIMEOUT_SECONDS. */
  readonly timeoutSeconds?: number;
  /** The settings file it came from, for messages. */
  readonly source: string;
}

/** Commands for the tools whose name matches `matcher` (a regular expression; empty or `*`: every tool). */
export interface HookGroup {
  readonly matcher?: string;
  readonly hooks: readonly HookCommand[];
}

export type HookSettings = Partial<Record<HookEvent, readonly HookGroup[]>>;

/** What the hooks of one event said. */
export interface HookOutcome {
  /** A hook blocked the step (exit code 2, or a JSON block or deny decision), with its reason. */
  readonly blocked?: string;
  /** A PreToolUse hook decided the call runs unasked (`allow`) or must be asked (`ask`). */
  readonly permission?: 'allow' | 'ask';
  /** The tool's input as a PreToolUse hook changed it (`updatedInput`). */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  /** Text hooks gave the model (plain stdout of UserPromptSubmit and SessionStart, `additionalContext`). */
  readonly context: readonly string[];
  /** Hooks that failed (another exit code, a timeout) and messages hooks left for the user: shown, nothing blocked. */
  readonly errors: readonly string[];
  /** Every hook that ran, for the task log. */
  readonly runs: readonly HookRun[];
}

/**
 * Runs the hooks of an event, one after another, each a shell command that gets the event as JSON
 * on stdin: Claude Code's common fields (`session_id`, `transcript_path`, `cwd`,
 * `hook_event_name`, `permission_mode`; see hook-session.ts), Smith's `task_id`, and the event's
 * own (`tool_name`/`tool_input`/`tool_response`, `prompt`, `source`, `message`, `result`).
 * Exit 0: fine (stdout is context for UserPromptSubmit, or a JSON decision); exit 2: the step is
 * blocked and stderr says why; anything else is an error the user sees.
 */
export async function runHooks(
  settings: HookSettings | undefined,
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  session: HookSession,
  tool?: string,
): Promise<HookOutcome> {
  const cwd = session.cwd;
  const common = { ...commonHookFields(session), hook_event_name: event, ...(session.sessionId ? { task_id: session.sessionId } : {}) };
  const groups = settings?.[event] ?? [];
  // Claude Code's name for the tool (the catalogue's) too, so a matcher like `Bash|Edit` works unchanged; hooks are given that name.
  const claudeName = tool ? (toolEntry(tool)?.claudeName ?? tool) : '';
  const names = tool ? [tool, claudeName] : [];
  const commands = groups.filter((group) => matches(group.matcher, names)).flatMap((group) => group.hooks);
  const context: string[] = [];
  const errors: string[] = [];
  const runs: HookRun[] = [];
  let permission: HookOutcome['permission'];
  let updatedInput: HookOutcome['updatedInput'];
  let toolInput = input.tool_input;
  for (const hook of commands) {
    const started = Date.now();
    const payload = {
      ...common,
      ...(tool ? { tool_name: claudeName } : {}),
      ...input,
      ...(toolInput !== undefined ? { tool_input: toolInput } : {}),
    };
    const timeoutSeconds = hookTimeoutSeconds(hook.timeoutSeconds);
    const result = await runHookProcess(hook.command, JSON.stringify(payload), cwd, timeoutSeconds * 1000);
    const ran = { command: hook.command, source: hook.source, exitCode: result.code, durationMs: Date.now() - started };
    if (result.timedOut) {
      const reason = `took longer than ${timeoutSeconds} s and was stopped`;
      errors.push(`${event} hook "${hook.command}" (${hook.source}) ${reason}`);
      runs.push({ ...ran, result: 'timed_out', reason });
      continue;
    }
    const reply = result.code === 0 ? parseHookReply(result.stdout) : undefined;
    if (reply?.systemMessage) errors.push(`${event} hook "${hook.command}": ${reply.systemMessage}`);
    if (result.code === 2 || reply?.decision === 'block') {
      const reason = (result.code === 2 ? result.stderr.trim() : reply?.reason) || `blocked by the ${event} hook "${hook.command}"`;
      runs.push({ ...ran, result: 'blocked', reason });
      return { blocked: reason, context, errors, runs };
    }
    if (result.code !== 0) {
      const reason = `exited with ${result.code}${result.stderr.trim() ? `: ${result.stderr.trim()}` : ''}`;
      errors.push(`${event} hook "${hook.command}" (${hook.source}) ${reason}`);
      runs.push({ ...ran, result: 'failed', reason });
      continue;
    }
    const added = reply ? reply.additionalContext : result.stdout.trim() || undefined;
    // Plain stdout is context where Claude Code reads it so; after a tool call it is only logged.
    const addsContext = added !== undefined && (reply !== undefined || event === 'UserPromptSubmit' || event === 'SessionStart');
    if (addsContext) context.push(added);
    if (reply?.updatedInput && event === 'PreToolUse') toolInput = updatedInput = reply.updatedInput;
    // The most careful decision wins: one hook's ask is not overridden by another's allow.
    if (reply?.decision === 'ask' || (reply?.decision === 'allow' && permission !== 'ask')) permission = reply.decision;
    const settled = reply?.decision === 'allow' ? 'allowed' : reply?.decision === 'ask' ? 'ask' : 'ok';
    runs.push({
      ...ran,
      result: settled,
      ...(reply?.reason ? { reason: reply.reason } : {}),
      ...(reply?.updatedInput && event === 'PreToolUse' ? { changedInput: true } : {}),
      ...(addsContext ? { addedContext: true } : {}),
    });
  }
  return { context, errors, runs, ...(permission ? { permission } : {}), ...(updatedInput ? { updatedInput } : {}) };
}

function matches(matcher: string | undefined, names: readonly string[]): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    const regex = new RegExp(`^(?:${matcher})$`);
    return names.some((name) => regex.test(name));
  } catch {
    return names.includes(matcher);
  }
}
