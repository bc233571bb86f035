// Checkpoints on a generated workspace of 50,000 files with a few nested git repositories,
// against `git status` on the same tree in the same run: the first checkpoint, one after three
// files changed, restoring three files, and the store's size after 100 small checkpoints.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../src/core/checkpoints/checkpoint-store.js';
import { NOTHING_IGNORED } from '../src/core/workspace/ignore-policy.js';
import { statusOf, times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { ratio, round, timeAsync, timeInterleaved } from './timing.js';

const git = (cwd: string, ...args: string[]) => {
  const run = spawnSync('git', ['-c', 'user.email=bench@smith', '-c', 'user.name=bench', '-c', 'core.fsmonitor=false', ...args], { cwd, encoding: 'utf8' });
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

/** Runs the checkpoint benchmark. */
export async function runCheckpointsBench(options: BenchOptions): Promise<BenchOutcome> {
  const fileCount = options.quick ? 10_000 : 50_000;
  const started = Date.now();
  const { root, bytes } = generate(fileCount);
  const storage = mkdtempSync(join(tmpdir(), 'smith-bench-checkpoint-store-'));
  options.log(`checkpoints: generated ${fileCount} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  try {
    const store = new CheckpointStore({ storageDir: storage, workspaceRoot: root, ignore: NOTHING_IGNORED });
    const gitStatus = () => git(root, 'status', '--porcelain');
    gitStatus(); // warm the index and the page cache alike for both sides
    const firstStart = performance.now();
    const first = await store.snapshot();
    const firstMs = performance.now() - firstStart;
    const gitAlone = await timeAsync(async () => gitStatus(), { warmup: 1, repeats: options.quick ? 3 : 5, clock: 'wall' });

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
          const result = await store.snapshot();
          if (result.changed.length !== 3) throw new Error(`expected 3 changed files, got ${result.changed.length}`);
        },
      },
      { warmup: 1, repeats: options.quick ? 3 : 7, clock: 'wall' },
    );

    const before = await store.snapshot();
    changeThree();
    const after = await store.snapshot();
    const restoreStart = performance.now();
    const plan = await store.planRestore(before.root, after.root);
    const failures = store.restore(plan);
    const restoreMs = performance.now() - restoreStart;
    if (plan.writes.length !== 3 || failures.length > 0) throw new Error(`restore of 3 files wrote ${plan.writes.length}, failed ${failures.length}`);

    const roots = [first.root];
    for (let i = 0; i < 100; i++) {
      changeThree();
      roots.push((await store.snapshot()).root);
    }
    const storeBytes = store.storedSize(roots);

    const results = {
      files: fileCount,
      workspace_bytes: bytes,
      first_over_git_status: ratio(firstMs, gitAlone.median, 2),
      incremental_over_git_status: ratio(incremental.checkpoint.median, incremental.gitStatus.median, 2),
      restore_3_over_git_status: ratio(restoreMs, gitAlone.median, 2),
      store_bytes_after_100_over_workspace: ratio(storeBytes, bytes, 3),
      median_ms: {
        git_status: round(gitAlone.median, 1),
        first: round(firstMs, 1),
        incremental: round(incremental.checkpoint.median, 1),
        git_status_with_edits: round(incremental.gitStatus.median, 1),
        restore_3: round(restoreMs, 1),
      },
    };
    options.log(`checkpoints: ${JSON.stringify(results.median_ms)}`);
    const rows: Row[] = [
      {
        bench: 'checkpoints',
        metric: `first checkpoint / git status (${fileCount} files, 3 nested repos)`,
        value: times(results.first_over_git_status),
        target: '',
        status: 'info',
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
        target: '',
        status: 'info',
      },
      {
        bench: 'checkpoints',
        metric: 'store size after 100 small checkpoints / workspace size',
        value: times(results.store_bytes_after_100_over_workspace, 3),
        target: '',
        status: 'info',
      },
    ];
    return { results, rows, notes: [] };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
}
