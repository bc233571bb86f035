import { createAccessMcpResourceTool } from './access-mcp-resource.js';
import { createMcpDiscoveryTools } from './mcp-discovery-tools.js';
import type { ToolHandler } from '../tool-kit/tool-spec.js';
import { createUseMcpTool } from './use-mcp-tool.js';
import type { McpHub } from '../mcp/mcp-hub.js';
import { hubCredentialValues } from '../mcp/mcp-secrets.js';
import { hiddenMcpToolNames, mcpPromptSection, type McpPromptOptions } from '../mcp/mcp-prompt.js';

/**
 * All five MCP tools for a task's registry (which is built once): use_mcp_tool and
 * access_mcp_resource, plus the discovery meta-tools. Which of them the prompt should offer
 * changes with the hub's state: see mcpToolFilter.
 */
export function mcpToolsFor(hub: McpHub): ToolHandler[] {
  return [createUseMcpTool(hub), createAccessMcpResourceTool(hub), ...createMcpDiscoveryTools(hub)];
}

/** What a host wires into a task environment: tools, the prompt section and the per-turn tool filter. */
export interface McpTaskWiring {
  readonly tools: readonly ToolHandler[];
  /** For TaskEnvironmentInput.extraPromptSections: rebuilt on every request. */
  promptSections(): readonly string[];
  /** Names of MCP tools to leave out of this turn's prompt (none configured, or not in discovery mode). */
  hiddenTools(): ReadonlySet<string>;
  /** The running servers' configured credentials (env and headers), for the task's redactor. */
  credentials(): string[];
  /** Waits, before a request, for servers still making their first connection, each at most its `timeout` (McpHub.whenReady). */
  ready(signal: AbortSignal): Promise<void>;
}

/** Bundles the MCP tools, prompt section and tool filter for one hub. */
export function mcpTaskWiring(hub: McpHub, options: McpPromptOptions = {}): McpTaskWiring {
  return {
    tools: mcpToolsFor(hub),
    promptSections: () => {
      const section = mcpPromptSection(hub, options);
      return section ? [section] : [];
    },
    hiddenTools: () => hiddenMcpToolNames(hub, options),
    credentials: () => hubCredentialValues(hub),
    ready: (signal) => hub.whenReady(signal),
  };
}
