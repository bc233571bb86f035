import { toolsInGroup, type ToolName } from '../../shared/tool-catalogue.js';
import type { McpToolInfo } from './mcp-connection.js';
import type { McpHub } from './mcp-hub.js';
import type { McpServerSnapshot } from './mcp-server-snapshot.js';

/** Above this many tools on connected servers, the prompt lists servers only and the model searches for tools. */
export const DEFAULT_DISCOVERY_THRESHOLD = 40;

/** How the MCP prompt section and tools behave. */
export interface McpPromptOptions {
  /** Tool count above which discovery mode starts (default 40). */
  readonly discoveryThreshold?: number;
}

/** The meta-tools that exist only for discovery mode; the other MCP tools call servers and are offered while any is configured. */
const MCP_DISCOVERY_TOOL_NAMES: readonly ToolName[] = ['list_mcp_servers', 'search_mcp_tools', 'get_mcp_tool_details'];

/** Direct resources listed per server before the rest is summarised. */
const RESOURCES_LISTED = 20;

type HubView = Pick<McpHub, 'servers'>;

/** True when the connected servers expose more tools than the threshold. */
export function isDiscoveryMode(servers: readonly McpServerSnapshot[], options: McpPromptOptions = {}): boolean {
  const threshold = options.discoveryThreshold ?? DEFAULT_DISCOVERY_THRESHOLD;
  return countTools(servers) > threshold;
}

/**
 * The MCP tools a prompt should not offer now: all of them without configured servers, the
 * discovery meta-tools outside discovery mode.
 */
export function hiddenMcpToolNames(hub: HubView, options: McpPromptOptions = {}): ReadonlySet<string> {
  const servers = hub.servers();
  if (servers.length === 0) return new Set(toolsInGroup('mcp'));
  return isDiscoveryMode(servers, options) ? new Set() : new Set(MCP_DISCOVERY_TOOL_NAMES);
}

/** The system-prompt section for the hub's current state; empty when no servers are configured. */
export function mcpPromptSection(hub: HubView, options: McpPromptOptions = {}): string {
  const servers = hub.servers();
  if (servers.length === 0) return '';
  const connected = servers.filter((s) => s.status === 'connected');
  const unavailable = servers.filter((s) => s.status !== 'connected');
  const parts = ['# MCP servers'];
  if (connected.length === 0) {
    parts.push('MCP (Model Context Protocol) servers are configured, but none is connected now, so use_mcp_tool and access_mcp_resource cannot be used.');
  } else if (isDiscoveryMode(connected, options)) {
    parts.push(
      `The connected MCP (Model Context Protocol) servers offer ${countTools(connected)} tools, too many to list here. To use one: find it with search_mcp_tools (query, optional server_name), read its input schema with get_mcp_tool_details (server_name, tool_name), then call it with use_mcp_tool. list_mcp_servers shows the servers, and with server_name also their resources; read a resource with access_mcp_resource.`,
      `Servers:\n${connected.map(serverLine).join('\n')}`,
    );
  } else {
    parts.push(
      "MCP (Model Context Protocol) servers give you more tools and data. Call a server's tool with use_mcp_tool: server_name, tool_name, and arguments as a JSON object matching the tool's input schema. Read a resource with access_mcp_resource: server_name and uri (for a resource template, fill in its {placeholders}).",
      ...connected.map(serverDetails),
    );
  }
  if (unavailable.length > 0) {
    parts.push(`Unavailable servers (their tools cannot be used now):\n${unavailable.map((s) => `- ${s.name}: ${statusLine(s)}`).join('\n')}`);
  }
  return parts.join('\n\n');
}

/** A tool's input schema as compact JSON, without the $schema URI. */
export function schemaJson(tool: McpToolInfo): string {
  return compactSchema(tool.inputSchema);
}

function compactSchema(schema: Readonly<Record<string, unknown>>): string {
  const { $schema: _ignored, ...rest } = schema;
  return JSON.stringify(rest);
}

/** One line about a server: name, counts and what it is for. */
export function serverLine(server: McpServerSnapshot): string {
  const counts = [`${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`];
  const resources = server.resources.length + server.resourceTemplates.length;
  if (resources > 0) counts.push(`${resources} resource${resources === 1 ? '' : 's'}`);
  const about = serverAbout(server);
  return `- ${server.name} (${counts.join(', ')})${about ? `: ${about}` : ''}`;
}

/** The user's description of the server, else the first line of its instructions or its title. */
export function serverAbout(server: McpServerSnapshot): string {
  const text = server.config?.description ?? firstLine(server.instructions) ?? server.serverInfo?.title ?? '';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function serverDetails(server: McpServerSnapshot): string {
  const lines = [`## ${server.name}`];
  if (server.config?.description) lines.push(server.config.description);
  if (server.tools.length > 0) {
    lines.push('', 'Tools:');
    for (const tool of server.tools) {
      lines.push(`- ${tool.name}: ${oneLine(tool.description) || '(no description)'}`, `  Input schema: ${schemaJson(tool)}`);
      if (tool.outputSchema) lines.push(`  Output schema (its structured result): ${compactSchema(tool.outputSchema)}`);
    }
  }
  if (server.resourceTemplates.length > 0) {
    lines.push('', 'Resource templates:');
    for (const t of server.resourceTemplates) lines.push(`- ${t.uriTemplate} (${t.name})${t.description ? `: ${oneLine(t.description)}` : ''}`);
  }
  if (server.resources.length > 0) {
    lines.push('', 'Resources:');
    for (const r of server.resources.slice(0, RESOURCES_LISTED)) lines.push(`- ${r.uri} (${r.name})${r.description ? `: ${oneLine(r.description)}` : ''}`);
    const more = server.resources.length - RESOURCES_LISTED;
    if (more > 0) lines.push(`- ...and ${more} more (list_mcp_servers with server_name="${server.name}" lists them all)`);
  }
  return lines.join('\n');
}

function statusLine(server: McpServerSnapshot): string {
  const firstErrorLine = firstLine(server.error);
  if (server.status === 'connecting')
    return server.reconnect ? `reconnecting (attempt ${server.reconnect.attempt} of ${server.reconnect.maxAttempts})` : 'connecting';
  return firstErrorLine ? `${server.status}: ${firstErrorLine}` : server.status;
}

function countTools(servers: readonly McpServerSnapshot[]): number {
  return servers.filter((s) => s.status === 'connected').reduce((sum, s) => sum + s.tools.length, 0);
}

function firstLine(text: string | undefined): string | undefined {
  const line = text
    ?.split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return line || undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
