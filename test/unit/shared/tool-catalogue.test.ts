import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { mcpToolsFor } from '../../../src/core/tools/mcp-tools.js';
import { workspaceTools } from '../../../src/core/session/task-environment.js';
import { BUILT_IN_MODES } from '../../../src/core/modes/built-in-modes.js';
import { allowedToolNames } from '../../../src/core/modes/tool-permissions.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { createUseSubagentsTool } from '../../../src/core/tools/use-subagents.js';
import { isToolName, ruleNameCovers, TOOL_CATALOGUE, TOOL_NAMES, toolEntry, toolsInGroup } from '../../../src/shared/tool-catalogue.js';
import { toolSubject, toolVerb } from '../../../src/shared/tool-subject.js';
import { isCommandTool, toolIcon } from '../../../webview-ui/src/chat/tool-display.js';

// Every tool a task can have, registered as createTaskEnvironment and the hosts register them.
const registered = new ToolRegistry([
  ...workspaceTools(),
  createUseSubagentsTool(async () => [], { maxParallel: () => 1, listing: () => '' }),
  ...mcpToolsFor(new McpHub()),
]);
const specs = registered.specs();
const code = BUILT_IN_MODES.find((mode) => mode.slug === 'code')!;

describe('the tool catalogue against the registered tools', () => {
  test('every registered tool has a row, and every row is a registered tool', () => {
    assert.deepEqual(specs.map((spec) => spec.name).sort(), [...TOOL_NAMES].sort());
  });

  test("a registered tool's group is its row's", () => {
    for (const spec of specs) assert.equal(spec.group, toolEntry(spec.name)?.group, spec.name);
  });

  test('Plan and Act offer exactly the tools whose rows name them (under a mode that grants every group)', () => {
    for (const mode of ['plan', 'act'] as const) {
      const expected = TOOL_NAMES.filter((name) => TOOL_CATALOGUE[name].planAct.includes(mode)).sort();
      assert.deepEqual([...allowedToolNames(specs, mode, code)].sort(), expected, mode);
    }
  });

  test('Plan mode offers every read tool and no tool that edits or runs commands', () => {
    const plan = allowedToolNames(specs, 'plan', code);
    for (const name of toolsInGroup('read')) assert.ok(plan.has(name), `${name} is a read tool missing from Plan mode`);
    for (const name of [...toolsInGroup('edit'), ...toolsInGroup('command')]) assert.ok(!plan.has(name), `${name} is offered in Plan mode`);
    assert.ok(plan.has('plan_mode_respond') && !plan.has('attempt_completion'));
    const act = allowedToolNames(specs, 'act', code);
    assert.ok(act.has('attempt_completion') && !act.has('plan_mode_respond'));
  });

  test('every tool is offered in some mode', () => {
    for (const name of TOOL_NAMES) assert.ok(TOOL_CATALOGUE[name].planAct.length > 0, name);
  });

  test('a tool a permission rule covers has the parameter that rule judges', () => {
    const judged = { Read: 'path', Edit: 'path', Write: 'path', Bash: 'command', WebFetch: 'url', WebSearch: 'query', mcp__: 'server_name' } as const;
    for (const spec of specs) {
      const params = spec.params.map((param) => param.name);
      for (const rule of toolEntry(spec.name)!.rules) assert.ok(params.includes(judged[rule]), `${spec.name} has no ${judged[rule]} for ${rule} rules`);
    }
  });

  test('path rules cover only file tools: Read the read group, Edit and Write the edit group', () => {
    for (const name of TOOL_NAMES) {
      const { group } = TOOL_CATALOGUE[name];
      if (ruleNameCovers('Read', name)) assert.equal(group, 'read', name);
      if (ruleNameCovers('Edit', name) || ruleNameCovers('Write', name)) assert.equal(group, 'edit', name);
      if (ruleNameCovers('Bash', name)) assert.equal(group, 'command', name);
    }
    // Every edit tool is judged by Edit rules, so an `Edit(…)` deny holds on each of them.
    for (const name of toolsInGroup('edit')) assert.ok(ruleNameCovers('Edit', name), name);
  });

  test('every sub-agent has only reading tools; edits and commands only when granted; never more sub-agents, questions or the browser', () => {
    const always = TOOL_NAMES.filter((name) => TOOL_CATALOGUE[name].subagents === 'always');
    for (const name of always) {
      const { group } = TOOL_CATALOGUE[name];
      assert.ok(
        group === 'read' || group === 'mcp' || name === 'web_fetch' || name === 'web_search' || name === 'attempt_completion',
        `${name} is given to every sub-agent`,
      );
    }
    const granted = TOOL_NAMES.filter((name) => TOOL_CATALOGUE[name].subagents === 'granted');
    for (const name of granted) assert.ok(['edit', 'command'].includes(TOOL_CATALOGUE[name].group), `${name} may be granted to a sub-agent`);
    for (const never of ['use_subagents', 'ask_followup_question', 'browser_action', 'new_task', 'plan_mode_respond', 'new_rule'] as const)
      assert.equal(TOOL_CATALOGUE[never].subagents, 'never', never);
    assert.ok(always.includes('attempt_completion'), 'a sub-agent reports with attempt_completion');
  });

  test('web_search is offered in Plan mode and by modes that only read (ask, architect), under the Web auto-approve switch', () => {
    for (const slug of ['ask', 'architect', 'code']) {
      const mode = BUILT_IN_MODES.find((m) => m.slug === slug)!;
      for (const planAct of ['plan', 'act'] as const) assert.ok(allowedToolNames(specs, planAct, mode).has('web_search'), `${slug} ${planAct}`);
    }
    // The switch is its group's, as web_fetch's: a read-only mode offering it does not approve it with reads.
    assert.equal(TOOL_CATALOGUE.web_search.group, 'browser');
    const ask = BUILT_IN_MODES.find((m) => m.slug === 'ask')!;
    assert.ok(!allowedToolNames(specs, 'act', ask).has('web_fetch'), 'alsoIn is web_search’s own');
  });

  test("Claude Code's names (hook matchers and agent files' tools) name one tool each", () => {
    const names = TOOL_NAMES.flatMap((name) => [
      ...(toolEntry(name)?.claudeName ? [toolEntry(name)!.claudeName!] : []),
      ...(toolEntry(name)?.claudeAliases ?? []),
    ]);
    assert.equal(new Set(names).size, names.length, names.join(', '));
  });
});

describe('what the panel and the CLI show of a tool', () => {
  const codicons = readFileSync(join(__dirname, '../../../node_modules/@vscode/codicons/dist/codicon.css'), 'utf8');

  test('every icon is a codicon the panel ships', () => {
    for (const name of TOOL_NAMES) {
      const icon = TOOL_CATALOGUE[name].icon;
      assert.ok(codicons.includes(`.codicon-${icon}:before`), `${name}: no codicon "${icon}"`);
      assert.equal(toolIcon(name), icon);
    }
  });

  test('every tool has a verb of its own; a new file is "Create"', () => {
    const verbs = TOOL_NAMES.map((name) => toolVerb(name));
    assert.equal(new Set(verbs).size, verbs.length);
    for (const [index, name] of TOOL_NAMES.entries()) assert.notEqual(verbs[index], name, `${name} has no verb`);
    assert.equal(toolVerb('write_to_file', true), 'Create');
    assert.equal(toolVerb('write_to_file'), 'Write');
    assert.equal(toolVerb('replace_in_file', true), 'Edit');
  });

  test('a tool Smith does not know keeps its name and a generic icon, also when it is named like an object property', () => {
    for (const name of ['my_server_tool', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      assert.equal(isToolName(name), false, name);
      assert.equal(toolEntry(name), undefined, name);
      assert.equal(toolVerb(name), name);
      assert.equal(toolIcon(name), 'tools');
      assert.equal(isCommandTool(name), false);
      assert.equal(ruleNameCovers('Read', name), false);
    }
  });

  test("a web search's card and progress line read as web_fetch's do: its verb, then what it is about (the query)", () => {
    assert.deepEqual(toolSubject('web_fetch', { url: 'https://nodejs.org/api/fs.html' }), { kind: 'text', text: 'https://nodejs.org/api/fs.html' });
    assert.deepEqual(toolSubject('web_search', { query: 'node fs cp', max_results: '3' }), { kind: 'text', text: 'node fs cp' });
    assert.equal(toolVerb('web_search'), 'Search web');
    assert.equal(toolIcon('web_search'), 'search');
  });

  test('the command card is the command tool only', () => {
    assert.deepEqual(
      TOOL_NAMES.filter((name) => isCommandTool(name)),
      ['execute_command'],
    );
  });
});
