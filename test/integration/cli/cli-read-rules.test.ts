// A Read deny (or ask) rule keeps a file's bytes from the model on every path: searches, outlines,
// @-mentions, rules files, edits, sub-agents. Each test plants the same secret and checks every
// request the scripted model server received.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import type { ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { allText, lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';
import { conversationRouter } from '../../helpers/conversation-router.js';

const TOKEN = 'SMITH-SECRET-7f3a9c';
const done: ScriptedReply = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };
const search = (path: string, regex: string, filePattern?: string): ScriptedReply => ({
  text: `<search_files>\n<path>${path}</path>\n<regex>${regex}</regex>\n${filePattern ? `<file_pattern>${filePattern}</file_pattern>\n` : ''}</search_files>`,
});
const call = (tool: string, params: Record<string, string>): ScriptedReply => ({
  text: `<${tool}>\n${Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('\n')}\n</${tool}>`,
});

describe('smith CLI: a Read rule withholds a file on every path', () => {
  const fx = useAgentFixture();

  /** No request the model server received holds the secret. */
  const assertNeverSent = () => {
    for (const [i, request] of fx.server.requests.entries()) assert.doesNotMatch(allText(request), new RegExp(TOKEN), `request ${i} carried the secret`);
  };

  test('search_files: plain, regex, file pattern, parent folder, folder link, file link, second folder; the withheld file is named', async () => {
    fx.ws.write('config/.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('config/app.json', '{ "name": "app", "key": "API_KEY" }\n');
    symlinkSync(join(fx.ws.root, 'config'), join(fx.ws.root, 'linked'));
    symlinkSync(join(fx.ws.root, 'config/.env'), join(fx.ws.root, 'env-link'));
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'smith-second-')));
    try {
      mkdirSync(join(other, 'deep'));
      writeFileSync(join(other, 'deep/.env'), `OTHER=${TOKEN}\n`);
      const otherName = basename(other);
      fx.server.enqueue(
        search('.', '7f3a9c$'),
        search('config', 'API_KEY.*'),
        search('.', 'SMITH', '*'),
        search('.', '.', '.env*'),
        search('linked', 'SECRET'),
        search('env-link', 'SECRET'),
        search(otherName, 'SECRET'),
        done,
      );
      const run = await runCli({ args: [...fx.cliArgs(), '--add-dir', other, '--yes', '--deny', 'Read(.env)', 'Find the key'] });
      assert.equal(run.code, 0, run.stderr);
      assertNeverSent();
      const result = (i: number) => lastUserText(fx.server.requestAt(i));
      assert.match(result(1), /Found 0 results\.[\s\S]*withheld by the user's Read rules: [^\]]*config\/\.env \(denied by Read\(\.env\)\)/);
      assert.match(result(1), new RegExp(`${otherName}/deep/\\.env \\(denied by Read\\(\\.env\\)\\)`), "the second folder's file is named too");
      assert.match(result(2), /config\/app\.json/, 'other files are still searched');
      assert.match(result(2), /config\/\.env \(denied by Read\(\.env\)\)/);
      assert.match(result(3), /withheld by the user's Read rules/);
      assert.match(result(4), /withheld by the user's Read rules: [^\]]*\.env/, 'a file pattern naming the file withholds it too');
      assert.match(result(5), /config\/\.env \(denied by Read\(\.env\)\)/, 'through a folder link: searched where it leads');
      assert.match(result(6), /permission rule Read\(\.env\) \(--deny\) denies this call/, 'a link to the file is judged where it leads');
      assert.match(result(7), new RegExp(`${otherName}/deep/\\.env`));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('search_files names a withheld file whether or not it matches, so the regex cannot probe it', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('notes.md', 'nothing here\n');
    fx.server.enqueue(search('.', 'SMITH-SECRET-7f'), search('.', 'no-such-text-anywhere'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(.env)', 'Probe'] });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    const strip = (text: string) =>
      text
        .replace(/<environment_details>[\s\S]*$/, '')
        .replace(/Found 0 results\./, '')
        .trim();
    assert.equal(
      strip(lastUserText(fx.server.requestAt(1))).replace(/search_files for '[^']*'/, ''),
      strip(lastUserText(fx.server.requestAt(2))).replace(/search_files for '[^']*'/, ''),
    );
    assert.match(lastUserText(fx.server.requestAt(2)), /1 file withheld by the user's Read rules: \.env \(denied by Read\(\.env\)\)/);
  });

  test('an ask rule withholds the file from a search and says how to read it', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.server.enqueue(search('.', 'API_KEY'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--ask', 'Read(.env)', 'Find the key'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    assert.match(lastUserText(fx.server.requestAt(1)), /\.env \(Read\(\.env\) asks the user first; read it with read_file to be asked\)/);
  });

  test('list_code_definition_names over a folder skips and names a withheld source file', async () => {
    fx.ws.write('src/secret.ts', `export function ${TOKEN.replace(/-/g, '_')}() {}\nexport class Vault {}\n`);
    fx.ws.write('src/open.ts', 'export function openDoor() {}\n');
    fx.server.enqueue(call('list_code_definition_names', { path: 'src' }), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(src/secret.ts)', 'Outline'] });
    assert.equal(run.code, 0, run.stderr);
    for (const request of fx.server.requests) assert.doesNotMatch(allText(request), /SMITH_SECRET|Vault/);
    const result = lastUserText(fx.server.requestAt(1));
    assert.match(result, /openDoor/);
    assert.match(result, /src\/secret\.ts \(denied by Read\(src\/secret\.ts\)\)/);
  });

  test('@-mentions of a withheld file, directly and through a link, are named and not attached', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    symlinkSync(join(fx.ws.root, '.env'), join(fx.ws.root, 'settings.txt'));
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--deny', 'Read(.env)', 'Use @.env and @settings.txt'] });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    const sent = allText(fx.server.requestAt(0));
    assert.match(sent, /@\.env withheld: denied by Read\(\.env\)\./);
    assert.match(sent, /@settings\.txt withheld: denied by Read\(\.env\)\./);
  });

  test("@git-changes leaves a withheld file's changes out and names it", async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: fx.ws.root });
    fx.ws.write('.env', 'API_KEY=old\n');
    fx.ws.write('a.txt', 'one\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'start');
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('a.txt', 'two\n');
    git('commit', '-qam', 'change');
    fx.ws.write('.env', `API_KEY=${TOKEN}-2\n`);
    fx.ws.write('a.txt', 'three\n');
    const head = git('rev-parse', '--short', 'HEAD').toString().trim();
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--deny', 'Read(.env)', `Look at @git-changes and @${head}`] });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    const sent = allText(fx.server.requestAt(0));
    assert.match(sent, /\+three/);
    assert.match(sent, /\+two/);
    assert.equal(sent.match(/1 file withheld by the user's Read rules: \.env \(denied by Read\(\.env\)\)/g)?.length, 2);
  });

  test('a rules file that is denied, or links to a denied file, is named in the prompt and not read', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('AGENTS.md', `Always print ${TOKEN}-agents\n`);
    fx.ws.write('.clinerules/style.md', 'Use tabs.\n');
    symlinkSync(join(fx.ws.root, '.env'), join(fx.ws.root, '.clinerules/env.md'));
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--deny', 'Read(.env)', '--deny', 'Read(AGENTS.md)', 'Go'] });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    const prompt = systemPromptOf(fx.server.requestAt(0));
    assert.match(prompt, /Use tabs\./);
    assert.match(prompt, /Rules file AGENTS\.md withheld: denied by Read\(AGENTS\.md\)/);
    assert.match(prompt, /Rules file \.clinerules\/env\.md withheld: denied by Read\(\.env\)/);
  });

  test('a mode whose file is denied, or links to a denied file, keeps its tools but its text is named in the prompt and not sent', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write(
      '.smith/modes/vault.yaml',
      `slug: vault\nname: Vault\nroleDefinition: You guard ${TOKEN}-role.\ncustomInstructions: Print ${TOKEN}-custom.\ngroups: [read]\n`,
    );
    fx.ws.write('.smith/modes/plain.yaml', 'slug: plain\nname: Plain\nroleDefinition: You are the plain reviewer.\ngroups: [read]\n');
    fx.server.enqueue(done, done);
    const denied = await runCli({ args: [...fx.cliArgs(), '--trust-workspace', '--deny', 'Read(.smith/modes/**)', '--mode', 'vault', 'Go'] });
    assert.equal(denied.code, 0, denied.stderr);
    assertNeverSent();
    const prompt = systemPromptOf(fx.server.requestAt(0));
    assert.match(prompt, /Mode file \.smith\/modes\/vault\.yaml withheld: denied by Read\(\.smith\/modes\/\*\*\)/);
    assert.doesNotMatch(prompt, /write_to_file/, "the mode's tool groups still hold");
    // A mode file that is a link to the denied file is judged as that file.
    rmSync(join(fx.ws.root, '.smith/modes/vault.yaml'));
    fx.ws.write('.env', `slug: vault\nname: Vault\nroleDefinition: You guard ${TOKEN}-linked.\ngroups: [read]\n`);
    symlinkSync(join(fx.ws.root, '.env'), join(fx.ws.root, '.smith/modes/vault.yaml'));
    const linked = await runCli({ args: [...fx.cliArgs(), '--trust-workspace', '--deny', 'Read(.env)', '--mode', 'vault', 'Go'] });
    assert.equal(linked.code, 0, linked.stderr);
    assertNeverSent();
    assert.match(systemPromptOf(fx.server.requestAt(1)), /Mode file \.smith\/modes\/vault\.yaml withheld: denied by Read\(\.env\)/);
  });

  test('edits of a denied file are refused before its content is shown', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\nDEBUG=1\n`);
    fx.server.enqueue(
      call('replace_in_file', { path: '.env', diff: '------- SEARCH\nAPI_KEY=wrong\n=======\nAPI_KEY=x\n+++++++ REPLACE' }),
      call('write_to_file', { path: 'env-copy/../.env', content: 'A=1' }),
      done,
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(.env)', 'Fix the key'] });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    assert.match(lastUserText(fx.server.requestAt(1)), /Read\(\.env\) \(--deny\) keeps this file's content from you, and an edit would show it/);
    assert.match(lastUserText(fx.server.requestAt(2)), /keeps this file's content from you/);
    assert.equal(fx.ws.read('.env'), `API_KEY=${TOKEN}\nDEBUG=1\n`);
  });

  test('a sub-agent searches under the same rules', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('readme.md', 'API_KEY goes in .env\n');
    const router = conversationRouter({
      'Where is the key': [call('use_subagents', { prompts: '["Helper: search for API_KEY"]' }), done],
      'Helper: search': [search('.', 'API_KEY'), done],
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(.env)', 'Where is the key?'] });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    const helperResult = fx.server.requests.map((r) => lastUserText(r)).find((text) => text.includes('readme.md') && text.includes('Found'));
    assert.ok(helperResult, 'the sub-agent got its search result');
    assert.match(helperResult, /\.env \(denied by Read\(\.env\)\)/);
  });

  test("a command file's @-mention of a withheld file is named; a withheld command file is not sent", async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('.claude/commands/check.md', 'Check the settings in @.env please.');
    fx.ws.write('.claude/commands/vault.md', `Open the vault with ${TOKEN}-command.`);
    fx.server.enqueue(done);
    const cli = startCliOnPty([...fx.cliArgs(), '--deny', 'Read(.env)', '--deny', 'Read(.claude/commands/vault.md)']);
    try {
      await cli.type('/vault', 1);
      await cli.waitFor(/\/vault was not sent: its file \.claude\/commands\/vault\.md is withheld \(denied by Read\(\.claude\/commands\/vault\.md\)\)\./);
      await cli.type('/check', 2);
      await cli.waitFor(/Done\./);
      await cli.type('/exit', 3);
    } catch (error) {
      cli.kill();
      throw new Error(`${(error as Error).message}\n--- terminal ---\n${cli.output}`);
    }
    assert.equal(await cli.exited, 0);
    assert.equal(fx.server.requests.length, 1);
    assertNeverSent();
    assert.match(allText(fx.server.requestAt(0)), /Check the settings in @\.env please\.[\s\S]*@\.env withheld: denied by Read\(\.env\)\./);
  });

  test("a replay holds the settings files' Read rules: its search withholds the file too", async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.ws.write('readme.md', 'API_KEY goes in .env\n');
    fx.ws.write('.smith/settings.json', JSON.stringify({ permissions: { ask: ['Read(.env)'] } }));
    fx.server.enqueue(search('.', 'API_KEY'), done);
    const original = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Find the key in @.env'], stdin: '' });
    assert.equal(original.code, 0, original.stderr);
    const { taskId } = JSON.parse(original.stdout) as { taskId: string };
    fx.server.requests.length = 0;
    fx.server.enqueue(search('.', 'API_KEY'), done);
    const replay = await runCli({
      args: [
        'replay',
        taskId,
        '--provider',
        'openai-compatible',
        '--base-url',
        fx.server.openAiBaseUrl,
        '--model',
        'other-model',
        '--storage',
        fx.storage,
        '--output',
        'json',
      ],
    });
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(fx.server.requests.length, 2);
    assertNeverSent();
    assert.match(allText(fx.server.requestAt(0)), /@\.env withheld: Read\(\.env\) asks the user first/);
    assert.match(lastUserText(fx.server.requestAt(1)), /\.env \(Read\(\.env\) asks the user first; read it with read_file to be asked\)/);
  });

  test('the task a new_task call starts searches under the same rules', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.server.enqueue(call('new_task', { context: 'Go on: search for API_KEY' }), search('.', 'API_KEY'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(.env)', 'Start'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.server.requests.length, 3);
    assertNeverSent();
    assert.match(lastUserText(fx.server.requestAt(2)), /\.env \(denied by Read\(\.env\)\)/);
  });

  test('under an ask rule an edit waits for an approved read of the file', async () => {
    fx.ws.write('.env', `API_KEY=${TOKEN}\n`);
    fx.server.enqueue(
      call('replace_in_file', { path: '.env', diff: '------- SEARCH\nAPI_KEY=wrong\n=======\nAPI_KEY=x\n+++++++ REPLACE' }),
      call('read_file', { path: '.env' }),
      done,
    );
    // No one answers: the read is asked and refused, so the file stays withheld.
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--ask', 'Read(.env)', 'Fix the key'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assertNeverSent();
    assert.match(
      lastUserText(fx.server.requestAt(1)),
      /Read\(\.env\) \(--ask\) asks before this file's content reaches you, and an edit would show it\. Read it with read_file first/,
    );
    assert.match(run.stderr, /The permission rule Read\(\.env\) asks for this call\./);
  });

  test('under an ask rule, once the user let the file be read, an edit of it runs', async () => {
    fx.ws.write('.env', 'API_KEY=old\n');
    fx.server.enqueue(
      call('read_file', { path: '.env' }),
      call('replace_in_file', { path: '.env', diff: '------- SEARCH\nAPI_KEY=old\n=======\nAPI_KEY=new\n+++++++ REPLACE' }),
      done,
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--ask', 'Read(.env)', 'Fix the key'], stdin: 'y\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(lastUserText(fx.server.requestAt(1)), /1 \| API_KEY=old/);
    assert.equal(fx.ws.read('.env'), 'API_KEY=new\n');
  });
});
