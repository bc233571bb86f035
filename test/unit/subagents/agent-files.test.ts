import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadAgents, parseAgentFile } from '../../../src/core/subagents/agent-files.js';
import { agentProvider } from '../../../src/core/subagents/agent-model.js';
import { mcpToolAllowed } from '../../../src/core/subagents/agent-tools.js';
import { ScriptedProvider } from '../../helpers/scripted-provider.js';

const agent = (fields: string, body = 'You review code.') => `---\n${fields}\n---\n${body}\n`;

describe('agent files', () => {
  test("Claude Code's tool names, aliases and Smith's own map onto Smith's tools; attempt_completion is always there", () => {
    const parsed = parseAgentFile(
      'a.md',
      agent('name: reviewer\ndescription: Reviews.\ntools: Read, Grep, Glob, MultiEdit, Write, Bash, WebFetch, list_code_definition_names'),
    );
    assert.ok(typeof parsed !== 'string', String(parsed));
    assert.deepEqual([...parsed.tools.tools].sort(), [
      'attempt_completion',
      'execute_command',
      'list_code_definition_names',
      'list_files',
      'read_file',
      'replace_in_file',
      'search_files',
      'web_fetch',
      'write_to_file',
    ]);
    assert.deepEqual(parsed.tools.ignored, []);
    assert.equal(parsed.prompt, 'You review code.');
    assert.equal(parsed.model, undefined);
  });

  test('a YAML list works as well as a line; MCP names are kept; unknown and forbidden tools are left out and said', () => {
    const parsed = parseAgentFile(
      'a.md',
      agent(
        'name: helper\ndescription: Helps.\ntools:\n  - Read\n  - mcp__github__create_issue\n  - WebSearch\n  - Task\n  - use_subagents\n  - Frobnicate\nmodel: opus',
      ),
    );
    assert.ok(typeof parsed !== 'string', String(parsed));
    // Claude Code's WebSearch is Smith's web_search.
    assert.deepEqual([...parsed.tools.tools].sort(), ['attempt_completion', 'read_file', 'use_mcp_tool', 'web_search']);
    assert.deepEqual(parsed.tools.mcp, ['mcp__github__create_issue']);
    assert.equal(parsed.tools.ignored.length, 3);
    assert.match(parsed.tools.ignored.join(' | '), /^Task .* \| use_subagents \(sub-agents cannot have it\) \| Frobnicate \(no such tool\)/);
    assert.equal(parsed.model, 'opus');
  });

  test('without tools an agent inherits every tool a sub-agent may have, and every MCP tool; `inherit` is no model of its own', () => {
    const parsed = parseAgentFile('a.md', agent('name: all\ndescription: Everything.\nmodel: inherit'));
    assert.ok(typeof parsed !== 'string', String(parsed));
    assert.ok(parsed.tools.tools.includes('write_to_file') && parsed.tools.tools.includes('execute_command'));
    assert.ok(!parsed.tools.tools.includes('use_subagents') && !parsed.tools.tools.includes('ask_followup_question'));
    assert.deepEqual(parsed.tools.mcp, ['mcp__']);
    assert.equal(parsed.model, undefined);
  });

  test('a broken file says what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['no front matter', /no front matter/],
      [agent('name: Bad Name\ndescription: x'), /name must be/],
      [agent('name: ok'), /no description/],
      [agent('name: ok\ndescription: x', ''), /body .* is empty/],
      [agent('name: ok\ndescription: x\ntools: 3'), /tools must be/],
      [agent('name: ok\ndescription: x\nmodel: ""'), /model must be/],
      ['---\nname: [unclosed\n---\nbody', /not valid YAML/],
    ];
    for (const [text, problem] of cases) {
      const parsed = parseAgentFile('x.md', text);
      assert.equal(typeof parsed, 'string', text);
      assert.match(parsed as string, problem);
    }
  });

  test('MCP patterns: a server, a server’s tool, or every server', () => {
    assert.ok(mcpToolAllowed(['mcp__github__create_issue'], 'github', 'create_issue'));
    assert.ok(!mcpToolAllowed(['mcp__github__create_issue'], 'github', 'delete_repo'));
    assert.ok(mcpToolAllowed(['mcp__github'], 'github', 'delete_repo'));
    assert.ok(!mcpToolAllowed(['mcp__github'], 'githubber', 'x'));
    assert.ok(mcpToolAllowed(['mcp__'], 'any', 'thing'));
  });
});

describe('loading agents', () => {
  let root: string;
  let home: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'smith-agents-ws-'));
    home = mkdtempSync(join(tmpdir(), 'smith-agents-home-'));
    outside = mkdtempSync(join(tmpdir(), 'smith-agents-out-'));
  });
  afterEach(() => {
    for (const dir of [root, home, outside]) rmSync(dir, { recursive: true, force: true });
  });

  function put(dir: string, name: string, text: string): string {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  }

  test('the workspace wins over the user, .smith over .claude; a broken file is reported and skipped', () => {
    put(home, 'rev.md', agent('name: rev\ndescription: user rev'));
    put(home, 'only-user.md', agent('name: only-user\ndescription: mine'));
    put(join(root, '.claude/agents'), 'rev.md', agent('name: rev\ndescription: claude rev'));
    put(join(root, '.smith/agents'), 'rev.md', agent('name: rev\ndescription: smith rev'));
    put(join(root, '.smith/agents'), 'broken.md', 'nothing here');
    put(join(root, '.smith/agents'), 'notes.txt', agent('name: ignored\ndescription: not markdown'));
    const catalog = loadAgents({ userDirs: [home], workspaceRoot: root });
    assert.deepEqual(catalog.agents.map((a) => [a.name, a.description]).sort(), [
      ['only-user', 'mine'],
      ['rev', 'smith rev'],
    ]);
    assert.equal(catalog.problems.length, 1);
    assert.match(catalog.problems[0]!, /broken\.md is not used: it has no front matter/);
  });

  test("a workspace link out of the workspace is not read, nor a file over 64 KiB; the user's own links are followed", () => {
    const secret = put(outside, 'secret.md', agent('name: stolen\ndescription: from outside'));
    mkdirSync(join(root, '.claude/agents'), { recursive: true });
    symlinkSync(secret, join(root, '.claude/agents/stolen.md'));
    put(join(root, '.claude/agents'), 'huge.md', agent('name: huge\ndescription: big', 'x'.repeat(70 * 1024)));
    mkdirSync(home, { recursive: true });
    symlinkSync(secret, join(home, 'linked.md'));
    const catalog = loadAgents({ userDirs: [home], workspaceRoot: root });
    assert.deepEqual(
      catalog.agents.map((a) => [a.name, a.source]),
      [['stolen', join(home, 'linked.md')]],
    );
    assert.equal(catalog.problems.length, 2, catalog.problems.join('\n'));
    assert.match(catalog.problems.join('\n'), /stolen\.md could not be read/);
    assert.match(catalog.problems.join('\n'), /huge\.md could not be read/);
  });

  test('workspace agents wait for trust, for exactly these files: a change asks again', () => {
    put(home, 'mine.md', agent('name: mine\ndescription: mine'));
    const file = put(join(root, '.claude/agents'), 'repo.md', agent('name: repo\ndescription: repo'));
    const answers = new Map<string, 'trusted' | 'denied'>();
    const trust = (key: string, fingerprint: string) => answers.get(`${key}|${fingerprint}`) ?? 'unknown';
    const first = loadAgents({ userDirs: [home], workspaceRoot: root, trust });
    assert.deepEqual(
      first.agents.map((a) => a.name),
      ['mine'],
    );
    assert.deepEqual(first.heldBack?.files, [file]);
    assert.equal(first.heldBack?.decision, 'unknown');
    assert.equal(first.heldBack?.trustKey, `${root}#agents`);
    answers.set(`${first.heldBack!.trustKey}|${first.heldBack!.fingerprint}`, 'trusted');
    assert.deepEqual(
      loadAgents({ userDirs: [home], workspaceRoot: root, trust })
        .agents.map((a) => a.name)
        .sort(),
      ['mine', 'repo'],
    );
    writeFileSync(file, agent('name: repo\ndescription: repo, now with Bash\ntools: Bash'));
    const changed = loadAgents({ userDirs: [home], workspaceRoot: root, trust });
    assert.deepEqual(
      changed.agents.map((a) => a.name),
      ['mine'],
    );
    assert.equal(changed.heldBack?.decision, 'unknown');
  });
});

describe("an agent's model", () => {
  const parent = new ScriptedProvider({ modelId: 'main-model' });
  const built: string[] = [];
  const withModel = (model: string) => {
    built.push(model);
    return new ScriptedProvider({ modelId: model });
  };

  test('absent or inherit: the parent’s; an id: that model on the main provider', () => {
    assert.equal(agentProvider(undefined, parent, withModel).provider, parent);
    assert.equal(agentProvider('inherit', parent, withModel).provider, parent);
    assert.equal(agentProvider('other-model', parent, withModel).provider.modelId, 'other-model');
    assert.equal(agentProvider('main-model', parent, withModel).provider, parent);
    const none = agentProvider('other-model', parent, undefined);
    assert.equal(none.provider, parent);
    assert.match(none.note ?? '', /cannot be chosen here/);
  });

  test("sonnet, opus, haiku: the family's newest Claude model on Anthropic's API, else the parent's model with a note", () => {
    const anthropic = Object.assign(new ScriptedProvider({ modelId: 'claude-opus-4-1' }), { id: 'anthropic' as const });
    assert.equal(agentProvider('sonnet', anthropic, withModel).provider.modelId, 'claude-sonnet-4-5');
    assert.equal(agentProvider('HAIKU', anthropic, withModel).provider.modelId, 'claude-haiku-4-5');
    assert.equal(agentProvider('opus', anthropic, withModel).provider, anthropic, 'already an opus model');
    const elsewhere = agentProvider('sonnet', parent, withModel);
    assert.equal(elsewhere.provider, parent);
    assert.match(elsewhere.note ?? '', /names a Claude model; openai-compatible runs it with the task's model main-model/);
  });
});
