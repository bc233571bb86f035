import type { McpPanelState } from '../../src/shared/protocol.js';

/** MCP servers in every state, for the harness's demo and for looking at the MCP view. */
export function sampleMcpState(): McpPanelState {
  const workspace = '/work/project/.smith/mcp.json';
  const global = '/home/user/.config/Code/User/globalStorage/smith.smith/mcp_settings.json';
  return {
    configFiles: { global, workspace },
    problems: [{ file: workspace, server: 'broken', field: 'timeout', message: 'must be at least 1 (seconds)' }],
    servers: [
      {
        name: 'memory',
        status: 'connected',
        source: workspace,
        scope: 'workspace',
        disabled: false,
        transport: 'stdio',
        tools: [
          { name: 'read_graph', description: 'Read the entire knowledge graph.', autoApproved: true },
          { name: 'create_entities', description: 'Create multiple new entities in the knowledge graph.', autoApproved: false },
        ],
        resources: [{ uri: 'memory://graph', name: 'The graph' }],
        resourceTemplates: [{ uriTemplate: 'memory://entities/{name}', name: 'One entity' }],
      },
      {
        name: 'docs',
        status: 'connecting',
        error: 'The server closed the connection unexpectedly',
        source: global,
        scope: 'global',
        disabled: false,
        transport: 'streamableHttp',
        tools: [],
        resources: [],
        resourceTemplates: [],
        reconnect: { attempt: 2, maxAttempts: 5 },
      },
      {
        name: 'broken',
        status: 'error',
        error: 'Invalid configuration: field "timeout": must be at least 1 (seconds)',
        source: workspace,
        scope: 'workspace',
        disabled: false,
        tools: [],
        resources: [],
        resourceTemplates: [],
      },
      { name: 'legacy', status: 'disabled', source: global, scope: 'global', disabled: true, transport: 'sse', tools: [], resources: [], resourceTemplates: [] },
    ],
  };
}
