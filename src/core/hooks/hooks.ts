import { spawn } from 'node:child_process';

/** When a hook runs (Claude Code's names, so existing hook settings work). */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'Notification', 'SessionStart'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One command to run. */
export interface HookCommand {
  readonly command: string;
  readonly timeoutSeconds: number;
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
  /** A hook blocked the step (exit code 2, or `{"decision":"block"}` on stdout), with its reason. */
  readonly blocked?: string;
  /** Text hooks printed for the model (UserPromptSubmit: added to the prompt as context). */
  readonly context: readonly string[];
  /** Hooks that failed otherwise (another exit code, a timeout): shown to the user, nothing is blocked. */
  readonly errors: readonly string[];
}

/** Claude Code's tool names for Smith's tools, so a matcher like `Bash|Edit` works unchanged. */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  execute_command: 'Bash',
  read_file: 'Read',
  write_to_file: 'Write',
  replace_in_file: 'Edit',
  list_files: 'LS',
  search_files: 'Grep',
};

/**
 * Runs the hooks of an event, one after another, each a shell command that gets the event as JSON
 * on stdin (`hook_event_name`, `cwd`, `task_id`, and `tool_name`/`tool_input`/`tool_response` or
 * `prompt`). Exit 0: fine (stdout is context for UserPromptSubmit, or a JSON decision); exit 2:
 * the step is blocked and stderr says why; anything else is an error the user sees.
 */
export async function runHooks(settings: HookSettings | undefined, event: HookEvent, input: Readonly<Record<string, unknown>>, cwd: string, tool?: string): Promise<HookOutcome> {
  const groups = settings?.[event] ?? [];
  const names = tool ? [tool, CLAUDE_NAMES[tool] ?? tool] : [];
  const commands = groups.filter((group) => matches(group.matcher, names)).flatMap((group) => group.hooks);
  const context: string[] = [];
  const errors: string[] = [];
  for (const hook of commands) {
    const result = await runOne(hook, { hook_event_name: event, cwd, ...(tool ? { tool_name: CLAUDE_NAMES[tool] ?? tool } : {}), ...input }, cwd);
    if (result.timedOut) {
      errors.push(`${event} hook "${hook.command}" (${hook.source}) took longer than ${hook.timeoutSeconds} s and was stopped`);
      continue;
    }
    const decision = jsonDecision(result.stdout);
    if (result.code === 2 || decision?.decision === 'block') {
      return { blocked: (decision?.reason ?? result.stderr.trim()) || `blocked by the ${event} hook "${hook.command}"`, context, errors };
    }
    if (result.code !== 0) {
      errors.push(`${event} hook "${hook.command}" (${hook.source}) exited with ${result.code}${result.stderr.trim() ? `: ${result.stderr.trim()}` : ''}`);
      continue;
    }
    if (!decision && result.stdout.trim() !== '') context.push(result.stdout.trim());
  }
  return { context, errors };
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

function jsonDecision(stdout: string): { decision?: string; reason?: string } | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const data = JSON.parse(text) as { decision?: unknown; reason?: unknown };
    return { ...(typeof data.decision === 'string' ? { decision: data.decision } : {}), ...(typeof data.reason === 'string' ? { reason: data.reason } : {}) };
  } catch {
    return undefined;
  }
}

/** Output a hook may print before it is cut (a hook is not meant to stream logs). */
const MAX_OUTPUT = 64 * 1024;

function runOne(hook: HookCommand, input: Record<string, unknown>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', hook.command], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, SMITH_PROJECT_DIR: cwd, CLAUDE_PROJECT_DIR: cwd } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(0, MAX_OUTPUT)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(0, MAX_OUTPUT)));
    // The whole process group ends on a timeout, so a hook cannot leave a child running.
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, hook.timeoutSeconds * 1000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 127, stdout, stderr: `${stderr}${error.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => {}); // a hook that does not read its input is fine
    child.stdin.end(JSON.stringify(input));
  });
}
