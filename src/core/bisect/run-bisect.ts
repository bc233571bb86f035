// `smith bisect` and the panel's "Bisect…": which step of a task made its test fail. Each
// checkpoint is written into a scratch copy (never the user's workspace), the test runs there, and
// a binary search over the checkpoints names the first step after which it fails.
import { inspectCheckpointStore } from '../checkpoints/checkpoint-gc.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { foldersDiff, type WorkspaceDiff } from '../replay/run-summary.js';
import { newTaskId } from '../task/new-task-id.js';
import { type SearchMode, searchFirstFailure } from './bisect-search.js';
import { type BisectSource, type BisectState, type BisectStep, describeStep, readBisectSource } from './bisect-steps.js';
import { leftOutEntries, linkLeftOut } from './ignored-links.js';
import { ScratchArea, type StoredFolder } from './scratch-states.js';
import { TestCommand, type TestConfinement, type TestRunResult, type TestSandboxRequest } from './test-command.js';

/** What to bisect and how. */
export interface BisectInput {
  readonly storageDir: string;
  readonly taskId: string;
  /** The shell command whose exit code judges a state: 0 passes, 125 cannot test, anything else fails. */
  readonly command: string;
  /** Each run's limit; a run past it is killed and counts as a failure. */
  readonly timeoutMs: number;
  readonly mode: SearchMode;
  readonly sandbox: TestSandboxRequest;
  /**
   * Whether the workspace's entries checkpoints leave out (node_modules …) are linked into each
   * copy: `sandboxed` (the default) only when the sandbox keeps them read-only, `off` never,
   * `always` unconfined too (a test can then write into them).
   */
  readonly linkIgnored?: LinkIgnored;
  readonly signal?: AbortSignal;
  /** Told before each run and after it, as the search goes. */
  onProgress?(progress: BisectProgress): void;
}

/** When the workspace's ignored entries are linked into the copies (BisectInput.linkIgnored). */
export type LinkIgnored = 'sandboxed' | 'off' | 'always';

/** A run about to start, or one that ended. */
export type BisectProgress =
  | {
      readonly kind: 'started';
      readonly states: number;
      readonly confinement: TestConfinement;
      readonly sandboxReason?: string;
      /** The workspace's ignored entries are linked into each copy. */
      readonly linked: boolean;
    }
  | { readonly kind: 'testing'; readonly checkpointId: string; readonly index: number; readonly states: number; readonly step: BisectStep }
  | { readonly kind: 'tested'; readonly run: BisectRun; readonly states: number };

/** One state tested: its checkpoint, the step before it and how the test ended. */
export interface BisectRun extends Omit<TestRunResult, 'verdict'> {
  readonly checkpointId: string;
  readonly index: number;
  readonly step: BisectStep;
  readonly verdict: TestRunResult['verdict'];
  /** Why it could not be tested, for a skip that is not the test's own exit code 125 (its stored files were pruned). */
  readonly unavailable?: string;
}

/** The step(s) the test started failing after, with what they changed. */
export interface BisectCulprit {
  /** The last checkpoint that passes. */
  readonly lastPassing: string;
  /** The first checkpoint after it that fails. */
  readonly firstFailing: string;
  /** The steps between them, oldest first: exactly one unless states between them could not be tested. */
  readonly steps: readonly { readonly checkpointId: string; readonly step: BisectStep; readonly description: string }[];
  /** The files changed from the last passing checkpoint to the first failing one, and the unified diff. */
  readonly diff: WorkspaceDiff;
  /** The failing run's output (bounded). */
  readonly output: string;
}

/** Why a bisect found a step or not. */
export type BisectOutcome = 'found' | 'no-checkpoints' | 'one-checkpoint' | 'fails-before' | 'passes-after' | 'untestable';

/** Everything a bisect found; `smith bisect --output json` prints it. */
export interface BisectReport {
  readonly taskId: string;
  readonly task: string;
  /** The workspace the task ran in (never written by the bisect). */
  readonly cwd: string;
  readonly command: string;
  readonly timeoutMs: number;
  readonly mode: SearchMode;
  readonly confinement: TestConfinement;
  /** Why there was no sandbox, when `confinement` is `unavailable`. */
  readonly sandboxReason?: string;
  /** Whether the workspace's ignored entries (node_modules …) were linked into each copy. */
  readonly linked: boolean;
  /** What a sandboxed test could reach: nothing, the allowed hosts, or the whole network. */
  readonly network: 'none' | 'hosts' | 'all';
  /** How many checkpoints the task has. */
  readonly checkpoints: number;
  readonly outcome: BisectOutcome;
  /** The outcome in a sentence. */
  readonly message: string;
  readonly runs: readonly BisectRun[];
  readonly culprit?: BisectCulprit;
}

/** Where a state's files are: each folder's store and snapshot. */
interface StateFolders {
  readonly primary: StoredFolder;
  readonly others: readonly StoredFolder[];
}

/** Bisects a stored task (see docs/bisect.md). Throws BisectError when the task cannot be read. */
export async function runBisect(input: BisectInput): Promise<BisectReport> {
  const source = readBisectSource(input.storageDir, input.taskId);
  const test = await TestCommand.prepare(input.command, input.timeoutMs, input.sandbox);
  const runs: BisectRun[] = [];
  const linkIgnored = input.linkIgnored ?? 'sandboxed';
  const links = linkIgnored === 'always' || (linkIgnored === 'sandboxed' && test.confinement === 'sandboxed') ? new LeftOutCache(input.signal) : undefined;
  const report = (outcome: BisectOutcome, message: string, culprit?: BisectCulprit): BisectReport => ({
    taskId: source.taskId,
    task: source.task,
    cwd: source.cwd,
    command: input.command,
    timeoutMs: input.timeoutMs,
    mode: input.mode,
    confinement: test.confinement,
    ...(test.unavailableReason ? { sandboxReason: test.unavailableReason } : {}),
    linked: links !== undefined,
    network: input.sandbox.network ? 'all' : input.sandbox.allowedHosts.length > 0 ? 'hosts' : 'none',
    checkpoints: source.states.length,
    outcome,
    message,
    runs,
    ...(culprit ? { culprit } : {}),
  });
  const states = source.states;
  try {
    if (states.length === 0) return report('no-checkpoints', 'This task has no checkpoints (they were off, or nothing ran), so there is nothing to bisect.');
    if (states.length === 1)
      return report('one-checkpoint', 'This task has only its first checkpoint (no step changed the workspace), so there is nothing to bisect.');
    input.onProgress?.({
      kind: 'started',
      states: states.length,
      confinement: test.confinement,
      ...(test.unavailableReason ? { sandboxReason: test.unavailableReason } : {}),
      linked: links !== undefined,
    });
    const stores = new StoreCache(input.storageDir);
    const area = ScratchArea.open(input.storageDir, newTaskId());
    try {
      const testState = async (index: number): Promise<BisectRun> => {
        const state = states[index]!;
        input.onProgress?.({ kind: 'testing', checkpointId: state.checkpoint.id, index, states: states.length, step: state.step });
        const run = await runState(area, test, stores, links, source, state, index, input.signal);
        runs.push(run);
        input.onProgress?.({ kind: 'tested', run, states: states.length });
        return run;
      };
      const first = await testState(0);
      if (first.verdict === 'skip') return report('untestable', `The workspace as the task found it cannot be tested: ${skipReason(first)}.`);
      if (first.verdict === 'fail')
        return report(
          'fails-before',
          `The test already fails on the workspace as the task found it (checkpoint 0${failureWords(first)}), so no step of the task made it fail.`,
        );
      const lastIndex = states.length - 1;
      const last = await testState(lastIndex);
      const lastId = states[lastIndex]!.checkpoint.id;
      if (last.verdict === 'skip')
        return report('untestable', `The workspace after the task's last step (checkpoint ${lastId}) cannot be tested: ${skipReason(last)}.`);
      if (last.verdict === 'pass')
        return report('passes-after', `The test passes after the task's last step (checkpoint ${lastId}), so there is nothing to bisect.`);
      const verdicts = new Map<number, BisectRun>([
        [0, first],
        [lastIndex, last],
      ]);
      const bounds = await searchFirstFailure(
        states.length,
        input.mode,
        async (index) => {
          const run = await testState(index);
          verdicts.set(index, run);
          return run.verdict;
        },
        input.signal,
      );
      const culprit = culpritOf(source, states, bounds.good, bounds.bad, stores, verdicts.get(bounds.bad)!);
      const words =
        culprit.steps.length === 1
          ? `step ${describeStep(culprit.steps[0]!.step)}`
          : `one of ${culprit.steps.length} steps (those between could not be tested)`;
      return report('found', `The test fails from checkpoint ${culprit.firstFailing} on: after ${words}.`, culprit);
    } finally {
      area.remove();
    }
  } finally {
    test.close();
  }
}

/** Writes one state into the scratch area, runs the test there, and removes the copy. */
async function runState(
  area: ScratchArea,
  test: TestCommand,
  stores: StoreCache,
  links: LeftOutCache | undefined,
  source: BisectSource,
  state: BisectState,
  index: number,
  signal: AbortSignal | undefined,
): Promise<BisectRun> {
  const base = { checkpointId: state.checkpoint.id, index, step: state.step };
  const name = `state-${state.checkpoint.id}`;
  let copy: ReturnType<ScratchArea['write']>;
  let folders: StateFolders;
  try {
    folders = stores.foldersOf(source, state);
    copy = area.write(name, folders.primary, folders.others);
  } catch (error) {
    const unavailable = `its files are no longer stored (${(error as Error).message})`;
    return { ...base, verdict: 'skip', unavailable, exitCode: null, timedOut: false, durationMs: 0, output: '' };
  }
  try {
    const readable: string[] = [];
    if (links) {
      const real = [folders.primary, ...folders.others];
      for (const [i, at] of copy.folders.entries()) readable.push(...linkLeftOut(real[i]!.path, at, await links.of(real[i]!.path)));
    }
    return { ...base, ...(await test.run(copy.workspace, copy.folders, readable, { SMITH_BISECT_CHECKPOINT: state.checkpoint.id }, signal)) };
  } finally {
    area.clear(name);
  }
}

/** The entries each real workspace folder's checkpoints leave out, found once per bisect. */
class LeftOutCache {
  private readonly found = new Map<string, Promise<string[]>>();

  constructor(private readonly signal: AbortSignal | undefined) {}

  of(path: string): Promise<string[]> {
    let entries = this.found.get(path);
    if (!entries) {
      entries = leftOutEntries(path, this.signal);
      this.found.set(path, entries);
    }
    return entries;
  }
}

/** The checkpoint stores of the task's folders, each opened once (read only: nothing is snapshot). */
class StoreCache {
  private readonly opened = new Map<string, CheckpointStore | undefined>();

  constructor(private readonly storageDir: string) {}

  /** Throws when a folder's store is gone: that state cannot be written. */
  foldersOf(source: BisectSource, state: BisectState): StateFolders {
    return {
      primary: { path: source.cwd, store: this.store(source.cwd), root: state.checkpoint.root },
      others: (state.checkpoint.folders ?? []).map((folder) => ({ path: folder.path, store: this.store(folder.path), root: folder.root })),
    };
  }

  store(path: string): CheckpointStore {
    if (!this.opened.has(path)) this.opened.set(path, inspectCheckpointStore(this.storageDir, path));
    const store = this.opened.get(path);
    if (!store) throw new Error(`the checkpoint storage of ${path} was removed`);
    return store;
  }
}

/** The steps from just after `good` to `bad`, and what changed between the two checkpoints. */
function culpritOf(source: BisectSource, states: readonly BisectState[], good: number, bad: number, stores: StoreCache, failing: BisectRun): BisectCulprit {
  const before = states[good]!.checkpoint;
  const after = states[bad]!.checkpoint;
  const otherFolders = (after.folders ?? []).flatMap((folder) => {
    const then = before.folders?.find((f) => f.path === folder.path);
    return then ? [{ store: stores.store(folder.path), before: then.root, after: folder.root, prefix: `${folder.name}/` }] : [];
  });
  return {
    lastPassing: before.id,
    firstFailing: after.id,
    steps: states.slice(good + 1, bad + 1).map((state) => ({ checkpointId: state.checkpoint.id, step: state.step, description: describeStep(state.step) })),
    diff: foldersDiff([{ store: stores.store(source.cwd), before: before.root, after: after.root }, ...otherFolders]),
    output: failing.output,
  };
}

function skipReason(run: BisectRun): string {
  return run.unavailable ?? `the test exited with ${run.exitCode} (it cannot test this state)`;
}

/** ", exit code 1" or ", timed out after …": how a failing run ended. */
function failureWords(run: BisectRun): string {
  if (run.timedOut) return ', timed out: its processes were killed';
  return run.exitCode === null ? `, ended by ${run.signal ?? 'a signal'}` : `, exit code ${run.exitCode}`;
}
