// The command sandbox for real: what would run later outside it (git hooks and config, .smith,
// .claude, .vscode, .husky) is read-only to a sandboxed command, whatever way it tries (write,
// create, rename away and recreate, a link pointing in), while the rest of the workspace stays writable.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, afterEach, describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { protectedPathArguments, UnprotectableError } from '../../../src/core/process/protected-paths.js';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

async function run(runner: ChildProcessRunner, command: string, cwd: string): Promise<string> {
  const running = runner.start(command, { cwd });
  const chunks: string[] = [];
  running.onOutput((chunk) => chunks.push(chunk));
  await running.exited;
  return chunks.join('');
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

/** Every file under a folder with its content, to compare before and after. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        out[`${path}/`] = '';
        walk(path);
      } else out[path] = entry.isSymbolicLink() ? `-> ${path}` : readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return out;
}

describe('sandboxed commands and the protected paths', async () => {
  const found = await findSandbox();
  const skip = 'reason' in found ? found.reason : false;
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = createTempWorkspace('smith-protected-');
  });
  afterEach(() => ws.dispose());
  const runner = () =>
    'reason' in found ? undefined : new ChildProcessRunner({ sandbox: { ...found, folders: [ws.root], network: false, ignore: NOTHING_IGNORED } });

  test('a repository: hooks, config, the editor and agent folders cannot be written, created, moved away or reached through a link; the rest can', {
    skip,
  }, async () => {
    git(ws.root, 'init', '-q');
    ws.write('src/app.ts', 'one\n');
    ws.write('.vscode/settings.json', '{}\n');
    ws.write('.smith/settings.json', '{}\n');
    git(ws.root, 'add', '.');
    git(ws.root, 'commit', '-qm', 'first');
    const protectedBefore = {
      git: snapshot(join(ws.root, '.git', 'hooks')),
      config: readFileSync(join(ws.root, '.git', 'config'), 'utf8'),
      vscode: snapshot(join(ws.root, '.vscode')),
      smith: snapshot(join(ws.root, '.smith')),
    };
    const attempts = [
      'echo evil > .git/hooks/pre-commit',
      'git config core.hooksPath x',
      'echo "[core] fsmonitor = evil" >> .git/config',
      'mkdir .husky && echo evil > .husky/pre-commit',
      'mkdir -p .claude/commands && echo evil > .claude/commands/x.md',
      'echo "{}" > .vscode/tasks.json',
      'echo "{\\"permissions\\":{\\"allow\\":[\\"Bash\\"]}}" > .smith/settings.json',
      'mv .git .git-away',
      'mv .vscode .vscode-away',
      'rm -rf .smith',
      'rm -rf .git/hooks',
      'mv .git/config .git/config-away',
      'ln -s .git/hooks hooks-link && echo evil > hooks-link/post-checkout',
      'ln -s .vscode vs-link && echo evil > vs-link/launch.json',
      // Other spellings of the same paths reach the same read-only mounts.
      'echo evil > .git/../.git/hooks/pre-commit',
      'echo evil > src/../.vscode/tasks.json',
      `echo evil > /proc/self/root${ws.root}/.git/hooks/pre-commit`,
      'git config --file .git/config core.hooksPath x',
      'echo "[core] fsmonitor = evil" > .git/config.worktree',
      // A hard link to a protected file cannot be made: the read-only mount is another mount.
      'ln .vscode/settings.json hard-settings.json && echo evil >> hard-settings.json',
    ];
    const sandbox = runner()!;
    for (const attempt of attempts) {
      const output = await run(sandbox, `${attempt}; echo "exit=$?"`, ws.root);
      assert.doesNotMatch(output, /exit=0/, `${attempt} succeeded: ${output}`);
    }
    // The rest of the workspace stays writable, and git works inside (it writes objects, the index, refs).
    const work = await run(
      sandbox,
      `echo two >> src/app.ts && mkdir -p lib && echo x > lib/new.ts && git -c user.name=t -c user.email=t@t commit -qam second && git log --oneline | wc -l; echo "exit=$?"`,
      ws.root,
    );
    assert.match(work, /^2\nexit=0$/m);
    assert.equal(readFileSync(join(ws.root, 'src/app.ts'), 'utf8'), 'one\ntwo\n');
    // Last, as it empties the repository (its contents are the workspace's): a copy with other hooks cannot take its place.
    const replaced = await run(sandbox, 'cp -r .git /tmp/g && echo evil > /tmp/g/hooks/pre-commit && rm -rf .git && mv /tmp/g .git; echo "exit=$?"', ws.root);
    assert.doesNotMatch(replaced, /exit=0/);
    assert.deepEqual(
      {
        git: snapshot(join(ws.root, '.git', 'hooks')),
        config: readFileSync(join(ws.root, '.git', 'config'), 'utf8'),
        vscode: snapshot(join(ws.root, '.vscode')),
        smith: snapshot(join(ws.root, '.smith')),
      },
      protectedBefore,
    );
    assert.equal(existsSync(join(ws.root, '.git-away')), false);
    assert.equal(existsSync(join(ws.root, '.husky', 'pre-commit')), false);
    assert.deepEqual(readdirSync(join(ws.root, '.claude')), []);
  });

  test("no repository: none can be made; a worktree's .git file cannot be pointed elsewhere", { skip }, async () => {
    const sandbox = runner()!;
    const init = await run(sandbox, 'git init -q .; echo "exit=$?"; echo "gitdir: evil" > .git; echo "exit=$?"', ws.root);
    assert.doesNotMatch(init, /exit=0/);
    assert.deepEqual(readdirSync(join(ws.root, '.git')), []);

    // A linked worktree: .git is a file naming the git folder elsewhere (read-only there).
    const main = join(ws.root, 'main');
    mkdirSync(main);
    git(main, 'init', '-q');
    git(main, 'commit', '-q', '--allow-empty', '-m', 'x');
    const tree = join(ws.root, 'tree');
    git(main, 'worktree', 'add', '-q', tree);
    const gitFile = readFileSync(join(tree, '.git'), 'utf8');
    // In the main repository, its worktrees' git folders are read-only too (their commondir decides what git runs there).
    const inMain = new ChildProcessRunner({
      sandbox: { ...(found as Exclude<typeof found, { reason: string }>), folders: [main], network: false, ignore: NOTHING_IGNORED },
    });
    const worktreeAttack = await run(
      inMain,
      'echo /tmp/evil > .git/worktrees/tree/commondir; echo "exit=$?"; echo "[core]" > .git/config.worktree; echo "exit=$?"; git worktree add -q ../other; echo "exit=$?"',
      main,
    );
    assert.doesNotMatch(worktreeAttack, /exit=0/);
    const inTree = new ChildProcessRunner({
      sandbox: { ...(found as Exclude<typeof found, { reason: string }>), folders: [tree], network: false, ignore: NOTHING_IGNORED },
    });
    const rewrite = await run(inTree, 'echo "gitdir: /tmp/evil" > .git; echo "exit=$?"; rm -f .git; echo "exit=$?"; echo ok > file.txt; echo "exit=$?"', tree);
    assert.match(rewrite, /exit=[1-9][\s\S]*exit=[1-9][\s\S]*exit=0/);
    assert.equal(readFileSync(join(tree, '.git'), 'utf8'), gitFile);
    assert.equal(readFileSync(join(tree, 'file.txt'), 'utf8'), 'ok\n');
  });

  test("a submodule's git folder is protected like the repository's", { skip }, async () => {
    const modules = join(ws.root, '.git', 'modules', 'lib');
    git(ws.root, 'init', '-q');
    mkdirSync(join(modules, 'hooks'), { recursive: true });
    writeFileSync(join(modules, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(modules, 'config'), '[core]\n');
    const output = await run(
      runner()!,
      'echo evil > .git/modules/lib/hooks/pre-commit; echo "exit=$?"; echo "[core] fsmonitor=evil" >> .git/modules/lib/config; echo "exit=$?"; mv .git/modules .git/m2; echo "exit=$?"; mv .git/modules/lib .git/modules/lib2; echo "exit=$?"',
      ws.root,
    );
    assert.doesNotMatch(output, /exit=0/);
    assert.equal(readFileSync(join(modules, 'config'), 'utf8'), '[core]\n');
  });

  test('a protected name that is a symbolic link is refused, not left replaceable', () => {
    mkdirSync(join(ws.root, 'tools', 'husky'), { recursive: true });
    symlinkSync(join(ws.root, 'tools', 'husky'), join(ws.root, '.husky'));
    assert.throws(
      () => protectedPathArguments([ws.root]),
      (error: unknown) => error instanceof UnprotectableError && /\.husky read-only: it is a symbolic link/.test(error.message),
    );
  });
});
