import { openWorkspaceCheckpoints } from '../core/checkpoints/open-checkpoint-store.js';
import { checkpointFoldersOfTask } from '../core/log/task-snapshots.js';
import type { WorkspaceCheckpoints } from '../core/checkpoints/workspace-checkpoints.js';
import { type CheckpointInfo, listCheckpoints, type RewindOutcome, type RewindScope, rewindTask } from '../core/checkpoints/rewind-task.js';
import type { TaskEvent } from '../core/log/events.js';
import { TaskLog } from '../core/log/task-log.js';
import { loadWorkspaceIgnore } from '../core/workspace/smith-ignore.js';
import { WorkspaceRoots } from '../core/workspace/workspace-roots.js';
import { parseFlags, taskIdArgument, UsageError } from './usage-error.js';
import { defaultStorageDir } from './default-storage.js';
import { reportInterruptedRestores } from './restore-recovery.js';
import type { Style } from './style.js';

const CHECKPOINT_USAGE = `smith checkpoints TASK_ID [--output json] [--storage DIR]
smith rewind TASK_ID CHECKPOINT_ID [--files-only | --conversation-only] [--force] [--storage DIR]`;

/** What `smith checkpoints --help` and `smith rewind --help` print. */
const CHECKPOINT_HELP = `Usage: ${CHECKPOINT_USAGE}

smith checkpoints lists a stored task's checkpoints (id, time, files changed); --output json
prints them as a JSON array.
smith rewind restores the workspace files and the conversation to a checkpoint:
  --files-only          restore the files only
  --conversation-only   end the conversation at the checkpoint, leave the files
  --force               restore even files changed after the task's last checkpoint
  --storage DIR         where task logs are kept (default: a per-user folder)
Continue a rewound task with: smith --resume TASK_ID "your message". See docs/checkpoints.md.`;

/** One checkpoint in `smith checkpoints --output json`. */
interface CheckpointJson {
  readonly id: string;
  /** The position in the task log of the step it follows. */
  readonly step: number;
  readonly time: string;
  readonly filesChanged: readonly string[];
  readonly changedCount: number;
  readonly skipped: CheckpointInfo['skipped'];
}

/** The checkpoints as `--output json` prints them. */
function checkpointsJson(events: readonly TaskEvent[]): CheckpointJson[] {
  return listCheckpoints(events).map((c) => ({
    id: c.id,
    step: c.afterSeq,
    time: new Date(c.ts).toISOString(),
    filesChanged: c.changed,
    changedCount: c.changedCount,
    skipped: c.skipped,
  }));
}

/** The checkpoints as a table for people. */
export function formatCheckpoints(events: readonly TaskEvent[], style: Style): string {
  const checkpoints = listCheckpoints(events);
  if (checkpoints.length === 0) return 'This task has no checkpoints (they are off, or nothing has run yet).';
  return checkpoints
    .map((c) => {
      const time = new Date(c.ts).toISOString().replace('T', ' ').slice(0, 19);
      const files = c.id === '0' ? 'the workspace when the task began' : describeFiles(c);
      const skipped = c.skipped.length > 0 ? style.yellow(`  not kept: ${style.text(c.skipped.map((s) => `${s.path} (${s.reason})`).join(', '))}`) : '';
      return `${style.bold(c.id.padStart(3))}  ${style.dim(time)}  ${style.text(files)}${skipped}`;
    })
    .join('\n');
}

/** What a rewind did, in words; `force` names the flag that overrides a conflict. */
export function describeRewind(outcome: RewindOutcome, checkpointId: string, scope: RewindScope, style: Style, force: string): string {
  if (outcome.kind === 'conflicts') {
    return style.red(
      `Nothing was restored: these files changed after the task's last checkpoint and would be overwritten:\n${outcome.files.map((f) => `  ${style.text(f)}`).join('\n')}\nUse ${force} to restore anyway.`,
    );
  }
  const lines: string[] = [];
  if (scope !== 'conversation') {
    const changed = outcome.restored.length + outcome.deleted.length;
    lines.push(
      changed === 0
        ? `The files already matched checkpoint ${checkpointId}.`
        : `Restored the files of checkpoint ${checkpointId}: ${[...outcome.restored, ...outcome.deleted.map((f) => `${f} (removed)`)].map(style.text).join(', ')}.`,
    );
    for (const failure of outcome.failures) lines.push(style.red(`Could not restore ${style.text(failure)}`));
    for (const file of outcome.untouched) lines.push(style.yellow(`Left as it is (not kept by the checkpoints): ${style.text(file.path)} (${file.reason})`));
  }
  if (scope !== 'files') lines.push(`The conversation now ends at checkpoint ${checkpointId}; the later part stays in the log.`);
  return lines.join('\n');
}

/** `smith checkpoints …` and `smith rewind …`; returns the exit code. */
export async function runCheckpointCommand(argv: readonly string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream, style: Style): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parse(rest);
  if (values.help) {
    out.write(`${CHECKPOINT_HELP}\n`);
    return 0;
  }
  const [taskId, checkpointId] = positionals;
  if (!taskId || (command === 'rewind' && !checkpointId) || positionals.length > (command === 'rewind' ? 2 : 1)) throw new UsageError(CHECKPOINT_USAGE);
  taskIdArgument(taskId, `smith ${command}`);
  const storageDir = values.storage ?? defaultStorageDir();
  reportInterruptedRestores(storageDir, err, style);
  const log = TaskLog.open(storageDir, taskId);
  if (command === 'checkpoints') {
    out.write(values.output === 'json' ? `${JSON.stringify(checkpointsJson(log.events))}\n` : `${formatCheckpoints(log.events, style)}\n`);
    return 0;
  }
  if (values['files-only'] && values['conversation-only']) throw new UsageError('--files-only and --conversation-only exclude each other');
  const scope: RewindScope = values['files-only'] ? 'files' : values['conversation-only'] ? 'conversation' : 'both';
  const store = scope === 'conversation' ? undefined : await storeOfTask(log.events, storageDir, (message) => err.write(`${style.yellow(message)}\n`));
  const outcome = await rewindTask(log, store, { checkpointId: checkpointId ?? '', scope, force: values.force === true });
  store?.flushStatCache();
  (outcome.kind === 'conflicts' ? err : out).write(`${describeRewind(outcome, checkpointId ?? '', scope, style, '--force')}\n`);
  if (outcome.kind === 'rewound' && scope !== 'files') out.write(`Continue with: smith --resume ${taskId} "your message"\n`);
  return outcome.kind === 'conflicts' || outcome.failures.length > 0 ? 1 : 0;
}

/** The checkpoint stores of the workspace a stored task ran in: its folder's, and those of the other folders its checkpoints cover. */
async function storeOfTask(events: readonly TaskEvent[], storageDir: string, notify: (message: string) => void): Promise<WorkspaceCheckpoints | undefined> {
  const started = events.find((e) => e.type === 'task_started');
  if (started?.type !== 'task_started') throw new Error('the task log has no task_started event');
  const workspace = WorkspaceRoots.open(
    started.cwd,
    [...checkpointFoldersOfTask(events)].map(([path, name]) => ({ path, name })),
  );
  return openWorkspaceCheckpoints(workspace, { storageDir, ignore: await loadWorkspaceIgnore(workspace), notify });
}

function describeFiles(c: CheckpointInfo): string {
  if (c.changedCount === 0) return c.skipped.length > 0 ? '' : 'no file changes';
  const shown = c.changed.slice(0, 5);
  const more = c.changedCount - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}

function parse(args: readonly string[]) {
  return parseFlags(
    args,
    {
      output: { type: 'string' },
      storage: { type: 'string' },
      'files-only': { type: 'boolean' },
      'conversation-only': { type: 'boolean' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    { positionals: true, usage: CHECKPOINT_USAGE },
  );
}
