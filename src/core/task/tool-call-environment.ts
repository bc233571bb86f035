import type { CostBudget } from '../log/cost-budget.js';
import type { FileVersions } from '../log/file-stamp.js';
import type { TaskLog } from '../log/task-log.js';
import { hookPermissionMode } from '../hooks/hook-session.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';
import type { ToolCallEnvironment } from './tool-call-runner.js';
import type { TurnSetup } from './turn-setup.js';
import { policyNow, type TaskOptions } from './task-types.js';

/** What one run of the loop lends the tool calls of a turn. */
export interface RunForTools {
  readonly signal: AbortSignal;
  readonly detachable: Map<string, AbortController>;
  readonly modelSupportsImages: boolean;
  readonly costs?: CostBudget;
  onProgress(callId: string, text: string): void;
}

/** The environment the tool calls of one turn run in: the task's options, the turn's mode, skill and tools, the run's signal and budget. */
export function toolCallEnvironment(options: TaskOptions, log: TaskLog, setup: TurnSetup, run: RunForTools): ToolCallEnvironment {
  const policy = policyNow(options);
  const fileVersions = fileVersionsOf(options);
  return {
    log,
    tools: options.tools,
    host: options.host,
    cwd: options.cwd,
    ...(options.workspace ? { workspace: options.workspace } : {}),
    policy,
    permissionMode: hookPermissionMode(setup.mode, policy),
    ignore: options.ignore ?? NOTHING_IGNORED,
    allowedTools: setup.allowedTools,
    activeMode: setup.activeMode,
    ...(setup.activeSkill ? { activeSkill: setup.activeSkill } : {}),
    modelSupportsImages: run.modelSupportsImages,
    signal: run.signal,
    detachable: run.detachable,
    ...(options.permissions ? { permissions: options.permissions } : {}),
    ...(options.editScope ? { editScope: options.editScope } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(run.costs ? { costs: run.costs } : {}),
    // Commands are previewed on a copy of the task's folder (docs/command-preview.md).
    commandPreview: {
      root: options.cwd,
      ignore: options.ignore ?? NOTHING_IGNORED,
      ...(options.redactor ? { redactor: options.redactor } : {}),
      ...(options.commandPreviewTimeoutSeconds !== undefined ? { timeoutSeconds: options.commandPreviewTimeoutSeconds } : {}),
    },
    ...(fileVersions ? { fileVersions } : {}),
    onProgress: (callId, text) => run.onProgress(callId, text),
  };
}

/** Where the task's read and written contents are kept: its checkpoint store, or what it was given (a sub-agent: its parent's). */
export function fileVersionsOf(options: Pick<TaskOptions, 'checkpoints' | 'fileVersions'>): FileVersions | undefined {
  return options.checkpoints?.primary.versions ?? options.fileVersions;
}
