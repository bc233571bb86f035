// The tools of an agent file (`tools: Read, Grep, Bash, mcp__github__create_issue`) in Smith's
// names: Claude Code's names and aliases come from the tool catalogue, Smith's own names are
// accepted too, and MCP tools are kept as the servers and tools they name.
import { TOOL_CATALOGUE, TOOL_NAMES, type ToolName, toolForClaudeName } from '../../shared/tool-catalogue.js';

/** What an agent's `tools` field grants. */
export interface AgentTools {
  /** Built-in tools, each one a sub-agent may be granted (catalogue `subagents` not `never`). */
  readonly tools: readonly ToolName[];
  /** `mcp__server` (every tool of the server) or `mcp__server__tool` names it may call. */
  readonly mcp: readonly string[];
  /** Names that are not tools a sub-agent of Smith can have, with why. */
  readonly ignored: readonly string[];
}

/** Claude Code's tools Smith has no counterpart for, said plainly rather than "unknown". */
const NOT_IN_SMITH: Readonly<Record<string, string>> = {
  NotebookRead: 'read notebooks with Read',
  Task: 'a sub-agent cannot start sub-agents',
  TodoWrite: 'a sub-agent keeps no todo list',
  BashOutput: 'Bash returns the output',
  KillShell: 'Bash stops its own commands',
};

/** Reads the `tools` field: a comma-separated line or a YAML list; undefined (the field is absent) inherits every tool. */
export function agentToolNames(value: unknown): string[] | string | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items?.every((item) => typeof item === 'string')) return 'tools must be a comma-separated list or a YAML list of tool names';
  return (items as string[]).map((item) => item.trim()).filter((item) => item !== '');
}

/** Maps the names onto Smith's tools; attempt_completion is always granted (a sub-agent reports with it). */
export function mapAgentTools(names: readonly string[]): AgentTools {
  const tools = new Set<ToolName>(['attempt_completion']);
  const mcp: string[] = [];
  const ignored: string[] = [];
  for (const name of names) {
    if (/^mcp__[^_]/.test(name)) {
      mcp.push(name);
      continue;
    }
    const tool = toolForClaudeName(name);
    if (tool === undefined) ignored.push(`${name} (${NOT_IN_SMITH[name] ?? 'no such tool'})`);
    else if (TOOL_CATALOGUE[tool].subagents === 'never') ignored.push(`${name} (sub-agents cannot have it)`);
    else tools.add(tool);
  }
  if (mcp.length > 0) tools.add('use_mcp_tool');
  return { tools: [...tools], mcp, ignored };
}

/** Every built-in tool a sub-agent may have: what an agent without a `tools` field inherits. */
export function inheritedAgentTools(): AgentTools {
  return { tools: TOOL_NAMES.filter((name) => TOOL_CATALOGUE[name].subagents !== 'never'), mcp: ['mcp__'], ignored: [] };
}

/** Whether `mcp__server__tool` patterns let a call of `tool` on `server` through (`mcp__` alone: every server). */
export function mcpToolAllowed(patterns: readonly string[], server: string, tool: string): boolean {
  return patterns.some((pattern) => pattern === 'mcp__' || pattern === `mcp__${server}` || pattern === `mcp__${server}__${tool}`);
}
