import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { checkpointDirOf } from '../../../src/core/checkpoints/checkpoint-store.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { lastUserText } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { conversationRouter } from '../../helpers/conversation-router.js';
import { createGitRepo, type GitRepo } from '../../helpers/git-repo.js';

const replace = (path: string, search: string, replacement: string) => ({
  text: `<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`,
});
const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('smith --worktree and smith worktree', () => {
  let server: ScriptedLlmServer;
  let r: GitRepo;
  let storage: string;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    r = createGitRepo({ initialFiles: { 'app.txt': 'line 1\nline 2\nline 3\n', '.gitignore': '.env\n' } });
    storage = realpathSync(mkdtempSync(join(tmpdir(), 'smith-storage-')));
    server.requests.length = 0;
  });
  afterEach(() => {
    r.dispose();
    rmSync(storage, { recursive: true, force: true });
  });
  const model = () => ['--provider', 'openai-compatible', '--base-url', server.openAiBaseUrl, '--model', 'scripted-model', '--storage', storage];
  const smith = (args: readonly string[], cwd = r.repo) => runCli({ args: [...args, '--storage', storage], cwd, timeoutMs: 60_000 });
  const task = (args: readonly string[], cwd = r.repo) => runCli({ args: [...model(), '--yes', ...args], cwd, timeoutMs: 60_000 });
  const treeOf = (name: string) => join(r.home, '.smith-worktrees', 'repo', name);

  test('runs the task in a new worktree: its files, commands, checkpoints and log are the worktree, and the end names it', { timeout: 90_000 }, async () => {
    r.write('.env', 'TOKEN=1\n');
    writeFileSync(join(storage, 'settings.json'), JSON.stringify({ worktree: { copyFiles: ['.env'] } }));
    server.enqueue(replace('app.txt', 'line 2', 'line 2 edited'), command('pwd'), complete('Edited.'));
    const run = await task(['--worktree', 'fix', 'Edit line 2 of app.txt']);
    assert.equal(run.code, 0, run.stderr);
    const tree = treeOf('fix');
    assert.equal(readFileSync(join(tree, 'app.txt'), 'utf8'), 'line 1\nline 2 edited\nline 3\n');
    assert.equal(r.read('app.txt'), 'line 1\nline 2\nline 3\n', 'the workspace is untouched');
    assert.equal(r.git(['status', '--porcelain']), '');
    assert.equal(readFileSync(join(tree, '.env'), 'utf8'), 'TOKEN=1\n');
    // The command ran in the worktree.
    assert.match(lastUserText(server.requests[2]!), new RegExp(`${tree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
    assert.match(run.stderr, /\$ git worktree add --track -b smith\/fix -- .*\/\.smith-worktrees\/repo\/fix main/);
    assert.match(run.stderr, new RegExp(`Worktree ${tree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\nBranch\\s+smith/fix \\(from main\\)`));
    assert.match(run.stderr, /smith worktree diff fix \| merge fix/);
    const [taskId] = readdirSync(join(storage, 'tasks'));
    const started = JSON.parse(readFileSync(join(storage, 'tasks', taskId!, 'events.jsonl'), 'utf8').split('\n')[0]!);
    assert.equal(started.type, 'task_started');
    assert.equal(started.cwd, tree);
    assert.deepEqual(
      { ...started.worktree, baseCommit: undefined },
      { name: 'fix', path: tree, branch: 'smith/fix', base: 'main', baseCommit: undefined, repository: r.repo },
    );
    // Its checkpoints are a store of the worktree's own in Smith's storage, not in any .git.
    assert.ok(existsSync(checkpointDirOf(storage, tree)));
    assert.equal(existsSync(checkpointDirOf(storage, r.repo)), false);

    const listed = await smith(['worktree', 'list', '--output', 'json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).map((t: { name: string; base: string }) => [t.name, t.base]),
      [['fix', 'main']],
    );
    const diff = await smith(['worktree', 'diff', 'fix']);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /\+line 2 edited/);
    assert.doesNotMatch(diff.stdout, /TOKEN/);

    // A resume goes back to the worktree, wherever it is started from.
    server.enqueue(command('pwd'), complete('Still there.'));
    const before = server.requests.length;
    const resumed = await task(['--resume', taskId!, 'Where are you?'], r.home);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(lastUserText(server.requests[before + 1]!), new RegExp(`${tree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));

    const merged = await smith(['worktree', 'merge', 'fix']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /Fast-forwarded smith\/fix into main/);
    assert.match(merged.stderr, /\$ git commit --quiet -m Work of the task fix/);
    assert.equal(r.read('app.txt'), 'line 1\nline 2 edited\nline 3\n');
    assert.equal(r.git(['ls-files', '.env']), '', 'the copied .env is never committed');
    const discarded = await smith(['worktree', 'discard', 'fix']);
    assert.equal(discarded.code, 0, discarded.stderr);
    assert.equal(existsSync(tree), false);
  });

  test('two tasks in two worktrees edit the same file at the same time without seeing each other', { timeout: 120_000 }, async () => {
    const router = conversationRouter({
      'Task A': [replace('app.txt', 'line 2', 'line 2 by A'), complete('A done.')],
      'Task B': [replace('app.txt', 'line 2', 'line 2 by B'), complete('B done.')],
    });
    server.enqueue(...router.replies());
    const [a, b] = await Promise.all([
      task(['--output', 'json', '--worktree', 'a', 'Task A: edit app.txt']),
      task(['--worktree', 'b', 'Task B: edit app.txt']),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const summary = JSON.parse(a.stdout);
    assert.equal(summary.worktree.branch, 'smith/a');
    assert.equal(summary.worktree.path, treeOf('a'));
    assert.equal(readFileSync(join(treeOf('a'), 'app.txt'), 'utf8'), 'line 1\nline 2 by A\nline 3\n');
    assert.equal(readFileSync(join(treeOf('b'), 'app.txt'), 'utf8'), 'line 1\nline 2 by B\nline 3\n');
    assert.equal(r.read('app.txt'), 'line 1\nline 2\nline 3\n');

    assert.equal((await smith(['worktree', 'merge', 'a'])).code, 0);
    const head = r.git(['rev-parse', 'HEAD']);
    r.write('notes.txt', 'my own work\n');
    const conflict = await smith(['worktree', 'merge', 'b']);
    assert.equal(conflict.code, 1);
    assert.match(conflict.stderr, /smith\/b conflicts with main in: app\.txt\. Nothing was merged/);
    assert.equal(r.git(['rev-parse', 'HEAD']), head);
    assert.equal(r.read('app.txt'), 'line 1\nline 2 by A\nline 3\n');
    assert.equal(r.git(['status', '--porcelain']), '?? notes.txt\n');

    const refused = await smith(['worktree', 'discard', 'b']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /smith\/b has 1 commit\(s\) main does not hold.*--force/s);
    assert.ok(existsSync(treeOf('b')));
    const forced = await smith(['worktree', 'discard', 'b', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(existsSync(treeOf('b')), false);
    assert.equal(r.git(['branch', '--list', 'smith/b']), '');
  });

  test("the worktree is the sandbox's writable folder and the permission rules' workspace", { timeout: 90_000 }, async () => {
    server.enqueue(
      command('echo in > inside.txt && echo wrote-inside'),
      command(`echo out > ${join(r.repo, 'escape.txt')}; echo exit=$?`),
      replace('app.txt', 'line 2', 'line 2 denied'),
      command('git commit -q --allow-empty -m inside; echo exit=$?'),
      complete('Done.'),
    );
    const run = await task(['--sandbox', '--deny', 'Edit(app.txt)', '--worktree', 'boxed', 'Work in the box']);
    assert.equal(run.code, 0, run.stderr);
    const tree = treeOf('boxed');
    assert.equal(readFileSync(join(tree, 'inside.txt'), 'utf8'), 'in\n');
    assert.match(lastUserText(server.requests[1]!), /wrote-inside/);
    assert.equal(existsSync(join(r.repo, 'escape.txt')), false, 'the original workspace is outside the sandbox');
    assert.match(lastUserText(server.requests[2]!), /exit=[12]/);
    // A deny rule written relative to the workspace applies to the worktree's file.
    assert.match(lastUserText(server.requests[3]!), /permission rule Edit\(app\.txt\) \(--deny\) denies this call/);
    assert.equal(readFileSync(join(tree, 'app.txt'), 'utf8'), 'line 1\nline 2\nline 3\n');
    // The worktree's git folder is in the repository's .git, which the sandbox cannot write: no commit from inside.
    assert.match(lastUserText(server.requests[4]!), /exit=(?!0\b)\d+/);
    assert.equal(r.git(['rev-parse', 'smith/boxed']), r.git(['rev-parse', 'main']));
  });

  test('--worktree-base starts the worktree from another local branch; an unknown one is refused before the model is asked', { timeout: 300_000 }, async () => {
    r.git(['checkout', '-q', '-b', 'release']);
    r.write('release.txt', 'only on release\n');
    r.commit('release work');
    r.git(['checkout', '-q', 'main']);
    server.enqueue(complete('Done.'));
    const run = await task(['--worktree', 'rel', '--worktree-base', 'release', 'Work on the release']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(join(treeOf('rel'), 'release.txt'), 'utf8'), 'only on release\n');
    assert.equal(r.git(['rev-parse', '--symbolic-full-name', 'smith/rel@{upstream}']).trim(), 'refs/heads/release');
    assert.match(run.stderr, /\$ git worktree add --track -b smith\/rel -- \S+ release\n/);
    assert.match(run.stderr, /Branch\s+smith\/rel \(from release\)/);
    assert.equal(r.git(['symbolic-ref', '--short', 'HEAD']).trim(), 'main', 'the workspace stays on its branch');

    const requests = server.requests.length;
    for (const base of ['no-such-branch', 'origin/main', 'HEAD~1', '--force']) {
      const refused = await task(['--worktree', 'x', `--worktree-base=${base}`, 'Do something']);
      assert.equal(refused.code, 1, `${base}: ${refused.stderr}`);
      assert.ok(refused.stderr.includes(`There is no local branch "${base}" to start from (the local branches: main, release)`), refused.stderr);
    }
    assert.equal(server.requests.length, requests, 'the model was not asked');
    assert.equal(r.git(['branch', '--list', 'smith/x*']), '');
    const alone = await task(['--worktree-base', 'release', 'Do something']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--worktree-base goes with --worktree/);
    const help = await smith(['--help']);
    assert.match(help.stdout, /--worktree-base BRANCH\s+the local branch the worktree starts from/);
  });

  test('smith worktree pr pushes the branch to origin and prints the page that opens the pull request; without a remote it says so', {
    timeout: 240_000,
  }, async () => {
    server.enqueue(replace('app.txt', 'line 2', 'line 2 for review'), complete('Edited.'));
    assert.equal((await task(['--worktree', 'review-me', 'Edit line 2'])).code, 0);
    // gh is kept off PATH: only git is there.
    const bin = join(r.home, 'bin');
    mkdirSync(bin);
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
    const noRemote = await runCli({ args: ['worktree', 'pr', 'review-me', '--storage', storage], cwd: r.repo, env: { PATH: bin }, timeoutMs: 60_000 });
    assert.equal(noRemote.code, 1);
    assert.match(noRemote.stderr, /has no remote to push smith\/review-me to: add one \(`git remote add origin URL`\)/);
    const bare = join(r.home, 'origin.git');
    r.git(['init', '-q', '--bare', bare], r.home);
    r.git(['remote', 'add', 'origin', 'https://github.com/acme/shop.git']);
    r.git(['config', 'remote.origin.pushurl', bare]);
    const pr = await runCli({ args: ['worktree', 'pr', 'review-me', '--storage', storage], cwd: r.repo, env: { PATH: bin }, timeoutMs: 60_000 });
    assert.equal(pr.code, 0, pr.stderr);
    assert.match(pr.stderr, /\$ git push origin refs\/heads\/smith\/review-me:refs\/heads\/smith\/review-me/);
    assert.match(
      pr.stdout,
      /gh \(the GitHub CLI\) is not on PATH: open the pull request into main here:\nhttps:\/\/github\.com\/acme\/shop\/compare\/main\.\.\.smith\/review-me\?expand=1\n/,
    );
    assert.equal(r.git(['show', 'refs/heads/smith/review-me:app.txt'], bare), 'line 1\nline 2 for review\nline 3\n');
  });

  test('outside a git repository the task is refused before anything runs', async () => {
    const plain = join(r.home, 'plain');
    mkdirSync(plain);
    const run = await task(['--worktree', 'Do something'], plain);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /is not in a git repository/);
    assert.equal(server.requests.length, 0);
    assert.equal(existsSync(join(r.home, '.smith-worktrees')), false);
  });

  test('a model setting that cannot work stops the run before any worktree is made', async () => {
    const run = await smith(['--provider', 'openai-compatible', '--worktree', 'x', 'Do something']);
    assert.notEqual(run.code, 0);
    assert.equal(existsSync(join(r.home, '.smith-worktrees')), false);
    assert.equal(r.git(['branch', '--list', 'smith/*']), '');
  });

  test('a parent set inside the workspace is refused with the setting named', async () => {
    writeFileSync(join(storage, 'settings.json'), JSON.stringify({ worktree: { parent: join(r.repo, 'trees') } }));
    const run = await task(['--worktree=x', 'Do something']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /inside the workspace .*smith\.worktree\.parent/);
    assert.equal(server.requests.length, 0);
  });

  test('usage mistakes exit 2 and say what is wrong', async () => {
    const missing = await smith(['worktree', 'merge']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /smith worktree merge needs the task's NAME/);
    const unknown = await smith(['worktree', 'frobnicate', 'x']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /list, diff, merge, pr or discard/);
    const notFound = await smith(['worktree', 'diff', 'nope']);
    assert.equal(notFound.code, 1);
    assert.match(notFound.stderr, /There is no worktree task "nope"/);
    const help = await smith(['worktree', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /smith worktree discard NAME \[--force\]/);
    const both = await task(['--worktree', '--dry-run', 'x y']);
    assert.equal(both.code, 2);
  });
});
