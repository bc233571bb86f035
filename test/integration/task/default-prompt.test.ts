// The default system prompt (code mode, Act, every built-in tool) stays lean: under 4,000 o200k
// tokens, each tool described once by its parameters and an example (no per-tool "Usage" block
// repeating the XML form the Tool use section already shows).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { estimateTextTokens } from '../../../src/core/context/token-estimate.js';
import { CommandSessions } from '../../../src/core/process/command-sessions.js';
import type { ApiProvider } from '../../../src/core/providers/types.js';
import { workspaceTools } from '../../../src/core/session/task-environment.js';
import { DEFAULT_SUBAGENT_SETTINGS } from '../../../src/core/subagents/subagent-runner.js';
import { setupTurn } from '../../../src/core/task/turn-setup.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { createUseSubagentsTool } from '../../../src/core/tools/use-subagents.js';

const NO_PROVIDER: ApiProvider = {
  id: 'anthropic',
  modelId: 'claude-sonnet-4-5',
  createMessage: () => {
    throw new Error('no request is sent');
  },
};

describe('the default system prompt', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'smith-prompt-'));
  const tools = new ToolRegistry([
    ...workspaceTools(new CommandSessions()),
    createUseSubagentsTool(async () => [], { maxParallel: () => DEFAULT_SUBAGENT_SETTINGS.maxParallel, listing: () => '' }),
  ]);
  const prompt = setupTurn({ cwd, tools, provider: NO_PROVIDER, system: { os: 'linux', shell: '/bin/bash' } }, [
    {
      type: 'task_started',
      seq: 0,
      ts: 0,
      taskId: 'prompt',
      task: 'Size the prompt',
      cwd,
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      mode: 'act',
      modeSlug: 'code',
    },
  ]).systemPrompt;
  rmSync(cwd, { recursive: true, force: true });

  test('is under 4,000 tokens with every built-in tool', () => {
    const tokens = estimateTextTokens(prompt);
    assert.ok(tokens < 4_000, `the default prompt has ${tokens} tokens`);
  });

  test('describes each tool once: every parameter by name and an example call, no Usage block', () => {
    for (const spec of tools.specs()) {
      const start = prompt.indexOf(`## ${spec.name}\n`);
      if (start < 0) continue;
      const end = prompt.indexOf('\n## ', start + 1);
      const section = prompt.slice(start, end < 0 ? undefined : end);
      for (const param of spec.params) assert.match(section, new RegExp(`^- ${param.name}: \\((required|optional)\\) `, 'm'), `${spec.name}.${param.name}`);
      assert.ok(section.includes(`Example:\n${spec.example}`), `${spec.name} has its example`);
      assert.doesNotMatch(section, /^Usage:$|here<\//m, spec.name);
    }
    assert.ok(prompt.includes('## read_file\n') && prompt.includes('## execute_command\n'), 'the tools are in the prompt');
  });
});
