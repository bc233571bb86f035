import type { McpServerConfig } from './mcp-config.js';
import type { McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo, McpToolInfo } from './mcp-connection.js';
import type { McpTransportKind } from './mcp-transport.js';

/**
 * Where a server stands; `error` carries a message, `connecting` may be a reconnect after a crash or
 * a sign-in under way, `needs-auth` waits for the user to sign in (OAuth).
 */
export type McpServerStatus = 'connecting' | 'connected' | 'error' | 'disabled' | 'needs-auth';

/** A read-only view of one server for prompts, tools and UIs. */
export interface McpServerSnapshot {
  readonly name: string;
  readonly status: McpServerStatus;
  /** Why the server is in error, or the last failure while it reconnects. */
  readonly error?: string;
  /** The file the entry came from. */
  readonly source: string;
  /** Undefined when the entry is invalid. */
  readonly config?: McpServerConfig;
  readonly transport?: McpTransportKind;
  readonly tools: readonly McpToolInfo[];
  readonly resources: readonly McpResourceInfo[];
  readonly resourceTemplates: readonly McpResourceTemplateInfo[];
  readonly prompts: readonly McpPromptInfo[];
  readonly instructions?: string;
  readonly serverInfo?: { readonly name: string; readonly title?: string; readonly version: string };
  /** Set while waiting to reconnect after an unexpected exit. */
  readonly reconnect?: { readonly attempt: number; readonly maxAttempts: number };
  /** OAuth: a sign-in under way (with the authorization URL once known), needed, or done (connected with tokens). */
  readonly auth?: { readonly state: 'signing-in' | 'needs-sign-in' | 'signed-in'; readonly url?: string };
}

/** Says why a server cannot take calls now, for the model and the user. */
export function unavailableMessage(server: McpServerSnapshot): string {
  return `MCP server "${server.name}" is not available: ${describeStatus(server)}`;
}

/** The status in words, for error messages. */
export function describeStatus(server: McpServerSnapshot): string {
  switch (server.status) {
    case 'disabled':
      return 'it is disabled in the MCP settings.';
    case 'needs-auth':
      return `it needs you to sign in (in the panel: Sign in; in the CLI: /mcp login ${server.name}). ${server.error ?? ''}`.trim();
    case 'connecting':
      if (server.auth?.state === 'signing-in') return 'it is waiting for you to finish signing in in the browser.';
      return server.reconnect
        ? `it is reconnecting (attempt ${server.reconnect.attempt} of ${server.reconnect.maxAttempts}) after: ${server.error ?? 'a disconnect'}`
        : 'it is still connecting; try again shortly.';
    case 'error':
      return `status error: ${server.error ?? 'unknown error'}`;
    case 'connected':
      return 'it is connected.';
  }
}
