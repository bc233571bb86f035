import type { PlanAct } from '../../shared/plan-act.js';
import type { AutoApprovePolicy } from '../log/approval-policy.js';

/** Claude Code's permission modes, as a hook reads them in `permission_mode`. */
export type HookPermissionMode = 'default' | 'plan' | 'acceptEdits' | 'bypassPermissions';

/**
 * The task a hook runs for: Claude Code's common input fields. `session_id` is the task's id and
 * `transcript_path` its log (`<storage>/tasks/<id>/events.jsonl`, Smith's events, one JSON object a
 * line, not Claude Code's transcript format). Absent before a task exists.
 */
export interface HookSession {
  readonly cwd: string;
  readonly sessionId?: string;
  readonly transcriptPath?: string;
  readonly permissionMode?: HookPermissionMode;
}

/**
 * Smith's Plan/Act mode and auto-approve policy in Claude Code's words: Plan mode is `plan`;
 * nothing asked at all (edits, every command, and paths outside the workspace approved) is
 * `bypassPermissions`; edits approved without asking (e.g. `--yes`, which still asks outside the
 * workspace) is `acceptEdits`; anything else `default`.
 */
export function hookPermissionMode(mode: PlanAct, policy: AutoApprovePolicy): HookPermissionMode {
  if (mode === 'plan') return 'plan';
  if (policy.editFiles && policy.allCommands && policy.mcpTools && policy.outsideWorkspace) return 'bypassPermissions';
  if (policy.editFiles) return 'acceptEdits';
  return 'default';
}

/** The common fields of a hook's JSON input. */
export function commonHookFields(session: HookSession): Record<string, string> {
  return {
    ...(session.sessionId ? { session_id: session.sessionId } : {}),
    ...(session.transcriptPath ? { transcript_path: session.transcriptPath } : {}),
    cwd: session.cwd,
    permission_mode: session.permissionMode ?? 'default',
  };
}

/** The session of a task whose log exists. */
export function taskHookSession(cwd: string, log: { readonly taskId: string; readonly file: string }, permissionMode?: HookPermissionMode): HookSession {
  return { cwd, sessionId: log.taskId, transcriptPath: log.file, ...(permissionMode ? { permissionMode } : {}) };
}
