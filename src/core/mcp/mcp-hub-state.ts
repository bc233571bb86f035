import type { McpConfigProblem, McpServerConfig } from './mcp-config.js';
import type { McpConnection, McpRoot } from './mcp-connection.js';
import type { McpElicitor } from './mcp-elicitation.js';
import { McpLogBuffer } from './mcp-log-buffer.js';
import type { McpServerSnapshot, McpServerStatus } from './mcp-server-snapshot.js';
import type { McpSignInPorts } from './mcp-sign-in.js';

/** A log message a server sent (notifications/message). */
export interface McpServerLogEntry {
  readonly server: string;
  readonly level: string;
  readonly text: string;
}

/** The hub's tuning with every default filled in. */
export interface McpHubSettings {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly maxReconnectAttempts: number;
  readonly reconnectBaseDelayMs: number;
  readonly reconnectMaxDelayMs: number;
  readonly stableAfterMs: number;
  readonly logLines: number;
  readonly elicitationTimeoutMs: number;
  /** How long sign-out waits for the authorization server to revoke the tokens. */
  readonly revocationTimeoutMs: number;
}

/** One configured server as the hub keeps it. */
export interface HubSlot {
  readonly name: string;
  config?: McpServerConfig;
  invalid?: McpConfigProblem;
  status: McpServerStatus;
  error?: string;
  connection?: McpConnection;
  /** Bumped by every stop: work begun for an older generation drops its result. */
  generation: number;
  readonly log: McpLogBuffer;
  attempts: number;
  reconnect?: { attempt: number; maxAttempts: number };
  disabledOverride?: boolean;
  timers: Set<NodeJS.Timeout>;
  /** When a task stops waiting for this server's first connection (its start plus its `timeout`). */
  waitUntil?: number;
  /** Gives up the connection attempt under way (stop, dispose). */
  connecting?: AbortController;
  /** Where the server's OAuth sign-in stands, when it asked for one. */
  auth?: { state: 'signing-in' | 'needs-sign-in' | 'signed-in'; url?: string };
  /** True once sign-in started on its own for this configuration (it does not again until the user asks). */
  autoSignInDone?: boolean;
}

/** What the hub's parts share: the servers, the settings and the listeners. */
export interface HubContext {
  readonly slots: Map<string, HubSlot>;
  readonly settings: McpHubSettings;
  readonly signInPorts: McpSignInPorts | undefined;
  isDisposed(): boolean;
  elicitor(): McpElicitor | undefined;
  roots(): readonly McpRoot[];
  emitChange(): void;
  emitLog(entry: McpServerLogEntry): void;
}

/** The slot of `name`, created (connecting, empty) when the server is new. */
export function slotFor(context: HubContext, name: string): HubSlot {
  let slot = context.slots.get(name);
  if (!slot) {
    slot = { name, status: 'connecting', generation: 0, log: new McpLogBuffer(context.settings.logLines), attempts: 0, timers: new Set() };
    context.slots.set(name, slot);
  }
  return slot;
}

/** The error for a name no server has, listing the ones there are. */
export function unknownServerMessage(context: HubContext, name: string): string {
  const names = [...context.slots.keys()];
  return `There is no MCP server named "${name}". ${names.length > 0 ? `Configured servers: ${names.join(', ')}.` : 'No MCP servers are configured.'}`;
}

/** A read-only view of a slot. */
export function snapshotOf(slot: HubSlot): McpServerSnapshot {
  const connection = slot.connection;
  return {
    name: slot.name,
    status: slot.status,
    ...(slot.error !== undefined ? { error: slot.error } : {}),
    source: slot.config?.source ?? slot.invalid?.file ?? '',
    ...(slot.config ? { config: slot.config } : {}),
    ...(connection ? { transport: connection.kind } : {}),
    tools: connection?.tools ?? [],
    resources: connection?.resources ?? [],
    resourceTemplates: connection?.resourceTemplates ?? [],
    prompts: connection?.prompts ?? [],
    ...(connection?.instructions ? { instructions: connection.instructions } : {}),
    ...(connection?.serverInfo ? { serverInfo: connection.serverInfo } : {}),
    ...(slot.reconnect ? { reconnect: { ...slot.reconnect } } : {}),
    ...(slot.auth ? { auth: { ...slot.auth } } : {}),
  };
}

/** Adds a stdio server's last output lines, which usually say why it failed (a remote server's log is only our own transport errors). */
export function withOutput(message: string, slot: HubSlot): string {
  if (slot.config?.transport.type !== 'stdio') return message;
  const tail = slot.log.tail(5);
  return tail ? `${message}\nLast server output:\n${tail}` : message;
}
