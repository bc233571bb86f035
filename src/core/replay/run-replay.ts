// `smith replay`: runs a stored task's messages again, with another model or settings, in a
// scratch copy of the workspace as the task found it, and compares the two runs.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectCheckpointStore } from '../checkpoints/checkpoint-gc.js';
import { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { latestRoots } from '../checkpoints/rewind-task.js';
import type { Host } from '../ports.js';
import type { ModelInfoOverrides } from '../providers/model-catalog.js';
import type { ApiProvider } from '../providers/types.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import { loadPermissionSettings } from '../permissions/settings-files.js';
import { openSession } from '../session/open-session.js';
import { DEFAULT_POLICY, type AutoApprovePolicy } from '../log/approval-policy.js';
import { readTaskEvents, taskDir } from '../log/task-log.js';
import { newTaskId } from '../task/new-task-id.js';
import { Task } from '../task/task.js';
import type { ToolGroup } from '../../shared/tool-catalogue.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';
import { ReplayApprovals, ReplayQuestions } from './replay-answers.js';
import { ReplayError, type ReplayPlan, replayPlan } from './replay-plan.js';
import type { TaskEvent } from '../log/events.js';
import { foldersDiff, runSummary, type RunSummary } from './run-summary.js';
import { materializeCheckpoint, replaceWorkspaceRules } from './scratch-workspace.js';
import { KEPT_REPLAYS, pruneReplays } from './prune-replays.js';
import { WorkspaceCheckpoints } from '../checkpoints/workspace-checkpoints.js';
import { type ReplayCommands, replayCommands } from './replay-commands.js';

/** What a replay changes against the original run; everything else is as the original had it. */
export interface ReplaySettings {
  /** The model to replay with, chosen knowing the original's (e.g. the same provider with another model). */
  provider(original: { readonly provider: string; readonly model: string }): ApiProvider;
  /** Another mode for the whole run (default: the original's). */
  readonly modeSlug?: string;
  /** A rules file's text, put in place of the workspace's `.smithrules`. */
  readonly rules?: string;
  readonly maxIterations: number;
  readonly modelOverrides?: ModelInfoOverrides;
  /**
   * Run the model's commands even where no sandbox can confine them to the scratch copy
   * (`--run-commands-unconfined`); without it such a replay runs no command.
   */
  readonly runCommandsUnconfined?: boolean;
}

/** One replay to run. */
interface ReplayInput {
  readonly storageDir: string;
  readonly taskId: string;
  readonly settings: ReplaySettings;
  /** The host's files, processes, ripgrep, clock and notices; approvals and answers come from the original run. */
  readonly host: Omit<Host, 'approvals' | 'questions'>;
  readonly redactor?: SecretRedactor;
  readonly signal?: AbortSignal;
  /** Sees the replay's task before it runs (to show its progress). */
  onTask?(task: Task): void;
}

/** The two runs side by side; also written as `comparison.json` in the replay's folder. */
export interface ReplayComparison {
  readonly replayId: string;
  /** The original task's first message. */
  readonly task: string;
  /** The replay's folder: its scratch workspace, its task log and this comparison. */
  readonly folder: string;
  /** The scratch copy of the workspace the replay worked in. */
  readonly workspace: string;
  /** The scratch copies of a multi-root workspace's other folders, by the names the task used. */
  readonly otherFolders?: readonly { readonly name: string; readonly path: string }[];
  /** How the replay's commands ran: `sandboxed` (see replayCommands), `not run` or `unconfined`. */
  readonly commands: ReplayCommands['mode'];
  readonly original: RunSummary;
  readonly replay: RunSummary;
}

/** Nothing runs without asking, so every call reaches ReplayApprovals, which answers as the user did. */
const ASK_EVERYTHING: AutoApprovePolicy = { ...DEFAULT_POLICY, readFiles: false };

/** The folder holding a storage's replays. */
function replaysDir(storageDir: string): string {
  return join(storageDir, 'replays');
}

/** What a replay reads of the original run: its log, the plan made of it, and its workspace's checkpoints. */
interface ReplaySource {
  readonly events: readonly TaskEvent[];
  readonly plan: ReplayPlan;
  readonly store: CheckpointStore;
  /** The stores of a multi-root workspace's other folders, in the order of `plan.startFolders`. */
  readonly folderStores: readonly CheckpointStore[];
}

/** Reads a stored task for a replay; throws ReplayError saying why when it cannot be replayed. */
export function readReplaySource(storageDir: string, taskId: string): ReplaySource {
  // The id names a folder under the storage: never a path that leads out of it.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(taskId)) throw new ReplayError(`"${taskId}" is not a task id`);
  if (!existsSync(join(taskDir(storageDir, taskId), 'events.jsonl'))) throw new ReplayError(`No task with id "${taskId}" in ${storageDir}`);
  const events = readTaskEvents(storageDir, taskId);
  const plan = replayPlan(events);
  const store = inspectCheckpointStore(storageDir, plan.cwd);
  if (!store?.objects.has(plan.startRoot))
    throw new ReplayError(`the checkpoints of task ${plan.taskId} are no longer stored (its workspace's checkpoint storage was removed)`);
  const folderStores = plan.startFolders.map((folder) => {
    const folderStore = inspectCheckpointStore(storageDir, folder.path);
    if (!folderStore?.objects.has(folder.root))
      throw new ReplayError(`the checkpoints of task ${plan.taskId}'s folder "${folder.name}" (${folder.path}) are no longer stored`);
    return folderStore;
  });
  return { events, plan, store, folderStores };
}

/**
 * Replays a stored task (see docs/replay.md): rebuilds its first checkpoint in a scratch folder
 * under `<storage>/replays/<id>/`, sends the user's messages again in order with the given
 * settings, approving only what the original run approved, and compares the runs. The user's
 * workspace and the original log are only read.
 */
export async function replayTask(input: ReplayInput): Promise<ReplayComparison> {
  const { events: originalEvents, plan, store: originalStore, folderStores } = readReplaySource(input.storageDir, input.taskId);
  const last = latestRoots(originalEvents);
  const original = runSummary(
    originalEvents,
    foldersDiff([
      { store: originalStore, before: plan.startRoot, after: last?.root ?? plan.startRoot },
      ...plan.startFolders.map((folder, index) => ({
        store: folderStores[index]!,
        before: folder.root,
        after: last?.folders?.find((f) => f.path === folder.path)?.root ?? folder.root,
        prefix: `${folder.name}/`,
      })),
    ]),
  );

  // Said before anything starts: whether the replay's commands are confined to the scratch copy.
  const commands = await replayCommands(input.settings.runCommandsUnconfined === true, input.host.processes);
  input.host.notify(commands.mode === 'sandboxed' ? 'info' : 'warning', commands.notice);
  const replayId = newTaskId(input.host.clock.now());
  // Wall time, as the folders' own times are.
  pruneReplays(replaysDir(input.storageDir), Date.now(), KEPT_REPLAYS - 1);
  const folder = join(replaysDir(input.storageDir), replayId);
  const workspace = join(folder, 'workspace');
  materializeCheckpoint(originalStore, plan.startRoot, workspace);
  // Another folder's copy is named as the task named it, wherever it lies.
  const otherFolders = plan.startFolders.map((other, index) => ({ name: other.name, path: join(folder, 'folders', String(index)) }));
  for (const [index, other] of plan.startFolders.entries()) materializeCheckpoint(folderStores[index]!, other.root, otherFolders[index]!.path);
  if (input.settings.rules !== undefined) replaceWorkspaceRules(workspace, input.settings.rules);

  const questions = new ReplayQuestions(plan.answers);
  // The tools are known once the environment exists; the approvals need their groups.
  let groupOf: (tool: string) => ToolGroup | undefined = () => undefined;
  const environment = await openSession({
    // The user's modes, rules and model facts; the replay's own log and checkpoints go to its folder below.
    place: { cwd: workspace, additionalRoots: otherFolders, storageDir: input.storageDir },
    providers: { main: input.settings.provider({ provider: plan.provider, model: plan.model }) },
    settings: {
      policy: ASK_EVERYTHING,
      maxIterations: input.settings.maxIterations,
      ...(input.settings.modelOverrides ? { modelOverrides: input.settings.modelOverrides } : {}),
      checkpoints: { enabled: false },
      // The deny and ask rules of the user's and the workspace's settings hold in a replay too (an ask is
      // answered as the original run answered); allow rules
      // and hooks do not apply: the replay approves only what the original run approved, and runs nothing else.
      permissions: loadPermissionSettings({ storageDir: input.storageDir, workspaceRoot: workspace, trust: () => 'denied' }).rules.filter(
        (rule) => rule.effect !== 'allow',
      ),
      ...(commands.sandbox ? { sandbox: commands.sandbox } : {}),
    },
    ports: {
      host: { ...input.host, processes: commands.processes, approvals: new ReplayApprovals(plan, (tool) => groupOf(tool)), questions },
      ...(input.redactor ? { redactor: input.redactor } : {}),
    },
  });
  try {
    groupOf = (tool) => environment.options.tools.get(tool)?.spec.group;
    const modeSlug = input.settings.modeSlug ?? plan.modeSlug;
    if (!environment.modes.modes.some((s) => s.slug === modeSlug))
      throw new ReplayError(`unknown mode "${modeSlug}"; available: ${environment.modes.modes.map((s) => s.slug).join(', ')}`);
    const ignore = environment.options.ignore ?? NOTHING_IGNORED;
    const store = new CheckpointStore({ storageDir: folder, workspaceRoot: workspace, ignore });
    const checkpoints = new WorkspaceCheckpoints(
      store,
      otherFolders.map((other) => ({ ...other, store: new CheckpointStore({ storageDir: folder, workspaceRoot: other.path, ignore }) })),
    );
    const start = await checkpoints.snapshot();
    const options = { ...environment.options, storageDir: folder, checkpoints };
    const [first, ...later] = plan.messages;
    const task = Task.create(options, first.text, { mode: first.mode, modeSlug, ...(first.mentioned ? { mentioned: first.mentioned } : {}) });
    input.onTask?.(task);
    const stop = () => task.abort();
    input.signal?.addEventListener('abort', stop, { once: true });
    try {
      await task.run();
      for (const message of later) {
        if (input.signal?.aborted) break;
        task.switchMode(message.mode);
        task.addUserMessage(message.text, message.mentioned);
        await task.run();
      }
    } finally {
      input.signal?.removeEventListener('abort', stop);
    }
    const end = await checkpoints.snapshot();
    checkpoints.flushStatCache();
    const comparison: ReplayComparison = {
      replayId,
      task: first.text,
      folder,
      workspace,
      ...(otherFolders.length > 0 ? { otherFolders } : {}),
      commands: commands.mode,
      original,
      replay: runSummary(
        task.log.events,
        foldersDiff([
          { store, before: start.root, after: end.root },
          ...checkpoints.others.map((other, index) => ({
            store: other.store,
            before: start.folders[index]!.root,
            after: end.folders[index]!.root,
            prefix: `${other.name}/`,
          })),
        ]),
      ),
    };
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
    return comparison;
  } finally {
    await environment.dispose();
  }
}
