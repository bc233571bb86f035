// The one table of what each built-in tool is to the rest of Smith: how people read it, which
// switch approves it, which of Plan and Act offer it, which permission rules name it. The engine, the CLI and
// the panel derive every list of tools from it (shared, so the webview reads the same rows); a
// tool's spec (src/core/tools/) holds only what the model reads. test/unit/shared/tool-catalogue.test.ts
// checks the table against the tools the engine registers.
import type { PlanAct } from './plan-act.js';

/** Which auto-approve switch governs a tool, and which mode group grants it (interaction: every mode). */
export type ToolGroup = 'read' | 'edit' | 'command' | 'mcp' | 'browser' | 'interaction';

/**
 * The names of permission rules (Claude Code's, so users can reuse theirs) that can name a tool
 * besides its own name: `Read(src/**)`, `Edit(…)`, `Write(…)`, `Bash(npm test)`,
 * `WebFetch(domain:…)`, `WebSearch`; `mcp__` stands for `mcp__server__tool` rules.
 */
export type PermissionRuleName = 'Read' | 'Edit' | 'Write' | 'Bash' | 'WebFetch' | 'WebSearch' | 'mcp__';

/** One row of the catalogue. */
export interface ToolEntry {
  /** A call's title as people read it, before its subject ("Edit" src/x.ts, "Run" npm test). */
  readonly verb: string;
  /** The title of a call that created its file (else `verb`). */
  readonly createdVerb?: string;
  /** The codicon of its card and approval in the panel. */
  readonly icon: string;
  readonly group: ToolGroup;
  /** Mode groups that offer it besides its own (a read-only web tool in read-only modes); its group still picks the auto-approve switch. */
  readonly alsoIn?: readonly ToolGroup[];
  /** Plan, Act or both offer it; the engine refuses a call in any other. */
  readonly planAct: readonly PlanAct[];
  /**
   * The rule names that cover it. The first is the one "always allow" writes: a path for `Read`
   * and `Edit`, the commands for `Bash`, the host for `WebFetch`, the server's tool for `mcp__`.
   * A tool without one is allowed again by its own name.
   */
  readonly rules: readonly PermissionRuleName[];
  /** Claude Code's name for it, which hook matchers may use (`Bash|Edit`) beside Smith's. */
  readonly claudeName?: string;
  /**
   * Claude Code's other names for it that an agent file's `tools:` list may use (`Glob`, `MultiEdit`,
   * `WebFetch`); unlike `claudeName`, hook matchers do not read them.
   */
  readonly claudeAliases?: readonly string[];
  /**
   * Which sub-agents have it: `always` every one (research sub-agents have only these), `granted`
   * only one whose agent or mode grants it (it edits or runs commands), `never` none (it starts
   * sub-agents, asks the user, plans, hands over, or drives the task's one browser).
   */
  readonly subagents: SubagentAccess;
  /** Its calls may change the workspace although its group does not (the sub-agents it starts may edit): a checkpoint follows them. */
  readonly changesWorkspace?: true;
}

/** See ToolEntry.subagents. */
export type SubagentAccess = 'always' | 'granted' | 'never';

const BOTH: readonly PlanAct[] = ['plan', 'act'];
const ACT: readonly PlanAct[] = ['act'];
const PLAN: readonly PlanAct[] = ['plan'];

/** Every built-in tool, in no particular order (the prompt's order is the registration's). */
export const TOOL_CATALOGUE = {
  read_file: { verb: 'Read', icon: 'file', group: 'read', planAct: BOTH, rules: ['Read'], claudeName: 'Read', subagents: 'always' },
  list_files: {
    verb: 'List',
    icon: 'list-tree',
    group: 'read',
    planAct: BOTH,
    rules: ['Read'],
    claudeName: 'LS',
    claudeAliases: ['Glob'],
    subagents: 'always',
  },
  search_files: { verb: 'Search', icon: 'search', group: 'read', planAct: BOTH, rules: ['Read'], claudeName: 'Grep', subagents: 'always' },
  list_code_definition_names: { verb: 'Outline', icon: 'symbol-class', group: 'read', planAct: BOTH, rules: ['Read'], subagents: 'always' },
  use_subagents: { verb: 'Sub-agents', icon: 'organization', group: 'read', planAct: BOTH, rules: [], subagents: 'never', changesWorkspace: true },
  write_to_file: {
    verb: 'Write',
    createdVerb: 'Create',
    icon: 'new-file',
    group: 'edit',
    planAct: ACT,
    rules: ['Edit', 'Write'],
    claudeName: 'Write',
    subagents: 'granted',
  },
  replace_in_file: {
    verb: 'Edit',
    icon: 'edit',
    group: 'edit',
    planAct: ACT,
    rules: ['Edit'],
    claudeName: 'Edit',
    claudeAliases: ['MultiEdit'],
    subagents: 'granted',
  },
  edit_notebook: {
    verb: 'Edit notebook',
    icon: 'notebook',
    group: 'edit',
    planAct: ACT,
    rules: ['Edit'],
    claudeName: 'NotebookEdit',
    subagents: 'granted',
  },
  new_rule: { verb: 'Write rule', icon: 'tools', group: 'edit', planAct: ACT, rules: ['Edit'], subagents: 'never' },
  execute_command: { verb: 'Run', icon: 'terminal', group: 'command', planAct: ACT, rules: ['Bash'], claudeName: 'Bash', subagents: 'granted' },
  browser_action: { verb: 'Browser', icon: 'globe', group: 'browser', planAct: BOTH, rules: ['WebFetch'], subagents: 'never' },
  web_fetch: { verb: 'Fetch', icon: 'tools', group: 'browser', planAct: BOTH, rules: ['WebFetch'], claudeAliases: ['WebFetch'], subagents: 'always' },
  web_search: {
    verb: 'Search web',
    icon: 'search',
    group: 'browser',
    alsoIn: ['read'],
    planAct: BOTH,
    rules: ['WebSearch'],
    claudeAliases: ['WebSearch'],
    subagents: 'always',
  },
  use_mcp_tool: { verb: 'MCP tool', icon: 'plug', group: 'mcp', planAct: BOTH, rules: ['mcp__'], subagents: 'always' },
  access_mcp_resource: { verb: 'MCP resource', icon: 'plug', group: 'mcp', planAct: BOTH, rules: [], subagents: 'always' },
  list_mcp_servers: { verb: 'List MCP servers', icon: 'tools', group: 'mcp', planAct: BOTH, rules: [], subagents: 'always' },
  search_mcp_tools: { verb: 'Search MCP tools', icon: 'tools', group: 'mcp', planAct: BOTH, rules: [], subagents: 'always' },
  get_mcp_tool_details: { verb: 'MCP tool details', icon: 'tools', group: 'mcp', planAct: BOTH, rules: [], subagents: 'always' },
  ask_followup_question: { verb: 'Question', icon: 'question', group: 'interaction', planAct: BOTH, rules: [], subagents: 'never' },
  attempt_completion: { verb: 'Finish', icon: 'check-all', group: 'interaction', planAct: ACT, rules: [], subagents: 'always' },
  plan_mode_respond: { verb: 'Plan', icon: 'comment-discussion', group: 'interaction', planAct: PLAN, rules: [], subagents: 'never' },
  new_task: { verb: 'New task', icon: 'add', group: 'interaction', planAct: BOTH, rules: [], subagents: 'never' },
  condense: { verb: 'Condense', icon: 'tools', group: 'interaction', planAct: BOTH, rules: [], subagents: 'never' },
  update_todo_list: { verb: 'Update todo list', icon: 'tools', group: 'interaction', planAct: BOTH, rules: [], subagents: 'never' },
  use_skill: { verb: 'Skill', icon: 'book', group: 'interaction', planAct: BOTH, rules: [], claudeName: 'Skill', subagents: 'never' },
} as const satisfies Readonly<Record<string, ToolEntry>>;

/** A built-in tool's name: a name without a row is a type error wherever one is expected. */
export type ToolName = keyof typeof TOOL_CATALOGUE;

export const TOOL_NAMES = Object.keys(TOOL_CATALOGUE) as readonly ToolName[];

/** Whether `name` (parsed from a model's reply, or read from a log) is a built-in tool. */
export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOL_CATALOGUE, name);
}

/** The row of a tool, or undefined for a name Smith does not know (an unknown tool, a tool of a test). */
export function toolEntry(name: string): ToolEntry | undefined {
  return isToolName(name) ? TOOL_CATALOGUE[name] : undefined;
}

/** Whether `name` is the built-in tool `tool`; a misspelt `tool` fails the typecheck, a plain comparison would not. */
export function isTool<N extends ToolName>(name: string, tool: N): name is N {
  return name === tool;
}

/** The built-in tool a name stands for: Smith's own name, or Claude Code's name or alias for it (`Grep`, `Glob`, `MultiEdit`). */
export function toolForClaudeName(name: string): ToolName | undefined {
  for (const tool of TOOL_NAMES) {
    const entry: ToolEntry = TOOL_CATALOGUE[tool];
    if (tool === name || entry.claudeName === name || entry.claudeAliases?.includes(name)) return tool;
  }
  return undefined;
}

/** The built-in tools of a group. */
export function toolsInGroup(group: ToolGroup): ToolName[] {
  return TOOL_NAMES.filter((name) => TOOL_CATALOGUE[name].group === group);
}

/** Whether a mode granting `groups` offers the tool of this group: its own group, or one its row adds (`interaction` tools are in every mode). */
export function groupsOffer(groups: ReadonlySet<string>, tool: string, group: ToolGroup): boolean {
  const also: readonly ToolGroup[] = toolEntry(tool)?.alsoIn ?? [];
  return group === 'interaction' || groups.has(group) || also.some((g) => groups.has(g));
}

/** The permission rule names that cover a tool (none for a tool Smith does not know). */
export function ruleNamesOf(tool: string): readonly PermissionRuleName[] {
  return toolEntry(tool)?.rules ?? [];
}

/** Whether a permission rule named `ruleName` as a user wrote it (`Read`, `Bash`, …) covers the tool. */
export function ruleNameCovers(ruleName: string, tool: string): boolean {
  return ruleNamesOf(tool).some((name) => name === ruleName);
}
