import type { Host } from '../ports.js';
import type { TaskLog } from '../log/task-log.js';
import { logHookRuns } from './hook-log.js';
import { taskHookSession, type HookPermissionMode } from './hook-session.js';
import { runHooks, type HookSettings } from './hooks.js';

/**
 * The host with the user's Notification hooks run whenever Smith waits for them: before an
 * approval is asked and before a question is asked, in the CLI and the panel alike. A hook's
 * failure is shown and never stops the wait; without Notification hooks the host is unchanged.
 */
export function withNotificationHooks(host: Host, hooks: HookSettings | undefined, cwd: string, log: TaskLog, permissionMode?: HookPermissionMode): Host {
  if (!hooks?.Notification) return host;
  const notify = async (message: string) => {
    const outcome = await runHooks(hooks, 'Notification', { message }, taskHookSession(cwd, log, permissionMode));
    logHookRuns(log, 'Notification', outcome);
    for (const error of outcome.errors) host.notify('warning', error);
  };
  return {
    ...host,
    approvals: {
      ask: async (request, signal) => {
        await notify(`Smith needs your approval: ${request.summary}`);
        return host.approvals.ask(request, signal);
      },
    },
    questions: {
      ask: async (question, options, signal) => {
        await notify(`Smith asks: ${question}`);
        return host.questions.ask(question, options, signal);
      },
    },
  };
}
