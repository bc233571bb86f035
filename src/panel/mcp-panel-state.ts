import { WORKSPACE_MCP_FILE, type McpConfigProblem, type McpConfigSource } from '../core/mcp/mcp-config.js';
import type { McpServerSnapshot } from '../core/mcp/mcp-server-snapshot.js';
import type { McpElicitationRequest } from '../core/mcp/mcp-elicitation.js';
import type { McpConfigProblemView, McpPanelState, McpRegistryView, McpServerView, McpToolView } from '../shared/protocol.js';

/** Longest tool description a snapshot carries; the model sees the full one, the panel a summary. */
const MAX_DESCRIPTION = 300;

/** The MCP state with no servers and no files, for panels built without a hub. */
export const EMPTY_MCP_PANEL_STATE: McpPanelState = { servers: [], problems: [], configFiles: { global: '' } };

/** What the panel state is built from: the hub's servers and problems and the files it reads. */
interface McpPanelInputs {
  readonly servers: readonly McpServerSnapshot[];
  readonly problems: readonly McpConfigProblem[];
  readonly sources: readonly McpConfigSource[];
  /** Servers' forms waiting for an answer. */
  readonly elicitations?: readonly McpElicitationRequest[];
  /** The last registry search. */
  readonly registry?: McpRegistryView;
}

/** The panel's view of the hub: small (no schemas, short descriptions), plain data. */
export function mcpPanelState(inputs: McpPanelInputs): McpPanelState {
  const global = inputs.sources.find((s) => s.scope === 'global')?.path ?? '';
  // Smith's own workspace file: the one the panel opens and edits (a repository's .mcp.json is Claude Code's).
  const workspace = inputs.sources.find((s) => s.scope === 'workspace' && s.path.endsWith(WORKSPACE_MCP_FILE))?.path;
  return {
    servers: inputs.servers.map((server) => serverView(server, inputs.sources)),
    problems: inputs.problems.map(problemView),
    ...(inputs.elicitations && inputs.elicitations.length > 0
      ? { elicitations: inputs.elicitations.map((e) => ({ id: e.id, server: e.server, message: e.message, fields: [...e.fields], expiresAt: e.expiresAt })) }
      : {}),
    configFiles: { global, ...(workspace !== undefined ? { workspace } : {}) },
    ...(inputs.registry ? { registry: inputs.registry } : {}),
  };
}

function serverView(server: McpServerSnapshot, sources: readonly McpConfigSource[]): McpServerView {
  const autoApprove = new Set(server.config?.autoApprove ?? []);
  const scope = sources.find((s) => s.path === server.source)?.scope;
  return {
    name: server.name,
    status: server.status,
    ...(server.error !== undefined ? { error: server.error } : {}),
    source: server.source,
    scope: scope === 'global' || scope === 'workspace' ? scope : 'other',
    disabled: server.status === 'disabled',
    ...((server.transport ?? server.config?.transport.type) ? { transport: server.transport ?? server.config!.transport.type } : {}),
    tools: server.tools.map((tool): McpToolView => ({ name: tool.name, description: summary(tool.description), autoApproved: autoApprove.has(tool.name) })),
    resources: server.resources.map((r) => ({ uri: r.uri, name: r.name })),
    resourceTemplates: server.resourceTemplates.map((t) => ({ uriTemplate: t.uriTemplate, name: t.name })),
    ...(server.reconnect ? { reconnect: { attempt: server.reconnect.attempt, maxAttempts: server.reconnect.maxAttempts } } : {}),
    ...(server.auth ? { auth: { state: server.auth.state, ...(server.auth.url !== undefined ? { url: server.auth.url } : {}) } } : {}),
  };
}

/** Splits the engine's `field "x": message` wording so the panel can show the field on its own. */
function problemView(problem: McpConfigProblem): McpConfigProblemView {
  const match = /^field "([^"]+)": ([\s\S]*)$/.exec(problem.message);
  return {
    file: problem.file,
    ...(problem.server !== undefined ? { server: problem.server } : {}),
    ...(match ? { field: match[1]!, message: match[2]! } : { message: problem.message }),
  };
}

function summary(description: string): string {
  const first = description.trim().split(/\n\s*\n/)[0] ?? '';
  const flat = first.replace(/\s+/g, ' ');
  return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION - 1)}…` : flat;
}
