// One run of a user's hook, as the task log keeps it and the chat and the terminal show it.

/** How one hook run ended. */
type HookRunResult = 'ok' | 'blocked' | 'allowed' | 'ask' | 'failed' | 'timed_out';

/** One hook command that ran: what it was, where it came from, how it ended and what it said. */
export interface HookRun {
  readonly command: string;
  /** The settings file (or setting) it came from. */
  readonly source: string;
  readonly result: HookRunResult;
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** The hook's reason (a block, a decision) or its error. */
  readonly reason?: string;
  /** It changed the tool's input (PreToolUse `updatedInput`). */
  readonly changedInput?: boolean;
  /** It added context for the model. */
  readonly addedContext?: boolean;
}

const RESULT_WORDS: Readonly<Record<HookRunResult, string>> = {
  ok: 'ran',
  blocked: 'blocked',
  allowed: 'allowed',
  ask: 'asked for approval of',
  failed: 'failed on',
  timed_out: 'timed out on',
};

/** One line for a hook run: `PreToolUse hook "./check.sh" blocked Bash: not on main`. */
export function hookRunLine(event: string, tool: string | undefined, run: HookRun): string {
  const what = run.result === 'ok' ? `ran${tool ? ` for ${tool}` : ''}` : `${RESULT_WORDS[run.result]}${tool ? ` ${tool}` : ' the step'}`;
  const extras = [run.changedInput ? 'changed the input' : '', run.addedContext ? 'added context' : ''].filter(Boolean).join(', ');
  return `${event} hook "${run.command}" ${what}${extras ? ` (${extras})` : ''}${run.reason ? `: ${run.reason}` : ''}`;
}

/** Whether the chat shows a run: a decision, a change or a failure; a quiet success is only logged. */
export function isNoteworthyHookRun(run: HookRun): boolean {
  return run.result !== 'ok' || run.changedInput === true || run.addedContext === true;
}
