// The MCP servers an ACP client gives with a session, as entries of Smith's MCP configuration: the
// session's hub runs them beside the user's configured servers (the client's win on a shared name).
import type { McpServer } from '@agentclientprotocol/sdk';
import { DEFAULT_MCP_TIMEOUT_SECONDS } from '../../core/mcp/mcp-config.js';
import type { McpServerConfig } from '../../core/mcp/mcp-config-types.js';

/** Where these servers came from, as MCP messages name a server's source. */
export const ACP_CLIENT_SOURCE = 'the ACP client (session/new)';

/** The client's servers as configuration entries; a server without a name or a command/URL is refused with why. */
export function acpMcpServers(servers: readonly McpServer[]): McpServerConfig[] {
  return servers.map((server) => {
    if (server.name.trim() === '') throw new Error('an MCP server needs a name');
    const common = { name: server.name, source: ACP_CLIENT_SOURCE, disabled: false, autoApprove: [], timeoutSeconds: DEFAULT_MCP_TIMEOUT_SECONDS };
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      if (!/^https?:\/\//.test(server.url)) throw new Error(`MCP server "${server.name}": url must be http(s); got "${server.url}"`);
      const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
      return { ...common, transport: { type: server.type === 'http' ? 'streamableHttp' : 'sse', url: server.url, headers } };
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    if (stdio.command.trim() === '') throw new Error(`MCP server "${server.name}" needs a command`);
    return {
      ...common,
      transport: { type: 'stdio', command: stdio.command, args: [...stdio.args], env: Object.fromEntries(stdio.env.map((e) => [e.name, e.value])) },
    };
  });
}
