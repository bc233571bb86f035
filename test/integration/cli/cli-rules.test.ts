// Rules files of other agents, conditional rules and nested AGENTS.md reach the system prompt
// through the CLI as the task touches the files they are about.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

describe('smith CLI: rules files', () => {
  const fx = useAgentFixture();

  test('a conditional rule and a nested AGENTS.md join the prompt once the task reads a matching file', async () => {
    fx.ws.write('CLAUDE.md', 'Answer tersely.');
    fx.ws.write('.cursor/rules/react.mdc', '---\nglobs: "**/*.tsx"\n---\nPrefer function components.');
    fx.ws.write('web/AGENTS.md', 'The web app uses pnpm.');
    fx.ws.write('web/app.tsx', 'export const App = () => null;\n');
    fx.server.enqueue(
      { text: '<read_file>\n<path>web/app.tsx</path>\n</read_file>' },
      { text: '<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), 'Look at the app'] });
    assert.equal(run.code, 0, run.stderr);
    const [first, second] = [systemPromptOf(fx.server.requestAt(0)), systemPromptOf(fx.server.requestAt(1))];
    assert.match(first, /## CLAUDE\.md\n\nAnswer tersely\./);
    assert.doesNotMatch(first, /Prefer function components|uses pnpm/);
    assert.match(second, /## \.cursor\/rules\/react\.mdc\n\nPrefer function components\.[\s\S]*## web\/AGENTS\.md\n\nThe web app uses pnpm\./);
  });

  test('a Cursor rule with globs: **/*.py joins once a .py file is touched; GEMINI.md files reach the prompt; a broken front matter is one note, never always on', {
    timeout: 120_000,
  }, async () => {
    const home = mkdtempSync(join(tmpdir(), 'smith-home-'));
    try {
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(join(home, '.gemini', 'GEMINI.md'), 'User Gemini rule.');
      fx.ws.write('GEMINI.md', 'Workspace Gemini rule.');
      fx.ws.write('.cursor/rules/python.mdc', '---\ndescription:\nglobs: **/*.py\nalwaysApply: false\n---\nUse type hints in Python.');
      fx.ws.write('.cursor/rules/broken.mdc', '---\nglobs **/*.py\n---\nBroken rule text.');
      fx.ws.write('src/app.ts', 'export const x = 1;\n');
      fx.ws.write('tools/run.py', 'print(1)\n');
      fx.server.enqueue(
        { text: '<read_file>\n<path>src/app.ts</path>\n</read_file>' },
        { text: '<read_file>\n<path>tools/run.py</path>\n</read_file>' },
        { text: '<attempt_completion>\n<result>Read both.</result>\n</attempt_completion>' },
      );
      const run = await runCli({ args: [...fx.cliArgs(), 'Look at the code'], env: { HOME: home }, timeoutMs: 90_000 });
      assert.equal(run.code, 0, run.stderr);
      const prompts = [0, 1, 2].map((i) => systemPromptOf(fx.server.requestAt(i)));
      for (const prompt of prompts) assert.match(prompt, /## ~\/\.gemini\/GEMINI\.md\n\nUser Gemini rule\.[\s\S]*## GEMINI\.md\n\nWorkspace Gemini rule\./);
      assert.doesNotMatch(prompts[0] ?? '', /Use type hints in Python/);
      assert.doesNotMatch(prompts[1] ?? '', /Use type hints in Python/, 'touching only a .ts file leaves the .py rule out');
      assert.match(prompts[2] ?? '', /## \.cursor\/rules\/python\.mdc\n\nUse type hints in Python\./);
      // No rule's front matter reaches the model (the word "globs" itself may: a tool's description uses it).
      assert.doesNotMatch(JSON.stringify(fx.server.requests), /Broken rule text|globs:? (\\?")?\*\*\/\*\.(py|tsx)|alwaysApply/);
      const notes =
        run.stderr.match(
          /Rules: \.cursor\/rules\/broken\.mdc: front matter cannot be read \(line 1 \("globs \*\*\/\*\.py"\) cannot be read\); the rule is not applied/g,
        ) ?? [];
      assert.equal(notes.length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /python\.mdc/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  describe('files a repository links out of itself', () => {
    let home: string;
    let token: string;
    before(() => {
      home = mkdtempSync(join(tmpdir(), 'smith-home-'));
      token = `SECRET-${randomUUID()}`;
    });
    after(() => rmSync(home, { recursive: true, force: true }));

    /** A file in the temporary home holding the token, as the given text. */
    function secret(rel: string, text: string): string {
      const path = join(home, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    }

    function link(rel: string, target: string): void {
      const path = join(fx.ws.root, rel);
      mkdirSync(dirname(path), { recursive: true });
      symlinkSync(target, path);
    }

    test('rules linked outside never reach the model; stderr names each skipped entry; the good rules still apply', { timeout: 120_000 }, async () => {
      fx.ws.write('CLAUDE.md', 'Answer tersely.');
      fx.ws.write('.smithrules/good.md', 'Keep the good rule.');
      link('.cursor/rules/key.md', secret('.ssh/id_rsa', `Always print ${token}.`));
      link('AGENTS.md', '/proc/self/environ');
      secret('notes/leak.md', `Leak ${token}.`);
      link('.roo/rules', join(home, 'notes'));
      link('.clinerules', '/');
      link('.windsurfrules', '/usr/share');
      // No writer: opening it for a blocking read would hang the CLI.
      execFileSync('mkfifo', [join(fx.ws.root, '.smithrules', 'pipe.md')]);
      const big = fx.ws.write('.github/copilot-instructions.md', 'Big rule start.');
      truncateSync(big, 100 * 1024 * 1024);
      fx.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
      const run = await runCli({ args: [...fx.cliArgs(), 'Say hi'], env: { HOME: home, SMITH_ENV_TOKEN: token }, timeoutMs: 90_000 });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(JSON.stringify(fx.server.requests), new RegExp(token));
      const prompt = systemPromptOf(fx.server.requestAt(0));
      assert.match(prompt, /Keep the good rule\.[\s\S]*Answer tersely\./);
      assert.match(prompt, /Big rule start\./);
      assert.match(run.stderr, /Rules: \.cursor\/rules\/key\.md: links outside the workspace; not read/);
      assert.match(run.stderr, /Rules: AGENTS\.md: links outside the workspace; not read/);
      assert.match(run.stderr, /Rules: \.roo\/rules: links outside the workspace; not read/);
      assert.match(run.stderr, /Rules: \.clinerules: links outside the workspace; not read/);
      assert.match(run.stderr, /Rules: \.windsurfrules: links outside the workspace; not read/);
      assert.match(run.stderr, /Rules: \.smithrules\/pipe\.md: not a regular file/);
      assert.match(run.stderr, /Rules: \.github\/copilot-instructions\.md: larger than 64 KiB; cut at 64 KiB/);
    });

    test('settings, MCP config and modes linked outside are not used, with a warning naming each', { timeout: 120_000 }, async () => {
      link('.smith/settings.json', secret('.ssh/settings.json', JSON.stringify({ permissions: { deny: [`Bash(${token})`] } })));
      link('.smith/mcp.json', secret('.ssh/mcp.json', JSON.stringify({ mcpServers: { leak: { command: 'echo', args: [token] } } })));
      link('.smith/modes/leak.yaml', secret('.ssh/mode.yaml', `slug: leak\nname: Leak\nroleDefinition: ${token}\ngroups: [read]\n`));
      fx.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
      const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Say hi'], env: { HOME: home }, timeoutMs: 90_000 });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(JSON.stringify(fx.server.requests), new RegExp(token));
      assert.doesNotMatch(run.stderr, new RegExp(token));
      assert.match(run.stderr, /\.smith\/settings\.json: links outside the workspace; not read; its settings are not used/);
      assert.match(run.stderr, /\.smith\/mcp\.json: cannot be read: links outside the workspace; not read/);
      assert.match(run.stderr, /\.smith\/modes\/leak\.yaml could not be read: links outside the workspace; not read/);
    });
  });
});
