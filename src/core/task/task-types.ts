// The task's contract with its host: what it is given, what a run ends with, what it streams.
import type { ContextLimits, ContextPolicy } from '../context/context-window.js';
import type { ExpandedMessage } from '../context/mentions.js';
import type { WorkspaceCheckpoints } from '../checkpoints/workspace-checkpoints.js';
import type { HookSettings } from '../hooks/hooks.js';
import type { Host } from '../ports.js';
import type { ModelInfo } from '../providers/model-catalog.js';
import type { RetryOptions } from '../providers/retrying-provider.js';
import type { ApiProvider } from '../providers/types.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import type { ToolRegistry } from '../tool-kit/tool-registry.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import type { EditScope } from '../permissions/edit-scope.js';
import type { AutoApprovePolicy } from '../log/approval-policy.js';
import type { TaskEvent } from '../log/events.js';
import type { FileVersions } from '../log/file-stamp.js';
import type { CostBudget } from '../log/cost-budget.js';
import type { SharedCosts } from '../log/total-cost-limit.js';
import type { TurnDelta } from './model-turn.js';
import type { TurnInputs } from './turn-setup.js';
import type { TaskWorktree } from '../worktrees/worktree-types.js';

/** Everything a task needs from its host application. */
export interface TaskOptions extends TurnInputs {
  readonly storageDir: string;
  /** The git worktree `cwd` is in, when the task was given one of its own (recorded in task_started). */
  readonly worktree?: TaskWorktree;
  readonly host: Host;
  readonly tools: ToolRegistry;
  /** A function is read before each tool call, so a change of the user's settings applies at once. */
  readonly policy: AutoApprovePolicy | (() => AutoApprovePolicy);
  readonly maxIterations: number;
  /** US dollars a run may cost before Smith stops and asks (needs the model's prices). */
  readonly maxCost?: number;
  /** A cost limit shared with other tasks running beside this one (the panel's total limit); its sub-agents spend from it too. */
  readonly sharedCosts?: SharedCosts;
  readonly maxConsecutiveMistakes?: number;
  /** The model that writes summaries when the history is condensed (another model or profile); absent: the turn's own. */
  readonly condenseProvider?: ApiProvider;
  /** Identical calls in a row after which the model is told it repeats itself, and then the user asked (default 3; 0: never). */
  readonly maxRepeatedCalls?: number;
  /** The workspace's .smithignore rules (default: nothing ignored). */
  readonly ignore?: IgnorePolicy;
  /** A capped listing of the workspace for the first request. */
  listWorkspace?(): Promise<string>;
  /**
   * Waits before each request for tools still starting (MCP servers making their first
   * connection), each no longer than its own timeout; the request then goes on without them.
   */
  waitForTools?(signal: AbortSignal): Promise<void>;
  /** Extra environment-detail sections for each request (visible files, running commands). */
  environmentSections?(): readonly string[];
  /** The model's window (default: from modelInfo); without either, no condensing or truncation happens. */
  readonly contextLimits?: ContextLimits;
  /** What is known of a provider's model: window, output limit, prices. Undefined when unknown. */
  modelInfo?(provider: ApiProvider): ModelInfo | undefined;
  /** How failed requests are retried (default: 3 retries, exponential backoff from 1 s). */
  readonly retry?: Omit<RetryOptions, 'onRetry' | 'restartMidStream'>;
  readonly contextPolicy?: ContextPolicy;
  /** Sees every appended event (e.g. to track edited files). */
  onEvent?(event: TaskEvent): void;
  /** The user's secrets, kept out of the log, the model's requests and the UI's streamed output. */
  readonly redactor?: SecretRedactor;
  /** The time limit of a command preview (docs/command-preview.md; default 30 s). */
  readonly commandPreviewTimeoutSeconds?: number;
  /** The user's hooks (docs/permissions.md#hooks). */
  readonly hooks?: HookSettings;
  /** The workspace's checkpoint store; without one, no checkpoints are taken. */
  readonly checkpoints?: WorkspaceCheckpoints;
  /**
   * Where the contents the task read and wrote are kept, so an edit of a file changed since can be
   * merged, for a task without a checkpoint store of its own (a sub-agent keeps them in its
   * parent's). With `checkpoints`, its store's are used.
   */
  readonly fileVersions?: FileVersions;
  /** A sub-agent's declared paths: its edits anywhere else are refused (edit-scope.ts). */
  readonly editScope?: EditScope;
  /** Expands the @-mentions of a message queued while the task worked, when it is delivered. */
  expandMentions?(text: string): Promise<ExpandedMessage>;
}

/** What a run counts against: the limits it shares with the tasks before it in a chain and the task that started it. */
export interface RunBudget {
  /** Requests made by the tasks that handed over to this one (new_task). */
  readonly iterationsUsed?: number;
  /** The cost budget shared with the rest of the tree (cost-budget.ts). */
  readonly costs?: CostBudget;
  /** The logs of the tasks that handed over to this one, oldest first: a run of repeated calls goes on across the hand-over. */
  readonly handedOverFrom?: readonly TaskEvent[];
}

/** How a run of the loop ended. */
export type TaskOutcome =
  | { readonly status: 'completed'; readonly result: string; readonly command?: string }
  | { readonly status: 'new_task'; readonly context: string }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'aborted' };

/** Transient updates for a UI: appended events plus streaming output that is never logged. */
export type TaskUpdate =
  | { readonly type: 'event'; readonly event: TaskEvent }
  | { readonly type: 'delta'; readonly delta: TurnDelta }
  | { readonly type: 'progress'; readonly callId: string; readonly text: string }
  /** A failed request will be retried after a wait the UI shows ("retrying in 4 s, attempt 2/3"). */
  | { readonly type: 'retry'; readonly attempt: number; readonly maxRetries: number; readonly delayMs: number; readonly reason: string };

/** The auto-approve policy in force now (a function is read each time, so a settings change applies at once). */
export function policyNow(options: Pick<TaskOptions, 'policy'>): AutoApprovePolicy {
  return typeof options.policy === 'function' ? options.policy() : options.policy;
}
