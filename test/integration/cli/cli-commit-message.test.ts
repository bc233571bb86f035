// `smith commit-message` on real git repositories against the scripted LLM server: which changes
// reach the model (staged, all, new files), the message printed, a bounded diff, the user's keys
// redacted, an API profile, and the refusals (no repository, nothing to describe, bad flags).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { gitRepoPerTest } from '../../helpers/git-repo.js';

describe('smith commit-message', () => {
  const fx = useAgentFixture();
  const newRepo = gitRepoPerTest();
  const modelArgs = () => ['--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, '--model', 'scripted-model', '--storage', fx.storage];
  const run = (cwd: string, extra: string[] = [], env: Record<string, string> = {}) =>
    runCli({ args: ['commit-message', ...modelArgs(), '--cwd', cwd, ...extra], env: { SMITH_API_KEY: 'sk-compat-key-0001', ...env } });

  /** A repository with a committed file changed but not staged, a new file staged, and one not tracked. */
  function mixedRepo() {
    const repo = newRepo({ initialFiles: { 'src/a.ts': 'export const a = 1;\n' } });
    repo.git(['commit', '-q', '--allow-empty', '-m', 'feat: add the a constant']);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.write('src/b.ts', 'export const b = "staged";\n');
    repo.git(['add', 'src/b.ts']);
    repo.write('src/c.ts', 'export const c = "untracked";\n');
    return repo;
  }

  test('with something staged, only the staged changes reach the model; the message is printed without the fence around it', async () => {
    const repo = mixedRepo();
    const indexBefore = readFileSync(join(repo.repo, '.git/index'));
    fx.server.enqueue({ text: '```\nAdd the b constant\n\nIt is staged on its own.\n```' });
    const result = await run(repo.repo);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'Add the b constant\n\nIt is staged on its own.\n');
    const prompt = lastUserText(fx.server.requestAt(0));
    assert.match(prompt, /The staged changes \(1 file\):\nA\tsrc\/b\.ts/);
    assert.match(prompt, /\+export const b = "staged";/);
    assert.doesNotMatch(prompt, /export const a = 2|untracked/);
    assert.match(prompt, /Recent commit subjects of this repository:\n- feat: add the a constant\n- first/);
    assert.match(systemPromptOf(fx.server.requestAt(0)), /You write git commit messages/);
    assert.deepEqual(readFileSync(join(repo.repo, '.git/index')), indexBefore, 'the index is untouched');
  });

  test('--all (and nothing staged) sends every change of the working tree, new files included, and leaves the index as it was', async () => {
    const repo = mixedRepo();
    const indexBefore = readFileSync(join(repo.repo, '.git/index'));
    fx.server.enqueue({ text: 'Change a, add b and c' });
    const all = await run(repo.repo, ['--all']);
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout, 'Change a, add b and c\n');
    const prompt = lastUserText(fx.server.requestAt(0));
    assert.match(prompt, /The changes of the working tree \(3 files\):\nM\tsrc\/a\.ts\nA\tsrc\/b\.ts\nA\tsrc\/c\.ts/);
    assert.match(prompt, /-export const a = 1;\n\+export const a = 2;/);
    assert.match(prompt, /\+export const c = "untracked";/);
    assert.deepEqual(readFileSync(join(repo.repo, '.git/index')), indexBefore, 'the index is untouched');
    assert.equal(repo.git(['status', '--porcelain']), ' M src/a.ts\nA  src/b.ts\n?? src/c.ts\n');

    repo.git(['reset', '-q']);
    fx.server.enqueue({ text: 'Everything' });
    const auto = await run(repo.repo);
    assert.equal(auto.code, 0, auto.stderr);
    assert.match(lastUserText(fx.server.requestAt(1)), /The changes of the working tree \(3 files\)/, 'nothing staged: all changes');
  });

  test('--staged with nothing staged, or a clean tree, is an error that asks no model; outside a repository too', async () => {
    const repo = newRepo();
    const clean = await run(repo.repo);
    assert.equal(clean.code, 1);
    assert.match(clean.stderr, /smith: there are no changes in .*repo \(nothing to write a commit message for\)/);
    repo.write('README.md', 'changed\n');
    const staged = await run(repo.repo, ['--staged']);
    assert.equal(staged.code, 1);
    assert.match(staged.stderr, /nothing is staged in /);
    const outside = await run(fx.storage);
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /is not in a git repository/);
    assert.equal(fx.server.requests.length, 0);
    const both = await run(repo.repo, ['--staged', '--all']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--staged and --all cannot be used together/);
  });

  test("the user's keys in a changed file are redacted before the diff is sent", async () => {
    const repo = newRepo();
    repo.write('deploy.env', 'DEPLOY_TOKEN=tok-0123456789abcdef\nKEY=sk-compat-key-0001\n');
    fx.server.enqueue({ text: 'Add the deploy settings' });
    const result = await run(repo.repo, [], { DEPLOY_TOKEN: 'tok-0123456789abcdef' });
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.stringify(fx.server.requestAt(0).body);
    assert.ok(!body.includes('tok-0123456789abcdef') && !body.includes('sk-compat-key-0001'), body);
    assert.match(lastUserText(fx.server.requestAt(0)), /\+DEPLOY_TOKEN=\[REDACTED\]\n\+KEY=\[REDACTED\]/);
  });

  test('files .smithignore fences off are named but their diff is never sent, staged or all, added, changed or deleted', async () => {
    const repo = newRepo({ initialFiles: { '.smithignore': 'secrets/\n*.pem\n', 'notes/old.pem': 'OLD-PEM-BODY\n' } });
    repo.write('secrets/prod.json', '{"password":"hunter2-unique"}\n');
    repo.write('src/app.ts', 'export const app = "visible-change";\n');
    repo.git(['rm', '-q', 'notes/old.pem']);
    repo.write('keys/server.pem', 'PRIVATE-PEM-BODY\n');
    for (const scope of ['--all', '--staged']) {
      if (scope === '--staged') repo.git(['add', '-A']);
      fx.server.enqueue({ text: 'Add the app' });
      const result = await run(repo.repo, [scope]);
      assert.equal(result.code, 0, result.stderr);
      const body = JSON.stringify(fx.server.requests.at(-1)!.body);
      for (const hidden of ['hunter2-unique', 'PRIVATE-PEM-BODY', 'OLD-PEM-BODY']) assert.ok(!body.includes(hidden), `${scope}: ${hidden} was sent`);
      const prompt = lastUserText(fx.server.requests.at(-1)!);
      assert.match(prompt, /\+export const app = "visible-change";/);
      assert.match(prompt, /withheld \(\.smithignore\): .*secrets\/prod\.json/);
      assert.match(prompt, /withheld \(\.smithignore\): .*keys\/server\.pem/);
      assert.match(prompt, /withheld \(\.smithignore\): .*notes\/old\.pem/);
    }
  });

  test('a large diff is cut to its files’ first lines; every file is still named', async () => {
    const repo = newRepo();
    repo.write('big.txt', Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n'));
    for (let i = 0; i < 30; i++) repo.write(`small/f${i}.txt`, `small ${i}\n`);
    fx.server.enqueue({ text: 'Add a big file and small ones' });
    const result = await run(repo.repo);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /the diff is large/);
    const prompt = lastUserText(fx.server.requestAt(0));
    assert.ok(prompt.length < 30_000, `prompt of ${prompt.length} characters`);
    assert.match(prompt, /\(31 files\):\nA\tbig\.txt/);
    assert.match(prompt, /A\tsmall\/f29\.txt/);
    assert.match(prompt, /\+line 0 x+\n/);
    assert.match(prompt, /\[… \d+ more lines of this file's diff left out\]/);
    assert.match(prompt, /\+small 29\n/, 'the small files keep their whole diffs');
  });

  test('--profile chooses an API profile of the settings file (a cheaper model); a repository without commits works', async () => {
    const repo = newRepo();
    repo.git(['update-ref', '-d', 'HEAD']);
    repo.git(['add', '-A']);
    writeFileSync(
      join(fx.storage, 'settings.json'),
      JSON.stringify({ profiles: { cheap: { provider: 'openai-compatible', model: 'cheap-model', baseUrl: fx.server.openAiBaseUrl } } }),
    );
    fx.server.enqueue({ text: 'Initial commit' });
    const result = await runCli({
      args: ['commit-message', '--profile', 'cheap', '--storage', fx.storage, '--cwd', repo.repo],
      env: { SMITH_API_KEY: 'sk-compat-key-0001' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'Initial commit\n');
    assert.equal(fx.server.requestAt(0).body.model, 'cheap-model');
    assert.match(lastUserText(fx.server.requestAt(0)), /The staged changes \(1 file\):\nA\tREADME\.md/);
    assert.doesNotMatch(lastUserText(fx.server.requestAt(0)), /Recent commit subjects/);
    const unknown = await runCli({ args: ['commit-message', '--profile', 'gone', '--storage', fx.storage, '--cwd', repo.repo] });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no API profile named "gone"; the profiles are cheap/);
  });

  test('a provider error is reported with exit code 1', async () => {
    const repo = newRepo();
    repo.write('README.md', 'changed\n');
    fx.server.enqueue({ fault: 'status', status: 401 });
    const result = await run(repo.repo);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^smith: .*401/m);
    assert.equal(result.stdout, '');
  });
});
