import type { PlanAct } from '../../shared/plan-act.js';
import { runHooks } from '../hooks/hooks.js';
import { logHookRuns } from '../hooks/hook-log.js';
import { hookPermissionMode, taskHookSession, type HookSession } from '../hooks/hook-session.js';
import { taskEventsFile, type TaskLog } from '../log/task-log.js';
import type { MentionedContext } from './mentioned-context.js';
import { newTaskId } from './new-task-id.js';
import type { MessageSession } from './prepare-message.js';
import { policyNow, type TaskOptions } from './task-types.js';

/**
 * The user's hooks around a task's messages and its end (SessionStart, UserPromptSubmit, Stop),
 * each run logged in the task's log. Tool hooks run with the tool calls (tool-call-runner.ts).
 */
export class TaskHooks {
  /** SessionStart hooks run once per Task object: at a start, or a resume after a reload. */
  private sessionStarted = false;

  constructor(
    private readonly options: TaskOptions,
    private readonly log: TaskLog,
    private readonly mode: () => PlanAct,
  ) {}

  /**
   * The session of a task about to be created (its id chosen now, so its SessionStart and
   * UserPromptSubmit hooks get it): pass it to prepareMessage, then `taskId` to Task.create().
   */
  static newSession(options: TaskOptions, start: { mode?: PlanAct } = {}): MessageSession & { readonly sessionId: string } {
    const taskId = newTaskId();
    return {
      cwd: options.cwd,
      sessionId: taskId,
      transcriptPath: taskEventsFile(options.storageDir, taskId),
      permissionMode: hookPermissionMode(start.mode ?? 'act', policyNow(options)),
      startSource: 'startup',
    };
  }

  /** Who the hooks run for: this task, its log, its mode and approval policy. */
  session(): HookSession {
    return taskHookSession(this.options.cwd, this.log, hookPermissionMode(this.mode(), policyNow(this.options)));
  }

  /** The session for a message about to be added (prepareMessage): its SessionStart hooks first when they have not run yet. */
  messageSession(): MessageSession {
    const pending = !this.sessionStarted && this.options.hooks?.SessionStart !== undefined;
    return { ...this.session(), ...(pending ? { startSource: this.startSource() } : {}) };
  }

  /** The hooks that ran on a message, logged with it: the SessionStart ones that ran before it first, then UserPromptSubmit. */
  logPromptHooks(mentioned: MentionedContext | undefined): void {
    if (mentioned?.sessionStart) {
      this.sessionStarted = true;
      logHookRuns(this.log, 'SessionStart', { runs: mentioned.sessionStart.runs, context: [], errors: [] }, { context: mentioned.sessionStart.context });
    }
    if (mentioned?.hookRuns) logHookRuns(this.log, 'UserPromptSubmit', { runs: mentioned.hookRuns, context: [], errors: [] });
  }

  /** The SessionStart hooks when they have not run yet: what they print goes to the model with the next request. */
  async startSession(): Promise<void> {
    if (this.sessionStarted || !this.options.hooks?.SessionStart) return;
    this.sessionStarted = true;
    const outcome = await runHooks(this.options.hooks, 'SessionStart', { source: this.startSource() }, this.session());
    for (const error of outcome.errors) this.options.host.notify('warning', error);
    logHookRuns(this.log, 'SessionStart', outcome, { context: outcome.context.join('\n\n') });
  }

  /** The Stop hooks on a completion: the reason one gives for sending the model back to work (exit 2), if any. */
  async stop(result: string): Promise<string | undefined> {
    if (!this.options.hooks?.Stop) return undefined;
    const stop = await runHooks(this.options.hooks, 'Stop', { result }, this.session());
    logHookRuns(this.log, 'Stop', stop);
    for (const error of stop.errors) this.options.host.notify('warning', error);
    return stop.blocked;
  }

  private startSource(): 'startup' | 'resume' {
    return this.log.events.some((e) => e.type === 'task_resumed') ? 'resume' : 'startup';
  }
}
