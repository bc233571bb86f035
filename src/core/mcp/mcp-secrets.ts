import { credentialValues } from '../secrets/secret-redactor.js';
import type { McpConfig, McpServerConfig } from './mcp-config.js';
import type { McpHub } from './mcp-hub.js';

/** The credentials configured for MCP servers: env values and headers whose names look like keys or tokens. */
export function mcpCredentialValues(config: McpConfig): string[] {
  return serverCredentials(config.servers.values());
}

/** The same for the servers a hub runs now. */
export function hubCredentialValues(hub: McpHub): string[] {
  return serverCredentials(hub.servers().flatMap((s) => (s.config ? [s.config] : [])));
}

function serverCredentials(servers: Iterable<McpServerConfig>): string[] {
  const out: string[] = [];
  for (const server of servers) {
    const transport = server.transport;
    out.push(...credentialValues(transport.type === 'stdio' ? transport.env : transport.headers));
    if (transport.type !== 'stdio' && transport.oauth?.clientSecret) out.push(transport.oauth.clientSecret);
  }
  return out;
}
