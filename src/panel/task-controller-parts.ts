import type { Host } from '../core/ports.js';
import type { WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import type { TaskOutcome } from '../core/task/task.js';
import { TotalCostLimit } from '../core/log/total-cost-limit.js';
import { usageTotals } from '../core/log/usage-totals.js';
import { HeldTasks } from './held-tasks.js';
import { ListRequests } from './list-requests.js';
import { LiveTasks } from './live-task.js';
import type { PanelImage } from './message-context.js';
import { OpenTaskActions } from './open-task-actions.js';
import { eventsOf, type OpenTask } from './open-task.js';
import type { PanelChange } from './panel-changes.js';
import { PanelLists } from './panel-lists.js';
import { PanelModes, type ModeTrust } from './panel-modes.js';
import type { CheckpointViews, EditReview, McpPanelSource, PanelProviderSettings } from './panel-ports.js';
import { SetupWait } from './setup-wait.js';
import { StoredTasks } from './stored-tasks.js';
import { SubagentChats } from './subagent-chats.js';
import { TaskConversation } from './task-conversation.js';
import { TaskLifecycle } from './task-lifecycle.js';
import { TaskWorktrees } from './task-worktrees.js';
import { ViewRequests } from './view-requests.js';
import type { WebviewInteractions } from './webview-interactions.js';

/** What the controller is built from: the editor's parts as ports (see panel-ports.ts). */
export interface TaskControllerDeps {
  readonly storageDir: string;
  /** The folder tasks work in; undefined when no folder is open. */
  readonly cwd: () => string | undefined;
  /** The other folders of a multi-root workspace (inside the boundary; mentions reach them). */
  readonly additionalRoots?: () => readonly WorkspaceFolderInput[];
  readonly host: Host;
  readonly settings: PanelProviderSettings;
  readonly interactions: WebviewInteractions;
  readonly edits: EditReview;
  /** The window's MCP servers: shown in the panel's MCP view (tasks get them from the settings port). */
  readonly mcp?: McpPanelSource;
  /** Where an exported task goes (in VS Code: a save dialog). */
  readonly saveExport: (suggestedName: string, markdown: string) => Promise<void>;
  /** Where checkpoints are compared, and how a restore asks before overwriting the user's changes. */
  readonly checkpointViews: CheckpointViews;
  /** Whether the workspace's mode files may be used, and what to do when they are held back (panel-modes.ts); absent: they are used. */
  readonly modeTrust?: ModeTrust;
}

/** What the parts call back into the controller for: the changes it routes to the webviews, and what it decides itself. */
interface ControllerCalls {
  readonly emit: (change: PanelChange) => void;
  /** A run of a held task ended (shown or not). */
  readonly ended: (outcome: TaskOutcome, open: OpenTask) => void;
  /** A message with no task to go to starts one. */
  readonly newTask: (typed: string, images: readonly PanelImage[]) => Promise<void>;
  /** Runs `typed` when it is a panel command; undefined when it is not one. */
  readonly runCommand: (typed: string) => Promise<void> | undefined;
  /** Reads the rules list again for the shown task (its mode and files). */
  readonly readRules: () => void;
}

/** The parts the TaskController routes between, each with one job (see its file). */
export interface TaskControllerParts {
  readonly tasks: HeldTasks;
  readonly views: ViewRequests;
  readonly stored: StoredTasks;
  readonly setup: SetupWait;
  readonly modes: PanelModes;
  readonly lists: PanelLists;
  readonly subagentChats: SubagentChats;
  readonly live: LiveTasks;
  readonly lifecycle: TaskLifecycle;
  readonly actions: OpenTaskActions;
  readonly conversation: TaskConversation;
  readonly listRequests: ListRequests;
}

/**
 * Builds the controller's parts from the editor's ports and wires them to each other. Building only
 * wires: the controller subscribes, refreshes the setup and loads the history once it holds them.
 * A part that needs one built after it (live tasks and the lifecycle need each other) reaches it lazily.
 */
export function buildTaskControllerParts(deps: TaskControllerDeps, calls: ControllerCalls): TaskControllerParts {
  const { emit } = calls;
  const emitState = () => emit({ kind: 'state' });
  const tasks = new HeldTasks(deps.interactions);
  const views = new ViewRequests();
  const worktrees = new TaskWorktrees({
    settings: () => deps.settings.worktreeSettings?.() ?? {},
    views: deps.checkpointViews,
    notify: (level, message) => deps.host.notify(level, message),
    changed: () => emit({ kind: 'tasks' }),
  });
  const actions = new OpenTaskActions({
    host: deps.host,
    checkpointViews: deps.checkpointViews,
    live: () => live,
    current: () => tasks.shown,
    emit,
    historyChanged: () => stored.changed(),
  });
  const stored = new StoredTasks(deps.storageDir, (message) => deps.host.notify('warning', message));
  const subagentChats = new SubagentChats(deps.storageDir);
  const lists = new PanelLists({
    storageDir: deps.storageDir,
    cwd: deps.cwd,
    ...(deps.additionalRoots ? { additionalRoots: deps.additionalRoots } : {}),
    settings: deps.settings,
    mcp: () => deps.mcp?.hub,
  });
  const listRequests = new ListRequests({ lists, settings: deps.settings, readRules: calls.readRules, emitState });
  const live: LiveTasks = new LiveTasks({
    host: deps.host,
    edits: deps.edits,
    interactions: deps.interactions,
    createEnvironment: (asks, open) => lifecycle.createEnvironment(asks, {}, open.worktree, usageTotals(eventsOf(open)).cost),
    shown: () => tasks.shown,
    holds: (open) => tasks.holds(open),
    follow: (previous, next) => tasks.replace(previous, next),
    emit,
    historyChanged: () => stored.changed(),
    ended: calls.ended,
  });
  const modes = new PanelModes({
    storageDir: deps.storageDir,
    cwd: deps.cwd,
    ...(deps.additionalRoots ? { additionalRoots: deps.additionalRoots } : {}),
    ...(deps.modeTrust ? { trust: deps.modeTrust } : {}),
    notify: (message) => deps.host.notify('warning', message),
    shown: () => tasks.shown,
    emitState,
  });
  const lifecycle: TaskLifecycle = new TaskLifecycle({
    storageDir: deps.storageDir,
    cwd: deps.cwd,
    ...(deps.additionalRoots ? { additionalRoots: deps.additionalRoots } : {}),
    settings: deps.settings,
    interactions: deps.interactions,
    edits: deps.edits,
    tasks,
    live: () => live,
    stored,
    worktrees,
    modes,
    views,
    totalCost: new TotalCostLimit(() => deps.settings.maxTotalCost?.()),
    emit,
  });
  const setup = new SetupWait({
    settings: deps.settings,
    views,
    emitState,
    notifyError: (message) => deps.host.notify('error', message),
    start: (text, options) => lifecycle.start(text, [], options),
    settingsChanged: () => lifecycle.settingsChanged(),
  });
  const conversation = new TaskConversation({
    storageDir: deps.storageDir,
    cwd: deps.cwd,
    host: deps.host,
    tasks,
    live,
    interactions: deps.interactions,
    views: deps.checkpointViews,
    lists,
    emitState,
    newTask: calls.newTask,
    runCommand: calls.runCommand,
  });
  return { tasks, views, stored, setup, modes, lists, subagentChats, live, lifecycle, actions, conversation, listRequests };
}
