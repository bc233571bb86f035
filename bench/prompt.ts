// Prompt size: o200k tokens of the system prompt each built-in mode gets in Act and Plan,
// as setupTurn builds it from the real tool registry, and with 5 or 100 MCP tools with and
// without discovery mode.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { expandMentions } from '../src/core/context/mentions.js';
import { McpHub } from '../src/core/mcp/mcp-hub.js';
import { loadRules } from '../src/core/rules/rules-loader.js';
import { NOTHING_IGNORED } from '../src/core/workspace/ignore-policy.js';
import { DEFAULT_DISCOVERY_THRESHOLD, hiddenMcpToolNames, mcpPromptSection, type McpPromptOptions } from '../src/core/mcp/mcp-prompt.js';
import type { McpServerSnapshot } from '../src/core/mcp/mcp-server-snapshot.js';
import { mcpToolsFor } from '../src/core/tools/mcp-tools.js';
import { CommandSessions } from '../src/core/process/command-sessions.js';
import type { ApiProvider } from '../src/core/providers/types.js';
import { workspaceTools } from '../src/core/session/task-environment.js';
import { BUILT_IN_MODES } from '../src/core/modes/built-in-modes.js';
import type { PlanAct } from '../src/shared/plan-act.js';
import type { TaskEvent } from '../src/core/log/events.js';
import { setupTurn, type TurnInputs } from '../src/core/task/turn-setup.js';
import { ToolRegistry } from '../src/core/tool-kit/tool-registry.js';
import { DEFAULT_SUBAGENT_SETTINGS } from '../src/core/subagents/subagent-runner.js';
import { createUseSubagentsTool } from '../src/core/tools/use-subagents.js';
import { SkillSession } from '../src/core/skills/skill-session.js';
import { syntheticMcpServers } from './mcp-catalogue.js';
import { statusOf, type BenchOptions, type BenchOutcome, type Row } from './report.js';

/** The default system prompt (code mode, Act, every built-in tool) stays under this many tokens. */
const DEFAULT_TARGET = 4_000;

/** setupTurn never calls the provider; it only picks one per mode. */
const NO_PROVIDER: ApiProvider = {
  id: 'anthropic',
  modelId: 'claude-sonnet-4-5',
  createMessage: () => {
    throw new Error('the prompt benchmark sends no request');
  },
};

function started(mode: PlanAct, modeSlug: string): TaskEvent[] {
  return [
    {
      type: 'task_started',
      seq: 0,
      ts: 0,
      taskId: 'bench',
      task: 'Benchmark the prompt',
      cwd: '/workspace',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      mode,
      modeSlug,
    },
  ];
}

/** Every built-in tool (use_subagents as every task has it: the prompt needs its spec only, never a run), with MCP's when asked. */
function builtInTools(withMcp: boolean): ToolRegistry {
  const useSubagents = createUseSubagentsTool(async () => [], { maxParallel: () => DEFAULT_SUBAGENT_SETTINGS.maxParallel, listing: () => '' });
  return new ToolRegistry([...workspaceTools(new CommandSessions()), useSubagents, ...(withMcp ? mcpToolsFor(new McpHub()) : [])]);
}

/** Tokens of the system prompt for one mode and Plan/Act state, optionally with MCP servers, or without the tools named in `without`. */
function promptTokens(
  cwd: string,
  mode: PlanAct,
  modeSlug: string,
  mcp?: { servers: readonly McpServerSnapshot[]; options: McpPromptOptions },
  without: readonly string[] = [],
  agentSkills?: SkillSession,
  notebooks = false,
): number {
  const tools = builtInTools(mcp !== undefined);
  const hub = { servers: () => [...(mcp?.servers ?? [])] };
  const inputs: TurnInputs = {
    cwd,
    tools,
    provider: NO_PROVIDER,
    // Fixed, so the count does not depend on the machine the benchmark runs on.
    system: { os: 'linux', shell: '/bin/bash' },
    ...(mcp
      ? {
          extraPromptSections: () => [mcpPromptSection(hub, mcp.options)].filter((s) => s !== ''),
          hiddenTools: () => hiddenMcpToolNames(hub, mcp.options),
        }
      : {}),
    ...(without.length > 0 ? { hiddenTools: () => new Set(without) } : {}),
    ...(agentSkills ? { agentSkills } : {}),
    ...(notebooks ? { workspaceHasNotebooks: () => true } : {}),
  };
  return countTokens(setupTurn(inputs, started(mode, modeSlug)).systemPrompt);
}

/**
 * Tokens that rules files add to the system prompt, and that @-mentions add to a message, for a
 * small but typical set: a CLAUDE.md, two .clinerules files, a Cursor rule for *.tsx; a 120-line
 * source file and a folder of 40 files.
 */
async function contextCosts(cwd: string): Promise<Record<string, number>> {
  const ws = mkdtempSync(join(tmpdir(), 'smith-bench-context-'));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(ws, path)), { recursive: true });
      writeFileSync(join(ws, path), text);
    };
    const bullets = (topic: string, n: number) =>
      Array.from({ length: n }, (_, i) => `- ${topic} rule ${i + 1}: prefer the existing helpers in src/shared and keep functions small.`).join('\n');
    write('CLAUDE.md', `# Project\n\nA TypeScript monorepo built with npm workspaces.\n\n## Conventions\n${bullets('style', 12)}\n`);
    write('.clinerules/testing.md', `# Testing\n${bullets('testing', 8)}\n`);
    write('.clinerules/git.md', `# Commits\n${bullets('git', 5)}\n`);
    write('.cursor/rules/react.mdc', `---\nglobs: "**/*.tsx"\n---\n# React\n${bullets('react', 10)}\n`);
    write(
      'src/service.ts',
      Array.from({ length: 120 }, (_, i) => `export function step${i}(input: number): number { return input * ${i} + ${i % 7}; }`).join('\n'),
    );
    for (let i = 0; i < 40; i++) write(`src/features/feature-${i}.ts`, 'export {};\n');
    const tokensOf = (text: string) => countTokens(text);
    const withRules = loadRules({ workspaceRoot: ws, homeDir: cwd }).section;
    const touched = loadRules({ workspaceRoot: ws, homeDir: cwd, touchedPaths: ['src/app.tsx'] }).section;
    const file = await expandMentions('Refactor @src/service.ts', { cwd: ws, ignore: NOTHING_IGNORED });
    const folder = await expandMentions('Look at @src/features/', { cwd: ws, ignore: NOTHING_IGNORED });
    return {
      rules_tokens: tokensOf(withRules),
      rules_touched_tokens: tokensOf(touched),
      mention_file_tokens: tokensOf(file.context),
      mention_folder_tokens: tokensOf(folder.context),
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

/**
 * What Agent Skills add to the default prompt: the first skill (the Skills section, use_skill's
 * spec and one line), each further one (its line), and a folder of 1,000 (the list's budget).
 * Each skill has a description of a typical length (about 150 characters).
 */
function skillCosts(cwd: string, defaultTokens: number): Record<string, number> {
  const home = mkdtempSync(join(tmpdir(), 'smith-bench-skills-'));
  try {
    const tokensWith = (count: number) => {
      const dir = join(home, `set-${count}`, '.claude', 'skills');
      for (let i = 0; i < count; i++) {
        mkdirSync(join(dir, `skill-${i}`), { recursive: true });
        writeFileSync(
          join(dir, `skill-${i}`, 'SKILL.md'),
          `---\nname: skill-${i}\ndescription: Fill in and check the release checklist for service ${i}. Use when the user asks to prepare, review or ship a release of it.\n---\nInstructions.\n`,
        );
      }
      const session = new SkillSession({ workspaceRoots: [cwd], storageDir: cwd, homeDir: join(home, `set-${count}`), workspaceTrusted: () => true });
      return promptTokens(cwd, 'act', 'code', undefined, [], session);
    };
    const one = tokensWith(1);
    const eleven = tokensWith(11);
    const thousand = tokensWith(1000);
    return {
      skill_first_tokens: one - defaultTokens,
      skill_each_tokens: Math.round((eleven - one) / 10),
      skills_1000_tokens: thousand - defaultTokens,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs the prompt benchmark. */
export async function runPromptBench(options: BenchOptions): Promise<BenchOutcome> {
  // An empty workspace: no rules files, no AGENTS.md.
  const cwd = mkdtempSync(join(tmpdir(), 'smith-bench-prompt-'));
  try {
    const byMode: Record<string, Record<PlanAct, number>> = {};
    for (const mode of BUILT_IN_MODES) {
      byMode[mode.slug] = { act: promptTokens(cwd, 'act', mode.slug), plan: promptTokens(cwd, 'plan', mode.slug) };
    }
    const defaultTokens = byMode.code!.act;
    const noDiscovery: McpPromptOptions = { discoveryThreshold: Number.MAX_SAFE_INTEGER };
    const forcedDiscovery: McpPromptOptions = { discoveryThreshold: 0 };
    const defaults: McpPromptOptions = {};
    const five = syntheticMcpServers(5);
    const hundred = syntheticMcpServers(100);
    const mcp = {
      mcp5_tokens: promptTokens(cwd, 'act', 'code', { servers: five, options: defaults }),
      mcp5_discovery_tokens: promptTokens(cwd, 'act', 'code', { servers: five, options: forcedDiscovery }),
      mcp100_tokens: promptTokens(cwd, 'act', 'code', { servers: hundred, options: noDiscovery }),
      mcp100_discovery_tokens: promptTokens(cwd, 'act', 'code', { servers: hundred, options: defaults }),
    };
    // What each tool's spec adds to the default prompt: the prompt with it, less the prompt without it.
    const specTokens = Object.fromEntries(
      builtInTools(false)
        .specs()
        .map((spec) => [spec.name, defaultTokens - promptTokens(cwd, 'act', 'code', undefined, [spec.name])] as const)
        .filter(([, tokens]) => tokens > 0),
    );
    // edit_notebook is offered only where notebooks are, so the default prompt has no spec of it.
    const notebookTokens = promptTokens(cwd, 'act', 'code', undefined, [], undefined, true);
    const context = await contextCosts(cwd);
    const skills = skillCosts(cwd, defaultTokens);
    options.log(`prompt: ${JSON.stringify(byMode)}; ${JSON.stringify(mcp)}; ${JSON.stringify(context)}; ${JSON.stringify(skills)}`);

    const rows: Row[] = [
      {
        bench: 'prompt',
        metric: 'system prompt tokens, code mode, Act (all built-in tools)',
        value: String(defaultTokens),
        target: `< ${DEFAULT_TARGET}`,
        status: statusOf(defaultTokens, (v) => v < DEFAULT_TARGET),
      },
      ...BUILT_IN_MODES.map(
        (mode): Row => ({
          bench: 'prompt',
          metric: `  ${mode.slug}: Act / Plan`,
          value: `${byMode[mode.slug]!.act} / ${byMode[mode.slug]!.plan}`,
          target: '',
          status: 'info',
        }),
      ),
      ...Object.entries(specTokens).map(
        ([name, tokens]): Row => ({ bench: 'prompt', metric: `  spec of ${name} (tokens it adds)`, value: String(tokens), target: '', status: 'info' }),
      ),
      {
        bench: 'prompt',
        metric: '  + notebooks in the workspace: the prompt / spec of edit_notebook (tokens it adds)',
        value: `${notebookTokens} / ${notebookTokens - defaultTokens}`,
        target: '',
        status: 'info',
      },
      {
        bench: 'prompt',
        metric: '  + 5 MCP tools (listed / discovery forced)',
        value: `${mcp.mcp5_tokens} / ${mcp.mcp5_discovery_tokens}`,
        target: '',
        status: 'info',
      },
      { bench: 'prompt', metric: '  + 100 MCP tools, all listed (discovery off)', value: String(mcp.mcp100_tokens), target: '', status: 'info' },
      {
        bench: 'prompt',
        metric: `  + 100 MCP tools, discovery mode (default, > ${DEFAULT_DISCOVERY_THRESHOLD} tools)`,
        value: String(mcp.mcp100_discovery_tokens),
        target: '',
        status: 'info',
      },
      {
        bench: 'prompt',
        metric: '  + rules: CLAUDE.md, .clinerules/, a conditional .mdc (off / touched)',
        value: `${context.rules_tokens} / ${context.rules_touched_tokens}`,
        target: '',
        status: 'info',
      },
      {
        bench: 'prompt',
        metric: '  + Agent Skills: the first (section, use_skill, its line) / each further one / 1,000 (capped list)',
        value: `${skills.skill_first_tokens} / ${skills.skill_each_tokens} / ${skills.skills_1000_tokens}`,
        target: '',
        status: 'info',
      },
      {
        bench: 'prompt',
        metric: 'message context: @file of 120 lines / @folder/ of 40 files',
        value: `${context.mention_file_tokens} / ${context.mention_folder_tokens}`,
        target: '',
        status: 'info',
      },
    ];
    return {
      results: {
        default_tokens: defaultTokens,
        ...mcp,
        spec_tokens: specTokens,
        notebooks_tokens: notebookTokens,
        edit_notebook_spec_tokens: notebookTokens - defaultTokens,
        ...context,
        ...skills,
        by_mode: byMode,
        tokenizer: 'o200k_base (gpt-tokenizer)',
        discovery_threshold_default: DEFAULT_DISCOVERY_THRESHOLD,
      },
      rows,
      notes: [],
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
