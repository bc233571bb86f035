import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpTransportConfig } from './mcp-config.js';
import { mcpSdk } from './mcp-sdk-loader.js';

/** The transport a connection ended up using (a Streamable HTTP entry may fall back to SSE). */
export type McpTransportKind = 'stdio' | 'streamableHttp' | 'sse';

/** What connecting needs besides the server's own settings. */
export interface McpConnectOptions {
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The environment stdio servers inherit before the entry's own `env`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** What the client declares it can do (elicitation, roots). */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** Gives up the handshake (the server is stopped or Smith exits): the transport is closed, a stdio server's process ends. */
  readonly signal?: AbortSignal;
  /** Signs requests of a remote server with its OAuth tokens, refreshing them on a 401. */
  readonly authProvider?: OAuthClientProvider;
  /** Registers handlers on a new Client before it connects, so no early notification is lost. */
  setup(client: Client): void;
  onStderr(chunk: string): void;
}

/** A Client that completed the MCP handshake. */
interface ConnectedMcpClient {
  readonly client: Client;
  readonly transport: Transport;
  readonly kind: McpTransportKind;
}

/** Connects to one server; a Streamable HTTP entry falls back to the older SSE transport when that fails. */
export async function connectMcpClient(config: McpTransportConfig, options: McpConnectOptions): Promise<ConnectedMcpClient> {
  const { SSEClientTransport, StreamableHTTPClientTransport } = mcpSdk();
  if (config.type === 'stdio') return connectWith(stdioTransport(config, options), 'stdio', options);
  const url = new URL(config.url);
  const http = { requestInit: { headers: { ...config.headers } } as RequestInit, ...(options.authProvider ? { authProvider: options.authProvider } : {}) };
  if (config.type === 'sse') return connectWith(new SSEClientTransport(url, http), 'sse', options);
  try {
    return await connectWith(new StreamableHTTPClientTransport(url, http), 'streamableHttp', options);
  } catch (streamableError) {
    // The SDK stopped at the browser (sign-in): trying SSE would only ask again.
    if (streamableError instanceof mcpSdk().UnauthorizedError) throw streamableError;
    // The backwards-compatibility recipe of the SDK docs: servers from before 2025-03-26 only speak SSE.
    try {
      return await connectWith(new SSEClientTransport(url, http), 'sse', options);
    } catch (sseError) {
      const message = `Streamable HTTP failed (${messageOf(streamableError)}), and the SSE fallback failed too (${messageOf(sseError)})`;
      throw isSignInRequired(streamableError) && isSignInRequired(sseError) ? new McpUnauthorizedError(message) : new Error(message);
    }
  }
}

/** The environment a stdio server starts with: the user's (so npx, uvx and version managers work), then the entry's. */
function stdioEnvironment(base: Readonly<Record<string, string | undefined>>, own: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  return { ...env, ...own };
}

function stdioTransport(config: Extract<McpTransportConfig, { type: 'stdio' }>, options: McpConnectOptions): StdioClientTransport {
  // On Windows npx/uvx are .cmd scripts, which spawn() without a shell cannot run.
  const wrap = process.platform === 'win32' && !/\.(exe|com)$/i.test(config.command) && !/[\\/]/.test(config.command);
  const transport = new (mcpSdk().StdioClientTransport)({
    command: wrap ? 'cmd.exe' : config.command,
    args: wrap ? ['/c', config.command, ...config.args] : [...config.args],
    env: stdioEnvironment(options.env, config.env),
    stderr: 'pipe',
    ...(config.cwd ? { cwd: config.cwd } : {}),
  });
  transport.stderr?.on('data', (chunk: Buffer) => options.onStderr(chunk.toString('utf8')));
  return transport;
}

async function connectWith(transport: Transport, kind: McpTransportKind, options: McpConnectOptions): Promise<ConnectedMcpClient> {
  const client = new (mcpSdk().Client)({ name: options.clientInfo.name, version: options.clientInfo.version }, { capabilities: { ...options.capabilities } });
  options.setup(client);
  try {
    await client.connect(transport, { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    await client.close().catch(() => {});
    throw friendlyConnectError(error, transport);
  }
  return { client, transport, kind };
}

function friendlyConnectError(error: unknown, transport: Transport): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (transport instanceof mcpSdk().StdioClientTransport && code === 'ENOENT') {
    return new Error(`the command was not found (${messageOf(error)}); is it installed and on PATH?`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** Both transports of a URL without a declared type were refused with HTTP 401. */
class McpUnauthorizedError extends Error {}

/** True when a remote server refused the request for want of (valid) OAuth credentials: HTTP 401, or the SDK needing the browser. */
export function isSignInRequired(error: unknown): boolean {
  const { SseError, StreamableHTTPError, UnauthorizedError } = mcpSdk();
  return (
    error instanceof UnauthorizedError ||
    error instanceof McpUnauthorizedError ||
    ((error instanceof StreamableHTTPError || error instanceof SseError) && error.code === 401)
  );
}

/** An error's message without the SDK's "MCP error -32000:" prefix noise. */
export function messageOf(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/^MCP error -?\d+: /, '');
  // The SDK's HTTP errors keep the status in `code` but not always in the message.
  const status = (error as { code?: unknown }).code;
  return typeof status === 'number' && status >= 100 && status < 600 && !message.includes(String(status)) ? `${message} (HTTP ${status})` : message;
}
