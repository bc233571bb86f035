// Checkpoints on a generated workspace of 50,000 files with a few nested git repositories,
// against `git status` on the same tree in the same run: the first checkpoint, one after three
// files changed, restoring three files, the store's size on disk after 100 small checkpoints, and
// the size the history shows for them against that disk usage.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore, type SnapshotResult } from '../src/core/checkpoints/checkpoint-store.js';
import { NOTHING_IGNORED } from '../src/core/workspace/ignore-policy.js';
import { statusOf, times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { ratio, round, timeInterleaved } from './timing.js';

// No automatic gc or maintenance: committing 50,000 new files would start one in the background,
// busy beside the timed runs and still writing in .git when the workspace is removed.
const git = (cwd: string, ...args: string[]) => {
  const settings = ['user.email=bench@smith', 'user.name=bench', 'core.fsmonitor=false', 'gc.auto=0', 'maintenance.auto=false'];
  const run = spawnSync('git', [...settings.flatMap((setting) => ['-c', setting]), ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
};

/** Writes `files` small source files (a tenth of them in three nested repositories) and commits the outer repository. */
function generate(files: number): { root: string; bytes: number } {
  const root = mkdtempSync(join(tmpdir(), 'smith-bench-checkpoints-'));
  let bytes = 0;
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  for (let i = 0; i < files; i++) {
    const nested = i % 10 === 0 ? `vendor/lib-${i % 3}/` : '';
    const dir = join(root, `${nested}pkg-${i % 25}/src/feature-${i % 40}`);
    if (i < 1000) mkdirSync(dir, { recursive: true });
    const text = `export function run${i}(input: number): number {\n  return input * ${i % 97};\n}\n`;
    writeFileSync(join(dir, `module-${i}.ts`), text);
    bytes += text.length;
  }
  for (let r = 0; r < 3; r++) {
    const repo = join(root, `vendor/lib-${r}`);
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'vendored');
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'generated');
  return { root, bytes };
}

/** Bytes the folder takes on disk, as `du` counts them (allocated blocks, folders included). */
function diskUsage(dir: string): number {
  const run = spawnSync('du', ['-s', '--block-size=1', dir], { encoding: 'utf8' });
  const bytes = Number.parseInt(run.stdout, 10);
  if (run.status !== 0 || !Number.isFinite(bytes)) throw new Error(`du ${dir} failed: ${run.stderr}`);
  return bytes;
}

/** Runs the checkpoint benchmark. */
export async function runCheckpointsBench(options: BenchOptions): Promise<BenchOutcome> {
  const fileCount = options.quick ? 10_000 : 50_000;
  const started = Date.now();
  const { root, bytes } = generate(fileCount);
  options.log(`checkpoints: generated ${fileCount} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // The kernel writes the new files out in the background for a while: measured only once that is
  // done, so neither side is timed beside the writing.
  spawnSync('sync');
  const firstStores: string[] = [];
  try {
    const gitStatus = () => git(root, 'status', '--porcelain');
    gitStatus(); // warm the index and the page cache alike for both sides
    // The first checkpoint, each time into a new store, interleaved with git status so that a
    // busy machine slows both alike. Five times, the first of them in a cold process (its JIT and
    // its helper thread start then; it takes about 1.5 times a later run): a median of five is less
    // at the mercy of one slow run than one of three.
    let store: CheckpointStore | undefined;
    let first: SnapshotResult | undefined;
    const firstRuns = await timeInterleaved(
      {
        gitStatus: async () => gitStatus(),
        first: async () => {
          const dir = mkdtempSync(join(tmpdir(), 'smith-bench-checkpoint-first-'));
          firstStores.push(dir);
          store = new CheckpointStore({ storageDir: dir, workspaceRoot: root, ignore: NOTHING_IGNORED });
          first = await store.snapshot();
        },
      },
      { warmup: 0, repeats: options.quick ? 1 : 5, clock: 'wall' },
    );
    if (!store || !first) throw new Error('no first checkpoint');
    for (const dir of firstStores.slice(0, -1)) rmSync(dir, { recursive: true, force: true });
    const firstMs = firstRuns.first.median;

    let edit = 0;
    const changeThree = () => {
      edit++;
      for (const n of [1, 2, 3]) writeFileSync(join(root, `pkg-${n}/src/feature-${n}/module-${n}.ts`), `export const edit = ${edit};\n`);
    };
    const incremental = await timeInterleaved(
      {
        gitStatus: async () => {
          changeThree();
          gitStatus();
        },
        checkpoint: async () => {
          changeThree();
          const result = await (store as CheckpointStore).snapshot();
          if (result.changed.length !== 3) throw new Error(`expected 3 changed files, got ${result.changed.length}`);
        },
      },
      { warmup: 1, repeats: options.quick ? 3 : 7, clock: 'wall' },
    );

    // Restoring 3 files (the plan, with its snapshot of the workspace, and the writes), back and
    // forth between two checkpoints, against git status in the same rounds.
    const before = await store.snapshot();
    changeThree();
    const after = await store.snapshot();
    let onDisk = after.root;
    const restores = await timeInterleaved(
      {
        gitStatus: async () => gitStatus(),
        restore: async () => {
          const target = onDisk === after.root ? before.root : after.root;
          const plan = await (store as CheckpointStore).planRestore(target, onDisk);
          const failures = (store as CheckpointStore).restore(plan);
          if (plan.writes.length !== 3 || failures.length > 0) throw new Error(`restore of 3 files wrote ${plan.writes.length}, failed ${failures.length}`);
          onDisk = target;
        },
      },
      { warmup: 1, repeats: options.quick ? 3 : 7, clock: 'wall' },
    );

    const roots = [first.root];
    for (let i = 0; i < 100; i++) {
      changeThree();
      roots.push((await store.snapshot()).root);
    }
    store.flushStatCache();
    // What the history shows for a task holding these checkpoints, against the disk the store takes.
    const figure = store.storedSize(roots);
    const onDiskBytes = diskUsage(store.dir);

    const results = {
      files: fileCount,
      workspace_bytes: bytes,
      first_over_git_status: ratio(firstMs, firstRuns.gitStatus.median, 2),
      incremental_over_git_status: ratio(incremental.checkpoint.median, incremental.gitStatus.median, 2),
      restore_3_over_git_status: ratio(restores.restore.median, restores.gitStatus.median, 2),
      store_bytes_after_100_over_workspace: ratio(onDiskBytes, bytes, 3),
      store_bytes_on_disk: onDiskBytes,
      size_figure_over_disk: ratio(figure, onDiskBytes, 3),
      median_ms: {
        git_status: round(firstRuns.gitStatus.median, 1),
        first: round(firstMs, 1),
        incremental: round(incremental.checkpoint.median, 1),
        git_status_with_edits: round(incremental.gitStatus.median, 1),
        restore_3: round(restores.restore.median, 1),
        git_status_beside_restores: round(restores.gitStatus.median, 1),
      },
    };
    options.log(`checkpoints: ${JSON.stringify(results.median_ms)}`);
    const rows: Row[] = [
      {
        bench: 'checkpoints',
        metric: `first checkpoint / git status (${fileCount} files, 3 nested repos)`,
        value: times(results.first_over_git_status),
        target: '<= 5x',
        status: statusOf(results.first_over_git_status, (v) => v <= 5),
      },
      {
        bench: 'checkpoints',
        metric: 'checkpoint after 3 files changed / git status',
        value: times(results.incremental_over_git_status, 2),
        target: '<= 2x',
        status: statusOf(results.incremental_over_git_status, (v) => v <= 2),
      },
      {
        bench: 'checkpoints',
        metric: 'restore 3 files (plan + write) / git status',
        value: times(results.restore_3_over_git_status, 2),
        target: '<= 1.5x',
        status: statusOf(results.restore_3_over_git_status, (v) => v <= 1.5),
      },
      {
        bench: 'checkpoints',
        metric: 'store on disk (du) after 100 small checkpoints / workspace size',
        value: times(results.store_bytes_after_100_over_workspace, 3),
        target: '<= 1.2x',
        status: statusOf(results.store_bytes_after_100_over_workspace, (v) => v <= 1.2),
      },
      {
        bench: 'checkpoints',
        metric: "history's size figure / store on disk (du)",
        value: times(results.size_figure_over_disk, 3),
        target: '0.95x-1.05x',
        status: statusOf(results.size_figure_over_disk, (v) => v >= 0.95 && v <= 1.05),
      },
    ];
    return { results, rows, notes: [] };
  } finally {
    rmSync(root, { recursive: true, force: true });
    for (const dir of firstStores) rmSync(dir, { recursive: true, force: true });
  }
}
