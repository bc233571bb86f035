// "Smith: Generate Commit Message" in the real workbench: two real git repositories opened in the
// built-in Git extension, the command run as the Source Control view's title button runs it (with
// that view's SourceControl, whose rootUri names the repository), the scripted LLM server as the
// model. The message lands in that repository's commit input box and nowhere else.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { CommitMessageOutcome } from '../../../../src/host/vscode/generate-commit-message';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';

interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
}
interface GitApi {
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
}

const KEY = 'sk-commit-key-0123456789';
const SETTINGS = ['provider', 'baseUrl', 'model', 'profiles', 'commitMessage.profile'];

function makeRepo(root: string): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Test');
  writeFileSync(join(root, 'app.ts'), 'export const app = 1;\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'Add the app');
}

describe('Generate Commit Message (Source Control view)', function () {
  this.timeout(120_000);
  let api: SmithApi;
  let server: ScriptedLlmServer;
  let git: GitApi;
  let repoA: GitRepository;
  let repoB: GitRepository;
  const workspace = process.env.SMITH_TEST_WORKSPACE!;
  const rootA = join(workspace, 'commit-a');
  const rootB = join(workspace, 'commit-b');
  const generate = (repository: GitRepository) =>
    vscode.commands.executeCommand<CommitMessageOutcome>('smith.generateCommitMessage', { rootUri: repository.rootUri });

  before(async () => {
    api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    server = await startScriptedLlmServer();
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    assert.ok(extension, 'the built-in git extension is in the workbench');
    git = (await extension.activate()).getAPI(1);
    makeRepo(rootA);
    makeRepo(rootB);
    repoA = (await git.openRepository(vscode.Uri.file(rootA)))!;
    repoB = (await git.openRepository(vscode.Uri.file(rootB)))!;
    assert.ok(repoA && repoB, 'both repositories are open in the Git extension');
  });

  afterEach(async () => {
    const config = vscode.workspace.getConfiguration('smith');
    for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await api.keys.store('openai-compatible', '');
    repoA.inputBox.value = '';
    repoB.inputBox.value = '';
  });

  after(async () => {
    await server.close();
  });

  async function configureScriptedModel(model = 'main-model'): Promise<void> {
    const config = vscode.workspace.getConfiguration('smith');
    await config.update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', server.openAiBaseUrl, vscode.ConfigurationTarget.Global);
    await config.update('model', model, vscode.ConfigurationTarget.Global);
    await api.keys.store('openai-compatible', KEY);
  }

  it('is a button in the title of git Source Control views', () => {
    const contributes = vscode.extensions.getExtension('smith.smith')!.packageJSON.contributes;
    assert.deepEqual(contributes.menus['scm/title'], [{ command: 'smith.generateCommitMessage', when: 'scmProvider == git', group: 'navigation' }]);
    const command = (contributes.commands as { command: string; icon?: string }[]).find((c) => c.command === 'smith.generateCommitMessage');
    assert.equal(command?.icon, '$(sparkle)');
  });

  it("writes the message for the pressed repository's staged changes into its input box, and only there", async () => {
    await configureScriptedModel();
    writeFileSync(join(rootA, 'app.ts'), 'export const app = "A changed";\n');
    writeFileSync(join(rootB, 'greet.ts'), 'export const greet = "staged in B";\n');
    writeFileSync(join(rootB, 'app.ts'), 'export const app = "unstaged in B";\n');
    execFileSync('git', ['add', 'greet.ts'], { cwd: rootB });
    const before = server.requests.length;
    server.enqueue({ text: '```\nAdd the greeting\n\nGreets in B.\n```' });
    const outcome = await generate(repoB);
    assert.deepEqual(outcome, { ok: true, message: 'Add the greeting\n\nGreets in B.', repository: rootB });
    assert.equal(repoB.inputBox.value, 'Add the greeting\n\nGreets in B.');
    assert.equal(repoA.inputBox.value, '', "the other repository's input box is untouched");
    const prompt = JSON.stringify(server.requests[before]!.body);
    assert.match(prompt, /staged in B/);
    assert.doesNotMatch(prompt, /unstaged in B|A changed/);
    assert.equal(server.requests[before]!.body.model, 'main-model');
  });

  it('with nothing staged it describes all changes, with smith.commitMessage.profile’s model, the keys redacted', async () => {
    await configureScriptedModel();
    const config = vscode.workspace.getConfiguration('smith');
    await config.update(
      'profiles',
      { cheap: { provider: 'openai-compatible', model: 'cheap-model', baseUrl: server.openAiBaseUrl } },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('commitMessage.profile', 'cheap', vscode.ConfigurationTarget.Global);
    execFileSync('git', ['reset', '-q'], { cwd: rootB });
    writeFileSync(join(rootA, 'secret.env'), `OPENAI_KEY=${KEY}\n`);
    const before = server.requests.length;
    server.enqueue({ text: 'Change the app and add settings' });
    const outcome = await generate(repoA);
    assert.equal(outcome?.ok, true, JSON.stringify(outcome));
    assert.equal(repoA.inputBox.value, 'Change the app and add settings');
    const request = server.requests[before]!;
    assert.equal(request.body.model, 'cheap-model');
    const prompt = JSON.stringify(request.body);
    assert.match(prompt, /A changed/);
    assert.match(prompt, /OPENAI_KEY=\[REDACTED\]/);
    assert.ok(!prompt.includes(KEY), 'the stored key is not sent');
  });

  it('no changes, an unknown profile and a provider error each leave the input box alone and say why', async () => {
    await configureScriptedModel();
    const clean = join(workspace, 'commit-c');
    makeRepo(clean);
    const repoC = (await git.openRepository(vscode.Uri.file(clean)))!;
    const before = server.requests.length;
    const none = await generate(repoC);
    assert.equal(none?.ok, false);
    assert.equal(none?.ok === false && none.reason, 'no-changes');
    assert.equal(server.requests.length, before, 'no model request');

    await vscode.workspace.getConfiguration('smith').update('commitMessage.profile', 'gone', vscode.ConfigurationTarget.Global);
    const unknown = await generate(repoA);
    assert.equal(unknown?.ok === false && unknown.reason, 'setup');
    assert.match(unknown?.ok === false ? unknown.error : '', /smith\.commitMessage\.profile names the profile "gone"/);
    await vscode.workspace.getConfiguration('smith').update('commitMessage.profile', undefined, vscode.ConfigurationTarget.Global);

    server.enqueue({ fault: 'status', status: 401 });
    const failed = await generate(repoA);
    assert.equal(failed?.ok === false && failed.reason, 'failed');
    assert.equal(repoA.inputBox.value, '');
  });
});
