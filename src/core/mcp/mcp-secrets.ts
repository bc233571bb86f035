import { credentialValues } from '../secrets/secret-redactor.js';
import type { McpConfig } from './mcp-config.js';

/** The credentials configured for MCP servers: env values and headers whose names look like keys or tokens. */
export function mcpCredentialValues(config: McpConfig): string[] {
  const out: string[] = [];
  for (const server of config.servers.values()) {
    const transport = server.transport;
    out.push(...credentialValues(transport.type === 'stdio' ? transport.env : transport.headers));
  }
  return out;
}
