// One run of a task in numbers, the same for the original and its replay, so the two line up.
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { changedPaths } from '../checkpoints/workspace-snapshot.js';
import type { TaskEvent } from '../log/events.js';
import { taskStatus, type StoredTaskSummary } from '../log/task-log.js';
import { usageTotals } from '../log/usage-totals.js';
import { decodeText, diffStats, unifiedDiff } from '../tool-kit/file-text.js';

/** A file a run changed, with its lines added and removed (none counted for a binary file). */
export interface ChangedFile {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  readonly added: number;
  readonly removed: number;
}

/** The workspace a run left, against the one it began in. */
export interface WorkspaceDiff {
  readonly files: readonly ChangedFile[];
  /** One unified diff of every changed text file (a binary one is named, not shown). */
  readonly patch: string;
}

/** What a comparison shows of one run. */
export interface RunSummary {
  readonly taskId: string;
  readonly provider: string;
  readonly model: string;
  readonly modeSlug: string;
  readonly status: StoredTaskSummary['status'];
  readonly toolCalls: number;
  /** Calls per tool, in order of first use. */
  readonly tools: Readonly<Record<string, number>>;
  /** Responses without a tool, and tool calls that were the model's fault. */
  readonly mistakes: number;
  readonly approvals: { readonly approved: number; readonly rejected: number };
  readonly requests: number;
  readonly tokens: { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number };
  /** US dollars; null when a model's prices are unknown. */
  readonly cost: number | null;
  /** From the first event of the log to the last. */
  readonly durationMs: number;
  readonly diff: WorkspaceDiff;
}

/** Counts a run's log; `diff` is what it did to the workspace (see workspaceDiff). */
export function runSummary(events: readonly TaskEvent[], diff: WorkspaceDiff): RunSummary {
  const started = events.find((e) => e.type === 'task_started');
  if (started?.type !== 'task_started') throw new Error('the task log has no task_started event');
  const tools: Record<string, number> = {};
  let toolCalls = 0;
  let mistakes = 0;
  let requests = 0;
  let approved = 0;
  let rejected = 0;
  let modeSlug = started.modeSlug;
  for (const event of events) {
    if (event.type === 'tool_requested') {
      toolCalls++;
      tools[event.tool] = (tools[event.tool] ?? 0) + 1;
    } else if (event.type === 'no_tool_used' || (event.type === 'tool_error' && event.mistake)) mistakes++;
    else if (event.type === 'model_response') requests++;
    else if (event.type === 'tool_auto_approved') approved++;
    else if (event.type === 'approval_answered') {
      if (event.approved) approved++;
      else rejected++;
    } else if (event.type === 'mode_slug_switched') modeSlug = event.modeSlug;
  }
  const usage = usageTotals(events);
  return {
    taskId: started.taskId,
    provider: started.provider,
    model: started.model,
    modeSlug,
    status: taskStatus(events),
    toolCalls,
    tools,
    mistakes,
    approvals: { approved, rejected },
    requests,
    tokens: { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens },
    cost: usage.cost ?? null,
    durationMs: (events.at(-1)?.ts ?? started.ts) - started.ts,
    diff,
  };
}

/** One folder's two snapshots to compare; `prefix` names another folder's files (`<name>/`). */
interface FolderSnapshots {
  readonly store: CheckpointStore;
  readonly before: string;
  readonly after: string;
  readonly prefix?: string;
}

/** What changed in every folder of a workspace, as one list of files and one unified diff. */
export function foldersDiff(folders: readonly FolderSnapshots[]): WorkspaceDiff {
  const diffs = folders.map((folder) => workspaceDiff(folder.store, folder.before, folder.after, folder.prefix));
  return { files: diffs.flatMap((diff) => diff.files), patch: diffs.map((diff) => diff.patch).join('') };
}

/** What changed between two snapshots of a store, as files and one unified diff. */
function workspaceDiff(store: CheckpointStore, before: string, after: string, prefix = ''): WorkspaceDiff {
  const old = store.manifestOf(before);
  const now = store.manifestOf(after);
  const files: ChangedFile[] = [];
  const parts: string[] = [];
  for (const stored of changedPaths(old, now).sort()) {
    const a = old.get(stored);
    const b = now.get(stored);
    const path = prefix + stored;
    const change = !a ? 'added' : !b ? 'deleted' : 'modified';
    const textA = a ? decodeText(store.objects.get(a.hash)) : { text: '' };
    const textB = b ? decodeText(store.objects.get(b.hash)) : { text: '' };
    if ('binary' in textA || 'binary' in textB) {
      files.push({ path, change, added: 0, removed: 0 });
      parts.push(`Binary file ${path} ${change}\n`);
      continue;
    }
    const patch = unifiedDiff(path, textA.text, textB.text);
    // jsdiff starts with an Index line and a ===== rule; the --- / +++ header is enough here.
    parts.push(patch.slice(patch.indexOf('---')));
    files.push({ path, change, ...diffStats(patch) });
  }
  return { files, patch: parts.join('') };
}
